"use client";

import { forwardRef, memo, useCallback, useMemo, type LiHTMLAttributes, type ReactNode, type Ref } from "react";
import { Virtuoso, type ContextProp, type ItemProps, type ListProps } from "react-virtuoso";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { LiveReplyInfo, LiveReplyStore } from "@/hooks/live-reply-store";
import type { PendingMessage } from "@/hooks/use-send-message";
import type { QueuedTurn } from "@/lib/dispatch/queued-turn";
import { LiveReplyContent, liveReplyRowProps } from "./live-replies";
import { groupRowProps, MessageGroupContent, type MessageActions } from "./message-group";
import { DividerContent, dividerRowProps } from "./message-list";
import { PendingMessageContent, pendingRowProps } from "./pending-messages";
import { QueuedTurnContent, queuedTurnRowProps } from "./queued-turns";
import type { MentionHandles } from "./remark-mentions";
import { timelineItems, type TimelineItem } from "./timeline";
import type { useHistoryScroll } from "./use-history-scroll";

/** One row of the conversation's list: a divider, a group of messages, or what is on its way. */
export type TimelineRow =
  | TimelineItem
  | { kind: "pending"; key: string; pending: PendingMessage }
  | { kind: "live"; key: string; reply: LiveReplyInfo }
  | { kind: "queued"; key: string; turn: QueuedTurn };

/** What every row may need; one object, kept stable by the caller, so rows render only when they change. */
export interface TimelineContext extends MessageActions {
  handles: MentionHandles;
  /** The seq of the message marked (opened at, found). */
  highlighted: number | null;
  live: LiveReplyStore;
  canStop: (replyToMessageId: string) => boolean;
  onStop: (dispatchId: string) => void;
  onRetry: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
  /** Above the first row: loading, the beginning, or nothing yet. */
  header: string | null;
  observeList: (list: HTMLElement | null) => void;
}

function rowProps(row: TimelineRow): LiHTMLAttributes<HTMLLIElement> {
  switch (row.kind) {
    case "day":
      return dividerRowProps("day");
    case "unread":
      return dividerRowProps("unread");
    case "group":
      return groupRowProps(row.group);
    case "pending":
      return pendingRowProps();
    case "live":
      return liveReplyRowProps(row.reply);
    case "queued":
      return queuedTurnRowProps(row.turn);
  }
}

const holds = (row: Extract<TimelineRow, { kind: "group" }>, seq: number | null) => seq !== null && row.group.messages.some((message) => message.seq === seq);

/** Who asked each message of a group, as one string: a change (a question's page loaded) renders the group again. */
const askersOf = (row: Extract<TimelineRow, { kind: "group" }>, context: TimelineContext) => (context.context ? row.group.messages.map((message) => context.context!.askerOf(message) ?? "").join(",") : "");

function rowContent(_index: number, row: TimelineRow, context: TimelineContext): ReactNode {
  switch (row.kind) {
    case "day":
      return <DividerContent label={row.label} tone="day" />;
    case "unread":
      return <DividerContent label="New messages" tone="unread" />;
    case "group": {
      const resendableId = context.context?.resendableId ?? null;
      return (
        <MessageGroupContent
          group={row.group}
          handles={context.handles}
          onInspect={context.onInspect}
          onOpenFork={context.onOpenFork}
          context={context.context}
          highlighted={holds(row, context.highlighted) ? context.highlighted : null}
          askers={askersOf(row, context)}
          resendableId={row.group.messages.some((message) => message.id === resendableId) ? resendableId : null}
        />
      );
    }
    case "pending":
      return <PendingMessageContent item={row.pending} onRetry={context.onRetry} onDiscard={context.onDiscard} />;
    case "live":
      return <LiveReplyContent reply={row.reply} store={context.live} canStop={context.canStop(row.reply.replyToMessageId)} onStop={context.onStop} handles={context.handles} />;
    case "queued":
      return <QueuedTurnContent turn={row.turn} onStop={context.onStop} canStop={context.canStop(row.turn.replyToMessageId)} />;
  }
}

// The list is an <ol> of <li> rows for screen readers (and axe), as it was before it was virtualised.
const List = forwardRef(function List({ children, style, context, ...props }: ListProps<HTMLOListElement> & ContextProp<TimelineContext>, ref: Ref<HTMLOListElement>) {
  const { observeList } = context;
  const attach = useCallback(
    (element: HTMLOListElement | null) => {
      if (typeof ref === "function") ref(element);
      else if (ref) ref.current = element;
      observeList(element);
    },
    [ref, observeList],
  );
  return (
    <ol {...props} ref={attach} style={style} aria-label="Messages">
      {children}
    </ol>
  );
});

function Item({ children, item, context, ...props }: ItemProps<TimelineRow> & ContextProp<TimelineContext>) {
  void context;
  return (
    <li {...props} {...rowProps(item)}>
      {children}
    </li>
  );
}

// One height whatever it says, so that the rows below never move when loading starts or ends.
function Header({ context }: ContextProp<TimelineContext>) {
  return (
    <p className="h-8 py-2 text-center text-xs text-muted" aria-live="polite">
      {context.header}
    </p>
  );
}

const Footer = () => <div className="h-2" />;

const components = { List, Item, Header, Footer };

const rowKey = (_index: number, row: TimelineRow) => row.key;

/**
 * The conversation's messages, virtualised: only the rows near the view are in the page, so a
 * conversation of thousands of messages opens, scrolls and streams as lightly as a short one.
 */
export const ConversationTimeline = memo(function ConversationTimeline({
  rows,
  context,
  initialRow,
  virtuosoProps,
}: {
  rows: TimelineRow[];
  context: TimelineContext;
  /** The row to open at (`?at=`), in the middle of the view; otherwise the newest, at the bottom. */
  initialRow: number | null;
  virtuosoProps: ReturnType<typeof useHistoryScroll>["virtuosoProps"];
}) {
  return (
    <Virtuoso<TimelineRow, TimelineContext>
      {...virtuosoProps}
      data-testid="message-scroller"
      className="h-full overflow-x-hidden"
      data={rows}
      context={context}
      components={components}
      computeItemKey={rowKey}
      itemContent={rowContent}
      initialTopMostItemIndex={initialRow === null ? { index: "LAST", align: "end" } : { index: initialRow, align: "center" }}
      // Rows just below the view are rendered too: what is sent, streams or waits at the bottom is
      // in the page at once, also in a tab that is not painting (no scroll event, no measuring).
      increaseViewportBy={{ top: 600, bottom: 1_000 }}
    />
  );
});

/**
 * The list's rows: the timeline of the loaded messages, then messages being sent, replies
 * streaming and turns waiting. Each page's oldest message starts a group (`pageStarts`), so when
 * an older page is added above, the groups already shown keep their messages, keys and rows.
 */
export function useTimelineRows({
  messages,
  pageStarts,
  complete,
  readUpTo,
  openedAt,
  userId,
  pending,
  live,
  queued,
}: {
  messages: MessageDto[];
  pageStarts: ReadonlySet<string>;
  /** The beginning of the conversation is loaded (no older page). */
  complete: boolean;
  readUpTo: number;
  openedAt: number;
  userId: string;
  pending: PendingMessage[];
  live: LiveReplyInfo[];
  queued: QueuedTurn[];
}): TimelineRow[] {
  const items = useMemo(
    () => timelineItems(messages, { readUpTo, openedAt, userId, now: new Date(), breakBefore: pageStarts, fromBeginning: complete }),
    [messages, pageStarts, complete, readUpTo, openedAt, userId],
  );
  return useMemo(
    () => [
      ...items,
      ...pending.map((item) => ({ kind: "pending" as const, key: `pending:${item.clientId}`, pending: item })),
      ...live.map((reply) => ({ kind: "live" as const, key: `live:${reply.dispatchId}`, reply })),
      ...queued.map((turn) => ({ kind: "queued" as const, key: `queued:${turn.dispatchId}`, turn })),
    ],
    [items, pending, live, queued],
  );
}
