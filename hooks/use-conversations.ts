"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { ConversationActivity, ConversationRemoved, ConversationUpdate, MessageMeta } from "@/lib/realtime/events";
import { activityOf } from "@/lib/realtime/conversation-activity";
import { applyActivity, applyConversationUpdate, applyReadUpdate, dropConversation } from "./conversation-cache";
import { queryKeys } from "./query-keys";
import { getSocket, listenTo } from "./use-socket";

export async function fetchConversations(): Promise<ConversationSummary[]> {
  const response = await fetch("/api/conversations");
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? "Could not load conversations.");
  return body.data;
}

/** The user's conversations with live unread and mention counts. */
export function useConversations(userId: string, initial: ConversationSummary[]) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: queryKeys.conversations(), queryFn: fetchConversations, initialData: initial });

  useEffect(() => {
    const socket = getSocket();
    const key = queryKeys.conversations();
    const onActivity = (activity: ConversationActivity) => {
      const known = queryClient.getQueryData<ConversationSummary[]>(key)?.some((conversation) => conversation.id === activity.conversationId);
      if (known) queryClient.setQueryData<ConversationSummary[]>(key, (list) => applyActivity(list, activity, userId));
      else void queryClient.invalidateQueries({ queryKey: key });
    };
    // A socket in a conversation's room gets the message itself instead of an activity event.
    const onMessage = (message: MessageDto, meta?: MessageMeta) => onActivity(activityOf(message, meta));
    const onRead = (summary: ConversationSummary) => queryClient.setQueryData<ConversationSummary[]>(key, (list) => applyReadUpdate(list, summary));
    const onCreated = () => void queryClient.invalidateQueries({ queryKey: key });
    const onUpdated = (update: ConversationUpdate) => queryClient.setQueryData<ConversationSummary[]>(key, (list) => applyConversationUpdate(list, update));
    const onRemoved = ({ conversationId }: ConversationRemoved) => queryClient.setQueryData<ConversationSummary[]>(key, (list) => dropConversation(list, conversationId));
    // After a reconnect the counts may have moved while we were away: one refetch, not one per event.
    const onReconnect = () => void queryClient.invalidateQueries({ queryKey: key });
    socket.io.on("reconnect", onReconnect);
    const stopListening = listenTo(socket, {
      "conversation:activity": onActivity,
      "message:created": onMessage,
      "read:updated": onRead,
      "conversation:created": onCreated,
      "conversation:updated": onUpdated,
      "conversation:removed": onRemoved,
      // Broadcasts may have been lost (the server's Redis link came back): counts come from the database.
      "sync:hint": onReconnect,
    });
    return () => {
      socket.io.off("reconnect", onReconnect);
      stopListening();
    };
  }, [queryClient, userId]);

  return query.data;
}
