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

/**
 * A reply's markdown cut into its blocks (paragraphs, lists, tables, fenced code), at blank lines
 * outside a code fence: while it streams, only the last one still changes.
 */
export function markdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (const line of text.split("\n")) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) fence = fence === null ? marker : null;
    if (fence === null && line.trim() === "") {
      if (current.length > 0) blocks.push(current.join("\n"));
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) blocks.push(current.join("\n"));
  return blocks;
}

/** A streaming reply's list item: busy, named for screen readers by who is replying. */
export function liveReplyRowProps(reply: LiveReplyInfo): LiHTMLAttributes<HTMLLIElement> {
  return { className: "flex gap-3 px-3 py-2 sm:px-4", "aria-label": `${reply.agent.displayName} is replying`, "aria-busy": true };
}

/**
 * A reply still streaming, with its agent's attribution; Stop for whoever asked (and admins):
 * the server refuses anyone else. The only component a streamed piece renders: it reads its own
 * text from the store.
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
  const text = useLiveReplyText(store, reply.dispatchId);
  useRenderCount(`live:${reply.dispatchId}`);
  return (
    <>
      <Avatar name={reply.agent.displayName} colour={reply.agent.color} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-2">
          <span className="font-semibold">{reply.agent.displayName}</span>
          <AgentBadge />
          {canStop && <StopButton onStop={() => onStop(reply.dispatchId)} />}
        </div>
        <div className="space-y-2 text-slate-800 dark:text-slate-200">
          {/* Finished blocks keep their rendering (memo by text): a piece re-parses only the block being written. */}
          {markdownBlocks(text).map((block, index) => (
            <Markdown key={index} text={block} handles={handles} />
          ))}
          <span aria-hidden="true" className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-slate-400 align-middle" />
        </div>
      </div>
    </>
  );
});
