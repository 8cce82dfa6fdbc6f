"use client";

import { forwardRef, memo, useCallback, useMemo, type LiHTMLAttributes, type ReactNode, type Ref } from "react";
import { Virtuoso, type ContextProp, type ItemProps, type ListProps } from "react-virtuoso";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { LiveReplyStore } from "@/hooks/live-reply-store";
import { useLiveReplyList } from "@/hooks/use-live-replies";
import type { PendingMessage } from "@/hooks/use-send-message";
import type { QueuedTurn } from "@/lib/dispatch/queued-turn";
import { LiveReplyContent, liveReplyRowProps } from "./live-replies";
import { groupRowProps, MessageGroupContent, type MessageActions } from "./message-group";
import { DividerContent, dividerRowProps } from "./message-list";
import { PendingMessageContent, pendingRowProps } from "./pending-messages";
import { QueuedTurns } from "./queued-turns";
import type { MentionHandles } from "./remark-mentions";
import { timelineItems, type TimelineItem } from "./timeline";
import type { useHistoryScroll } from "./use-history-scroll";

/**
 * One row of the conversation's virtualised list: a divider, a group of messages, or a message
 * being sent. Replies streaming and turns waiting come after them, in the footer (see Footer).
 */
export type TimelineRow = TimelineItem | { kind: "pending"; key: string; pending: PendingMessage };

/** What every row may need; one object, kept stable by the caller, so rows render only when they change. */
export interface TimelineContext extends MessageActions {
  handles: MentionHandles;
  /** The seq of the message marked (opened at, found). */
  highlighted: number | null;
  live: LiveReplyStore;
  /** Turns waiting to start, after the streaming replies. */
  queued: QueuedTurn[];
  canStop: (replyToMessageId: string) => boolean;
  onStop: (dispatchId: string) => void;
  onRetry: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
  /** Above the first row: loading, the beginning, or nothing yet. */
  header: string | null;
  observeList: (list: HTMLElement | null) => void;
  observeFooter: (footer: HTMLElement | null) => void;
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
  }
}

// The list for screen readers (and axe) is the scroller (role "list"): Virtuoso's rows and the
// footer's are its items, so a streaming reply can grow outside Virtuoso's measured rows. Each
// <li>'s own parent is "none" (a <div>, not an <ol>, which would make a second list).
const List = forwardRef(function List({ children, style, context, ...props }: ListProps<HTMLDivElement> & ContextProp<TimelineContext>, ref: Ref<HTMLDivElement>) {
  const { observeList } = context;
  const attach = useCallback(
    (element: HTMLDivElement | null) => {
      if (typeof ref === "function") ref(element);
      else if (ref) ref.current = element;
      observeList(element);
    },
    [ref, observeList],
  );
  return (
    <div {...props} ref={attach} style={style} role="none">
      {children}
    </div>
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
// An item of the list, as everything in it is (a paragraph there fails axe's aria-required-children).
function Header({ context }: ContextProp<TimelineContext>) {
  return (
    <div role="none">
      <li className="h-8 py-2 text-center text-xs text-muted" aria-live="polite">
        {context.header}
      </li>
    </div>
  );
}

/**
 * Replies streaming and turns waiting, after the rows: a reply growing line by line grows the
 * footer, not a row, so Virtuoso neither measures its rows again nor renders them (that took
 * three frames of every piece that started a line); use-history-scroll keeps it in view.
 */
function Footer({ context }: ContextProp<TimelineContext>) {
  const { live, queued, observeFooter } = context;
  const replies = useLiveReplyList(live);
  return (
    <div ref={observeFooter} role="none" className="pb-2">
      {replies.map((reply) => (
        <li key={reply.dispatchId} {...liveReplyRowProps(reply)}>
          <LiveReplyContent reply={reply} store={live} canStop={context.canStop(reply.replyToMessageId)} onStop={context.onStop} handles={context.handles} />
        </li>
      ))}
      <QueuedTurns turns={queued} onStop={context.onStop} canStop={context.canStop} />
    </div>
  );
}

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
      role="list"
      aria-label="Messages"
      className="h-full list-none overflow-x-hidden"
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
 * The list's rows: the timeline of the loaded messages, then messages being sent. Each page's
 * oldest message starts a group (`pageStarts`), so when an older page is added above, the groups
 * already shown keep their messages, keys and rows.
 */
export function useTimelineRows({
  messages,
  pageStarts,
  complete,
  readUpTo,
  openedAt,
  userId,
  pending,
}: {
  messages: MessageDto[];
  pageStarts: ReadonlySet<string>;
  /** The beginning of the conversation is loaded (no older page). */
  complete: boolean;
  readUpTo: number;
  openedAt: number;
  userId: string;
  pending: PendingMessage[];
}): TimelineRow[] {
  const items = useMemo(
    () => timelineItems(messages, { readUpTo, openedAt, userId, now: new Date(), breakBefore: pageStarts, fromBeginning: complete }),
    [messages, pageStarts, complete, readUpTo, openedAt, userId],
  );
  return useMemo(() => [...items, ...pending.map((item) => ({ kind: "pending" as const, key: `pending:${item.clientId}`, pending: item }))], [items, pending]);
}
