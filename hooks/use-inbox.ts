"use client";

import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { InboxPage } from "@/lib/inbox/inbox-page";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { ConversationActivity, MessageMeta } from "@/lib/realtime/events";
import { getJson } from "./get-json";
import { queryKeys } from "./query-keys";
import { getSocket, listenTo } from "./use-socket";

/** Whether a new message belongs in this person's inbox: it mentions them, or answers their question. */
export function concernsInbox(me: string, { mentionedUserIds, answersUserId }: Pick<ConversationActivity, "mentionedUserIds" | "answersUserId">): boolean {
  return mentionedUserIds.includes(me) || answersUserId === me;
}

/**
 * The count of unread mentions and replies (the sidebar's), kept live: a new message that
 * mentions or answers the person, a read position that moved, a deletion, or a reconnect asks
 * again — both inbox queries, so an open inbox page follows too.
 */
export function useInboxUnread(me: string): number {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: queryKeys.inboxUnread(), queryFn: () => getJson<{ count: number }>("/api/inbox/unread", "Could not count your mentions.") });

  useEffect(() => {
    const socket = getSocket();
    const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.inbox() });
    const onActivity = (activity: Pick<ConversationActivity, "mentionedUserIds" | "answersUserId">) => concernsInbox(me, activity) && refresh();
    socket.io.on("reconnect", refresh);
    const stopListening = listenTo(socket, {
      "conversation:activity": onActivity,
      "message:created": (_message: MessageDto, meta?: MessageMeta) => onActivity({ mentionedUserIds: meta?.mentionedUserIds ?? [], answersUserId: meta?.answersUserId ?? undefined }),
      "read:updated": refresh,
      "message:deleted": refresh,
      "conversation:removed": refresh,
      "sync:hint": refresh,
    });
    return () => {
      socket.io.off("reconnect", refresh);
      stopListening();
    };
  }, [me, queryClient]);

  return query.data?.count ?? 0;
}

/** The inbox's pages, newest first, the first from the server's render; older ones on demand. */
export function useInboxPages(initial: InboxPage) {
  return useInfiniteQuery({
    queryKey: queryKeys.inboxPages(),
    queryFn: ({ pageParam }) => getJson<InboxPage>(pageParam ? `/api/inbox?${new URLSearchParams({ cursor: pageParam })}` : "/api/inbox", "Could not load your mentions and replies."),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    initialData: { pages: [initial], pageParams: [""] },
  });
}
