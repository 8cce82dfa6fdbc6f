"use client";

import { forwardRef, memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type LiHTMLAttributes, type ReactNode, type Ref } from "react";
import { Virtuoso, type ContextProp, type ItemProps, type ListProps } from "react-virtuoso";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { LiveReplyStore } from "@/hooks/live-reply-store";
import { useHydrated } from "@/hooks/use-hydrated";
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

/** What the list's rows tell the timeline: that one is in the page (in the commit that put it there, before it is painted). */
interface Shown {
  rowShown: (row: HTMLElement) => void;
}

/**
 * Whether the list has taken its place: Virtuoso first renders the newest row alone, at the top,
 * to measure it, then the rows where the list opens, scrolled there (or every row, when they fit).
 */
function listInPlace(scroller: HTMLElement, rowCount: number): boolean {
  return scroller.scrollTop > 0 || scroller.querySelectorAll("[data-item-index]").length >= rowCount;
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

function Item({ children, item, context, ...props }: ItemProps<TimelineRow> & ContextProp<TimelineContext & Shown>) {
  const { rowShown } = context;
  const row = useRef<HTMLLIElement>(null);
  useLayoutEffect(() => rowShown(row.current!), [rowShown]);
  return (
    <li ref={row} {...props} {...rowProps(item)}>
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

/** About a tall screen of messages: what the first screen shows before any script has run. */
const FIRST_SCREEN_MESSAGES = 30;

function newestRows(rows: TimelineRow[]): TimelineRow[] {
  let messages = 0;
  let first = rows.length;
  while (first > 0 && messages < FIRST_SCREEN_MESSAGES) {
    const row = rows[--first]!;
    messages += row.kind === "group" ? row.group.messages.length : 0;
  }
  return rows.slice(first);
}

/**
 * The newest rows at the bottom of the view, written by the server so that they are on screen at
 * the first paint, before the page's scripts have loaded and run (on a slow phone, a second or
 * more). In the browser this element is left as the server wrote it, not hydrated: its rows would
 * be rendered twice, as Virtuoso renders them again at once. Once the page is hydrated it covers
 * the list, hidden from assistive technology, until Virtuoso has rows to show: Virtuoso measures
 * the view before it renders any, and those frames would otherwise blink empty.
 */
function FirstScreen({ rows, context, hydrated }: { rows: TimelineRow[]; context: TimelineContext; hydrated: boolean }) {
  const content =
    typeof window === "undefined"
      ? {
          // As tall as the view at least, so that rows that do not fill it sit at its top, as in the list.
          children: (
            <div role="none" className="min-h-full shrink-0">
              <Header context={context} />
              {newestRows(rows).map((row, index) => (
                <li key={row.key} {...rowProps(row)}>
                  {rowContent(index, row, context)}
                </li>
              ))}
            </div>
          ),
        }
      : { dangerouslySetInnerHTML: { __html: "" } };
  const semantics = hydrated ? { "aria-hidden": true, inert: true } : { "data-testid": "message-scroller", role: "list", "aria-label": "Messages" };
  // Times wait for the list: the server does not know the reader's time zone. The scrollbar's
  // place is kept, as the list has one: rows wrap as they will there.
  return <div {...semantics} className="absolute inset-0 flex list-none flex-col justify-end overflow-hidden bg-white pb-2 [scrollbar-gutter:stable] dark:bg-slate-950 [&_time]:invisible" suppressHydrationWarning {...content} />;
}

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
  const hydrated = useHydrated();
  // Opened at a message (`?at=`), the list is placed around it: no first screen (nor in an empty one).
  const [listShown, setListShown] = useState(initialRow !== null || rows.length === 0);
  const rowCount = useRef(rows.length);
  useLayoutEffect(() => {
    rowCount.current = rows.length;
  });
  // The first screen gives way in the commit that puts the list's rows in place: no frame goes
  // blank between them, and the page never holds both copies of a message.
  // Once in place, a row mounted while scrolling costs nothing more here.
  const placed = useRef(listShown);
  const rowShown = useCallback((row: HTMLElement) => {
    if (placed.current) return;
    const scroller = row.closest<HTMLElement>('[data-testid="message-scroller"]');
    if (scroller && !listInPlace(scroller, rowCount.current)) return;
    placed.current = true;
    setListShown(true);
  }, []);
  const listContext = useMemo(() => ({ ...context, rowShown }), [context, rowShown]);
  return (
    <>
      {hydrated && (
        <Virtuoso<TimelineRow, TimelineContext & Shown>
          {...virtuosoProps}
          data-testid="message-scroller"
          role="list"
          aria-label="Messages"
          className="h-full list-none overflow-x-hidden"
          data={rows}
          context={listContext}
          components={components}
          computeItemKey={rowKey}
          itemContent={rowContent}
          initialTopMostItemIndex={initialRow === null ? { index: "LAST", align: "end" } : { index: initialRow, align: "center" }}
          // Rows just below the view are rendered too: what is sent, streams or waits at the bottom is
          // in the page at once, also in a tab that is not painting (no scroll event, no measuring).
          increaseViewportBy={{ top: 600, bottom: 1_000 }}
        />
      )}
      {!listShown && <FirstScreen rows={rows} context={context} hydrated={hydrated} />}
    </>
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
