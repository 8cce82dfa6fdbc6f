"use client";

import { useEffect, useRef } from "react";
import { getSocket } from "./use-socket";

/**
 * Marks the conversation read up to `latestSeq` while the person can actually see it: the tab
 * is visible and the list is scrolled to the bottom. A hidden tab marks nothing.
 */
export function useMarkRead(conversationId: string, latestSeq: number, atBottom: boolean, alreadyRead: number) {
  const sent = useRef(alreadyRead);

  useEffect(() => {
    const mark = () => {
      if (document.visibilityState !== "visible" || !atBottom || latestSeq <= sent.current) return;
      sent.current = latestSeq;
      getSocket().emit("conversation:read", { conversationId, seq: latestSeq }, () => undefined);
    };
    mark();
    document.addEventListener("visibilitychange", mark);
    return () => document.removeEventListener("visibilitychange", mark);
  }, [conversationId, latestSeq, atBottom]);
}
