import type { LiHTMLAttributes } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { MessageGroup, type MessageActions } from "./message-group";
import type { MentionHandles } from "./remark-mentions";
import { timelineItems } from "./timeline";

type DividerTone = "day" | "unread";

/** A divider's list item (padding, not margins: a virtualised row is measured by its own box). */
export function dividerRowProps(tone: DividerTone): LiHTMLAttributes<HTMLLIElement> {
  return { className: `flex items-center gap-2 px-4 py-2 text-xs font-semibold ${tone === "unread" ? "text-danger" : "text-muted"}` };
}

/** A day's or the "New messages" divider, inside its list item. */
export function DividerContent({ label, tone }: { label: string; tone: DividerTone }) {
  const line = tone === "unread" ? "bg-red-300 dark:bg-red-800" : "bg-slate-200 dark:bg-slate-800";
  return (
    <>
      <span className={`h-px flex-1 ${line}`} />
      <span role="separator" aria-label={label}>
        {label}
      </span>
      <span className={`h-px flex-1 ${line}`} />
    </>
  );
}

function Divider({ label, tone }: { label: string; tone: DividerTone }) {
  return (
    <li {...dividerRowProps(tone)}>
      <DividerContent label={label} tone={tone} />
    </li>
  );
}

/**
 * Messages by day and author, with the "New messages" divider where the reader left off, all
 * rendered: for short lists (a fork's). The conversation itself uses `ConversationTimeline`.
 */
export function MessageList({
  messages,
  readUpTo,
  openedAt,
  userId,
  handles,
  ...actions
}: {
  messages: MessageDto[];
  readUpTo: number;
  openedAt: number;
  userId: string;
  handles: MentionHandles;
} & MessageActions & { highlighted?: number | null }) {
  return (
    <>
      {timelineItems(messages, { readUpTo, openedAt, userId, now: new Date() }).map((item) => {
        if (item.kind === "day") return <Divider key={item.key} label={item.label} tone="day" />;
        if (item.kind === "unread") return <Divider key={item.key} label="New messages" tone="unread" />;
        return <MessageGroup key={item.key} group={item.group} handles={handles} {...actions} />;
      })}
    </>
  );
}
