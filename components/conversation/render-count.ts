"use client";

import { useLayoutEffect } from "react";

declare global {
  interface Window {
    /** Set only on a page opened with `?renderCount`: commits per message row and streaming bubble (the e2e render budget). */
    __chorusRenders?: Record<string, number>;
  }
}

let enabled: boolean | null = null;

function counting(): boolean {
  enabled ??= typeof window !== "undefined" && new URLSearchParams(window.location.search).has("renderCount");
  return enabled;
}

/**
 * Counts the commits of a component under `key` (`message:<id>`, `live:<dispatchId>`), for the
 * render budget's end-to-end test: a streamed piece must re-render its own bubble and nothing
 * else. Off (one comparison per commit) unless the page was opened with `?renderCount`, in a
 * production build too, which is what the test runs.
 */
export function useRenderCount(key: string): void {
  useLayoutEffect(() => {
    if (!counting()) return;
    const counts = (window.__chorusRenders ??= {});
    counts[key] = (counts[key] ?? 0) + 1;
  });
}
