"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ConversationRemoved, ConversationUpdate } from "@/lib/realtime/events";
import { applyConversationUpdate } from "./conversation-cache";
import { queryKeys } from "./query-keys";
import { fetchConversations } from "./use-conversations";
import { getSocket, listenTo } from "./use-socket";

/**
 * The open conversation's name, topic and archived state as they are now: the sidebar's list,
 * which `conversation:updated` patches, else what the page was rendered with.
 */
export function useLiveConversation(initial: ConversationSummary): ConversationSummary {
  const select = useCallback((list: ConversationSummary[]) => list.find((conversation) => conversation.id === initial.id), [initial.id]);
  const { data: live } = useQuery({ queryKey: queryKeys.conversations(), queryFn: fetchConversations, select });
  return live ? { ...initial, title: live.title, topic: live.topic, archived: live.archived, notify: live.notify, muted: live.muted } : initial;
}

/** A change this tab made: shown at once, before the socket's own announcement arrives. */
export function useApplyConversationUpdate() {
  const queryClient = useQueryClient();
  return useCallback(
    (update: ConversationUpdate) => queryClient.setQueryData<ConversationSummary[]>(queryKeys.conversations(), (list) => applyConversationUpdate(list, update)),
    [queryClient],
  );
}

/** Set when this person leaves the conversation or is removed from it, in any tab. */
export function useRemoval(conversationId: string): ConversationRemoved | null {
  const [removal, setRemoval] = useState<ConversationRemoved | null>(null);
  useEffect(
    () =>
      listenTo(getSocket(), {
        "conversation:removed": (event) => {
          if (event.conversationId === conversationId) setRemoval(event);
        },
      }),
    [conversationId],
  );
  return removal;
}
