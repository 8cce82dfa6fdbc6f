"use client";

import { useCallback, useLayoutEffect, useRef, useState } from "react";

/** How close to the bottom counts as "at the bottom" (px). */
const BOTTOM_SLACK = 48;
/** Older history is fetched while the reader is still this far (px) from the top. */
const PREFETCH_PX = 1_200;

interface Anchor {
  seq: string;
  offset: number;
  /** The scroll position it was seen at. */
  scrollTop: number;
}

/**
 * The message list's scrolling: older pages load as the reader nears the top, and the first
 * message they can see stays exactly where it was while a page is added above it (no jump, no
 * "Load older" click); new messages are followed only while the reader is at the bottom.
 * Browser scroll anchoring is switched off on the scroller so the two never both adjust.
 */
export function useHistoryScroll({ hasOlder, loadingOlder, loadOlder }: { hasOlder: boolean; loadingOlder: boolean; loadOlder: () => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [atBottom, setAtBottom] = useState(true);
  const anchor = useRef<Anchor | null>(null);

  // A conversation opens at its newest message (before any decision to load older ones).
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [scroller]);

  const firstVisible = useCallback((): Anchor | null => {
    const element = scroller.current;
    if (!element) return null;
    const top = element.getBoundingClientRect().top;
    for (const candidate of element.querySelectorAll<HTMLElement>("[data-seq]")) {
      const box = candidate.getBoundingClientRect();
      if (box.bottom > top) return { seq: candidate.dataset.seq!, offset: box.top - top, scrollTop: element.scrollTop };
    }
    return null;
  }, [scroller]);

  const maybeLoadOlder = useCallback(() => {
    const element = scroller.current;
    if (!element || !hasOlder || loadingOlder || anchor.current) return;
    if (element.scrollTop > PREFETCH_PX) return;
    anchor.current = firstVisible();
    loadOlder();
  }, [scroller, hasOlder, loadingOlder, loadOlder, firstVisible]);

  // When the older page has arrived (it renders in the same commit as the end of loading), put
  // the anchored message back where the reader saw it, then keep loading if still near the top.
  const wasLoading = useRef(false);
  useLayoutEffect(() => {
    if (loadingOlder) {
      wasLoading.current = true;
      return;
    }
    const element = scroller.current;
    const held = anchor.current;
    if (wasLoading.current) {
      wasLoading.current = false;
      anchor.current = null;
      const target = held && element?.querySelector<HTMLElement>(`[data-seq="${held.seq}"]`);
      if (element && held && target) {
        // A scroll whose event has not been handled yet (made in the frame the page arrived) is kept.
        const unseenScroll = held.scrollTop - element.scrollTop;
        element.scrollTop += target.getBoundingClientRect().top - element.getBoundingClientRect().top - (held.offset + unseenScroll);
      }
    }
    // A short first page (or a tall screen) may not fill the view: keep loading until it does.
    maybeLoadOlder();
  }, [loadingOlder, maybeLoadOlder]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    setAtBottom(element.scrollHeight - element.scrollTop - element.clientHeight < BOTTOM_SLACK);
    // The reader keeps scrolling while a page loads: anchor what they see now, not what they saw
    // when it was asked for, or its arrival would undo their scrolling.
    if (anchor.current) anchor.current = firstVisible();
    else maybeLoadOlder();
  };

  const scrollToBottom = useCallback(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
    setAtBottom(true);
  }, [scroller]);

  return { scroller, atBottom, onScroll, scrollToBottom };
}
