"use client";

import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";

const HIGHLIGHT = "chorus-find";
const INPUT_ID = "find-in-conversation";

/** The CSS Custom Highlight API (Chromium 105+, Safari 17.2+, Firefox 140+); absent elsewhere. */
function highlights(): HighlightRegistry | undefined {
  return typeof CSS !== "undefined" && "highlights" in CSS ? CSS.highlights : undefined;
}

/** Marks the query's occurrences in a rendered message with the find highlight (text only; nothing re-renders). */
function markText(element: HTMLElement, query: string): void {
  const registry = highlights();
  if (!registry) return;
  const needle = query.toLowerCase();
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue?.toLowerCase() ?? "";
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      ranges.push(range);
    }
  }
  registry.set(HIGHLIGHT, new Highlight(...ranges));
}

function unmark(): void {
  highlights()?.delete(HIGHLIGHT);
}

/**
 * Find as you read, over the loaded messages: the list is virtualised, so the browser's own find
 * (Ctrl+F) would see only the rows near the view. Ctrl/Cmd+F opens this instead (pressed again in
 * its box, the browser's own); each match is scrolled to, marked and its words highlighted.
 * Older history than is loaded is for the search screen, linked from the bar.
 */
export function useFindInConversation({
  messages,
  scrollToMessage,
  setHighlighted,
}: {
  messages: MessageDto[];
  scrollToMessage: (seq: number, options?: { focus?: boolean }) => boolean;
  setHighlighted: (seq: number | null) => void;
}) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  // Counted from the newest match: 0 is the newest, the reader's starting point at the bottom.
  const [fromNewest, setFromNewest] = useState(0);
  // Asked to take the keyboard (Ctrl+F again while open but elsewhere): the bar focuses its box.
  const [focusRequest, setFocusRequest] = useState(0);
  const returnFocus = useRef<HTMLElement | null>(null);

  const needle = query.trim().toLowerCase();
  const matches = useMemo(() => (needle ? messages.filter((message) => !message.deleted && message.content.toLowerCase().includes(needle)).map((message) => message.seq) : []), [messages, needle]);
  const current = matches.length > 0 ? matches[matches.length - 1 - (fromNewest % matches.length)]! : null;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== "f") return;
      // Pressed again in the box: the browser's own find, for whatever else the page shows.
      if (document.activeElement?.id === INPUT_ID) return;
      event.preventDefault();
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setOpen(true);
      setFocusRequest((count) => count + 1);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  // Each new current match is scrolled to, marked, and its words highlighted once it is rendered.
  useEffect(() => {
    if (!open || current === null) {
      unmark();
      return;
    }
    setHighlighted(current);
    scrollToMessage(current, { focus: false });
    let frames = 0;
    let frame = requestAnimationFrame(function mark() {
      const element = document.querySelector<HTMLElement>(`[data-testid="message-scroller"] [data-seq="${current}"]`);
      if (element) markText(element, needle);
      else if (++frames < 60) frame = requestAnimationFrame(mark);
    });
    return () => cancelAnimationFrame(frame);
  }, [open, current, needle, scrollToMessage, setHighlighted]);

  const close = useCallback(() => {
    setOpen(false);
    setHighlighted(null);
    unmark();
    returnFocus.current?.focus({ preventScroll: true });
  }, [setHighlighted]);

  return {
    open,
    query,
    focusRequest,
    total: matches.length,
    /** 1-based, in reading order (oldest first), as "3 of 12" says it. */
    position: current === null ? 0 : matches.indexOf(current) + 1,
    loaded: messages.length,
    search: (text: string) => {
      setQuery(text);
      setFromNewest(0);
    },
    older: () => setFromNewest((value) => value + 1),
    newer: () => setFromNewest((value) => (value - 1 + Math.max(1, matches.length)) % Math.max(1, matches.length)),
    close,
  };
}

type Find = ReturnType<typeof useFindInConversation>;

const button = "rounded-md px-2 py-1 text-sm font-semibold text-muted-strong hover:bg-slate-100 disabled:opacity-50 dark:hover:bg-slate-800";

/** The find bar above the messages, while open. */
export function FindBar({ find, conversationId }: { find: Find; conversationId: string }) {
  return find.open ? <OpenFindBar find={find} conversationId={conversationId} /> : null;
}

function OpenFindBar({ find, conversationId }: { find: Find; conversationId: string }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), [find.focusRequest]);
  const status = !find.query.trim()
    ? `Find in the ${find.loaded.toLocaleString()} loaded messages`
    : find.total === 0
      ? `No match in the ${find.loaded.toLocaleString()} loaded messages`
      : `${find.position} of ${find.total} in the loaded messages`;
  return (
    <div role="search" aria-label="Find in conversation" className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-slate-200 px-3 py-2 sm:px-4 dark:border-slate-800">
      <style>{`::highlight(${HIGHLIGHT}) { background-color: #facc15; color: #0f172a; }`}</style>
      <input
        ref={input}
        id={INPUT_ID}
        type="search"
        aria-label="Find in conversation"
        placeholder="Find in conversation"
        value={find.query}
        onChange={(event) => find.search(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            if (event.shiftKey) find.newer();
            else find.older();
          } else if (event.key === "Escape") {
            event.preventDefault();
            find.close();
          }
        }}
        className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
      />
      <button type="button" className={button} onClick={find.older} disabled={find.total < 2}>
        Older match
      </button>
      <button type="button" className={button} onClick={find.newer} disabled={find.total < 2}>
        Newer match
      </button>
      <button type="button" className={button} onClick={find.close}>
        Close find
      </button>
      <p role="status" className="w-full text-xs text-muted">
        {status}
        {find.query.trim() && (
          <>
            {" · "}
            <Link href={`/search?q=${encodeURIComponent(find.query.trim())}&conversation=${conversationId}`} className="text-link underline">
              Search all messages
            </Link>
          </>
        )}
      </p>
    </div>
  );
}
