"use client";

import { useInfiniteQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessagePage } from "@/lib/conversations/list-messages";
import type { ReactionUpdate } from "@/lib/messages/react-to-message";
import { ConversationSync, type MessageStore } from "./conversation-sync";
import { changeWatermark, heldSeqs, mergeMessages, updateMessages, withReactions, type MessagesData } from "./message-cache";
import { queryKeys } from "./query-keys";
import { getSocket } from "./use-socket";

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
 * the socket, kept complete by ConversationSync (catch-up by seq after reconnects, gaps and
 * lost broadcasts). `received` takes messages that arrived another way (a send's answer).
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
  const sync = useRef<ConversationSync | null>(null);

  useEffect(() => {
    const store: MessageStore = {
      add: (messages) => addMessagesToCache(queryClient, conversationId, messages),
      update: (messages) => queryClient.setQueryData<MessagesData>(queryKeys.messages(conversationId), (data) => updateMessages(data, messages)),
      react: (update) => queryClient.setQueryData<MessagesData>(queryKeys.messages(conversationId), (data) => withReactions(data, update)),
      seqs: () => heldSeqs(queryClient.getQueryData<MessagesData>(queryKeys.messages(conversationId))),
      changeWatermark: () => changeWatermark(queryClient.getQueryData<MessagesData>(queryKeys.messages(conversationId))),
    };
    const current = new ConversationSync(getSocket(), conversationId, store);
    sync.current = current;
    current.start();
    return () => {
      current.stop();
      sync.current = null;
    };
  }, [conversationId, queryClient]);

  const received = useCallback(
    (messages: MessageDto[]) => {
      if (sync.current) sync.current.received(messages);
      else addMessagesToCache(queryClient, conversationId, messages);
    },
    [conversationId, queryClient],
  );

  /** This tab's own changes, applied at once (the broadcast of the same change is then not newer). */
  const changed = useMemo(
    () => ({
      messages: (messages: MessageDto[]) => queryClient.setQueryData<MessagesData>(queryKeys.messages(conversationId), (data) => updateMessages(data, messages)),
      reactions: (update: ReactionUpdate) => queryClient.setQueryData<MessagesData>(queryKeys.messages(conversationId), (data) => withReactions(data, update)),
    }),
    [conversationId, queryClient],
  );

  return { ...query, received, changed };
}
