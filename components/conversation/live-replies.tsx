"use client";

import { memo, type LiHTMLAttributes } from "react";
import type { LiveReplyStore, LiveReplyInfo } from "@/hooks/live-reply-store";
import { useLiveReplyText } from "@/hooks/use-live-replies";
import { Avatar } from "@/components/ui/avatar";
import { AgentBadge } from "./agent-badge";
import { Markdown } from "./markdown";
import type { MentionHandles } from "./remark-mentions";
import { useRenderCount } from "./render-count";
import { StopButton } from "./stop-button";

/** A block of a streaming reply's markdown, or a list cut into its items. */
export type ReplyBlock = { kind: "block"; text: string } | { kind: "list"; items: string[] };

/** A list item's first line at the margin (`1.`, `2)`, `-`, `*`, `+`): its number and its marker; anything else continues the item. */
const LIST_ITEM = /^(?:(\d{1,9})([.)])|([-*+]))[ \t]/;
/** The items that may end a paragraph without a blank line (CommonMark: a bullet, or an ordered list starting at 1). */
const LIST_START = /^([-*+]|1[.)])[ \t]/;

/**
 * A reply's markdown cut into its blocks (paragraphs, lists, tables, fenced code), at blank lines
 * outside a code fence, and a list into its items: while it streams, only the last block or item
 * still changes, so a piece re-parses a few lines, not the whole list it is writing. A list ends
 * where its marker changes (as in CommonMark), and an ordered item is given the number the whole
 * list would show it with (the list's first number, counted on), since it is parsed alone.
 */
export function markdownBlocks(text: string): ReplyBlock[] {
  const blocks: ReplyBlock[] = [];
  let lines: string[] = [];
  let items: string[] | null = null;
  /** The open list's marker (`.`, `)`, `-`, `*`, `+`) and its first number (ordered lists). */
  let list = null as { marker: string; start: number } | null;
  let fence: string | null = null;
  const flush = () => {
    if (items) items.push(lines.join("\n"));
    if (items || lines.length > 0) blocks.push(items ? { kind: "list", items } : { kind: "block", text: lines.join("\n") });
    lines = [];
    items = null;
    list = null;
  };
  for (const line of text.split("\n")) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) fence = fence === null ? marker : null;
    if (fence === null && line.trim() === "") {
      flush();
      continue;
    }
    const item = fence === null ? LIST_ITEM.exec(line) : null;
    if (item) {
      const [, number, delimiter, bullet] = item;
      const listMarker = bullet ?? delimiter!;
      if (items && list?.marker === listMarker) {
        items.push(lines.join("\n"));
        lines = [];
      } else if (items || lines.length === 0 || LIST_START.test(line)) {
        // Elsewhere a paragraph's next line may look like an item ("2. quarter") and be part of it.
        flush();
        items = [];
        list = { marker: listMarker, start: Number(number ?? 1) };
      }
      if (items && number !== undefined) {
        lines.push(`${list!.start + items.length}${line.slice(number.length)}`);
        continue;
      }
    }
    lines.push(line);
  }
  flush();
  return blocks;
}

/** A streaming reply's list item: busy, named for screen readers by who is replying. */
export function liveReplyRowProps(reply: LiveReplyInfo): LiHTMLAttributes<HTMLLIElement> {
  return { className: "flex gap-3 px-3 py-2 sm:px-4", "aria-label": `${reply.agent.displayName} is replying`, "aria-busy": true };
}

/**
 * A reply still streaming, with its agent's attribution; Stop for whoever asked (and admins):
 * the server refuses anyone else. Renders when the reply starts; its text renders on every piece.
 */
export const LiveReplyContent = memo(function LiveReplyContent({
  reply,
  store,
  canStop,
  onStop,
  handles,
}: {
  reply: LiveReplyInfo;
  store: LiveReplyStore;
  canStop: boolean;
  onStop: (dispatchId: string) => void;
  handles: MentionHandles;
}) {
  return (
    <>
      <Avatar name={reply.agent.displayName} colour={reply.agent.color} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-2">
          <span className="font-semibold">{reply.agent.displayName}</span>
          <AgentBadge />
          {canStop && <StopButton onStop={() => onStop(reply.dispatchId)} />}
        </div>
        <LiveReplyText dispatchId={reply.dispatchId} store={store} handles={handles} />
      </div>
    </>
  );
});

/** The reply's text so far: the only component a streamed piece renders (it reads the text from the store). */
function LiveReplyText({ dispatchId, store, handles }: { dispatchId: string; store: LiveReplyStore; handles: MentionHandles }) {
  const text = useLiveReplyText(store, dispatchId);
  useRenderCount(`live:${dispatchId}`);
  return (
    <div className="space-y-2 text-slate-800 dark:text-slate-200">
      {/* Finished blocks and items keep their rendering (memo by text): a piece re-parses only the one being written. */}
      {markdownBlocks(text).map((block, index) =>
        block.kind === "block" ? (
          <Markdown key={index} text={block.text} handles={handles} />
        ) : (
          // Each item parsed alone (an ordered item keeps its number); spaced as one list's items are.
          <div key={index} className="space-y-0.5">
            {block.items.map((item, itemIndex) => (
              <Markdown key={itemIndex} text={item} handles={handles} />
            ))}
          </div>
        ),
      )}
      {/* Still: a pulse here was a style recalculation and a frame of the page every 16 ms while a reply streams. */}
      <span aria-hidden="true" className="ml-0.5 inline-block h-4 w-1.5 bg-slate-400 align-middle" />
    </div>
  );
}
