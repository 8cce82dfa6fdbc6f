"use client";

import { useInfiniteQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessagePage } from "@/lib/conversations/list-messages";
import { latestSeq, mergeMessages, type MessagesData } from "./message-cache";
import { queryKeys } from "./query-keys";
import { getSocket, type ChorusClientSocket } from "./use-socket";

async function fetchMessagePage(conversationId: string, beforeSeq: number | undefined): Promise<MessagePage> {
  const query = beforeSeq === undefined ? "" : `?beforeSeq=${beforeSeq}`;
  const response = await fetch(`/api/conversations/${conversationId}/messages${query}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? "Could not load messages.");
  return body.data as MessagePage;
}

export function addMessagesToCache(queryClient: QueryClient, conversationId: string, messages: MessageDto[]): void {
  queryClient.setQueryData<MessagesData>(queryKeys.messages(conversationId), (data) => mergeMessages(data, messages));
}

/**
 * A conversation's messages: server-rendered first page, older pages on demand, new ones over
 * the socket. Every (re)connect joins the room and asks for what came after the newest seq seen,
 * so nothing sent while this tab was offline is missed.
 */
export function useConversationMessages(conversationId: string, initialPage: MessagePage) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: queryKeys.messages(conversationId),
    queryFn: ({ pageParam }) => fetchMessagePage(conversationId, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBeforeSeq ?? undefined,
    initialData: { pages: [initialPage], pageParams: [undefined] },
  });

  useEffect(() => {
    const socket = getSocket();
    const onCreated = (message: MessageDto) => {
      if (message.conversationId === conversationId) addMessagesToCache(queryClient, conversationId, [message]);
    };
    const joinAndCatchUp = () => {
      socket.emit("conversation:join", { conversationId }, (ack) => {
        if ("data" in ack) catchUp(socket, queryClient, conversationId);
      });
    };
    socket.on("message:created", onCreated);
    socket.on("connect", joinAndCatchUp);
    if (socket.connected) joinAndCatchUp();
    return () => {
      socket.off("message:created", onCreated);
      socket.off("connect", joinAndCatchUp);
      socket.emit("conversation:leave", { conversationId }, () => undefined);
    };
  }, [conversationId, queryClient]);

  return query;
}

function catchUp(socket: ChorusClientSocket, queryClient: QueryClient, conversationId: string): void {
  const afterSeq = latestSeq(queryClient.getQueryData<MessagesData>(queryKeys.messages(conversationId)));
  socket.emit("sync:since", { conversationId, afterSeq }, (ack) => {
    if (!("data" in ack)) return;
    addMessagesToCache(queryClient, conversationId, ack.data.messages);
    if (!ack.data.complete) catchUp(socket, queryClient, conversationId);
  });
}
