"use client";

import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessageDelta } from "@/lib/realtime/events";
import { LiveReplyStore, type LiveReplyInfo } from "./live-reply-store";
import { getSocket, listenTo } from "./use-socket";

export type { LiveReplyInfo } from "./live-reply-store";

/**
 * Agents' replies while they stream, replaced by the persisted message when it arrives. The
 * pieces go into a store outside React: the list's footer reads which replies stream with
 * `useLiveReplyList` (it alone re-renders when one starts or ends), and each bubble its own text
 * with `useLiveReplyText`, so a piece re-renders that bubble alone.
 */
export function useLiveReplies(conversationId: string): { store: LiveReplyStore; stop: (dispatchId: string) => void } {
  const [store] = useState(() => new LiveReplyStore());

  useEffect(() => {
    const onDelta = (delta: MessageDelta) => {
      if (delta.conversationId === conversationId) store.applyDelta(delta);
    };
    const onMessage = (message: MessageDto) => {
      if (message.metadata.dispatchId) store.finish(message.metadata.dispatchId);
    };
    // A reply that finished while we were away arrives as a message through catch-up.
    const stopListening = listenTo(getSocket(), { "message:delta": onDelta, "message:created": onMessage, "message:updated": onMessage, disconnect: () => store.clear() });
    return () => {
      stopListening();
      store.clear();
    };
  }, [conversationId, store]);

  const stop = useCallback((dispatchId: string) => getSocket().emit("agent:stop", { dispatchId }, () => undefined), []);
  return { store, stop };
}

/** The replies streaming now; re-renders its caller when one starts or ends. */
export function useLiveReplyList(store: LiveReplyStore): LiveReplyInfo[] {
  return useSyncExternalStore(store.subscribeReplies, store.replies, store.replies);
}

/** One streaming reply's text so far; re-renders its caller on every piece of that reply only. */
export function useLiveReplyText(store: LiveReplyStore, dispatchId: string): string {
  const subscribe = useCallback((listener: () => void) => store.subscribeText(dispatchId, listener), [store, dispatchId]);
  const read = useCallback(() => store.text(dispatchId), [store, dispatchId]);
  return useSyncExternalStore(subscribe, read, read);
}
