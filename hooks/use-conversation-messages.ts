"use client";

import { useInfiniteQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessagePage } from "@/lib/conversations/list-messages";
import { ConversationSync, type MessageStore } from "./conversation-sync";
import { changeWatermark, heldSeqs, mergeMessages, updateMessages, withOlderPage, type MessagesData } from "./message-cache";
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
    }),
    [conversationId, queryClient],
  );

  const older = useOlderPages(conversationId, query.data);
  return { data: query.data, received, changed, ...older };
}

/**
 * Older pages, each added to the cache as it is when it arrives (see withOlderPage), one request
 * at a time. A failed page is said in `olderError` and asked again at the next call.
 */
function useOlderPages(conversationId: string, data: MessagesData | undefined) {
  const queryClient = useQueryClient();
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const inFlight = useRef(false);
  const loadOlder = useCallback(async () => {
    const beforeSeq = queryClient.getQueryData<MessagesData>(queryKeys.messages(conversationId))?.pages.at(-1)?.nextBeforeSeq;
    if (inFlight.current || beforeSeq === null || beforeSeq === undefined) return;
    inFlight.current = true;
    setLoadingOlder(true);
    try {
      const page = await fetchMessagePage(conversationId, beforeSeq);
      queryClient.setQueryData<MessagesData>(queryKeys.messages(conversationId), (current) => withOlderPage(current, beforeSeq, page));
      setOlderError(null);
    } catch (error) {
      setOlderError(error instanceof Error ? error.message : "Could not load older messages.");
    } finally {
      inFlight.current = false;
      setLoadingOlder(false);
    }
  }, [conversationId, queryClient]);
  const nextBeforeSeq = data?.pages.at(-1)?.nextBeforeSeq;
  return { hasOlder: nextBeforeSeq !== null && nextBeforeSeq !== undefined, loadingOlder, olderError, loadOlder };
}
