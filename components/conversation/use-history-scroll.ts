"use client";

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { FollowOutput, ListRange, VirtuosoHandle } from "react-virtuoso";

/** How close to the bottom counts as "at the bottom" (px). */
const BOTTOM_SLACK = 48;
/** After a jump to the newest message (or a send), how long the list keeps following on its way there. */
const FOLLOW_GRACE_MS = 1_000;
/** Older history is fetched while fewer loaded messages than this are above the view. */
const PREFETCH_MESSAGES = 40;
/**
 * The virtual index of the anchor row (see `anchorKey`). Rows added above take the indices below
 * it (Virtuoso's `firstItemIndex`), so the rows already there keep theirs and stay in place.
 */
const FIRST_INDEX = 10_000_000;

interface Keyed {
  key: string;
}

/** For how many frames a message scrolled to is watched, to give it the focus once it can hold it. */
const SETTLE_FRAMES = 120;
/** Frames given to Virtuoso to reach a message it was asked for again before asking once more. */
const RETAKE_FRAMES = 10;
/** For how many frames (about a second) after an older page arrives the message being read is held in place: Virtuoso may correct late. */
const HOLD_FRAMES = 60;
/** For how many frames after a scroll the message being read is watched for rows moving it (see useHoldReadingPlace). */
const WATCH_FRAMES = 60;

/** What a person does to move the list (scroll, type, click, touch), as opposed to the list moving by itself. */
const READER_EVENTS = ["wheel", "touchstart", "keydown", "pointerdown"] as const;

/** Runs `then` once, at the person's next action anywhere on the page; returns what cancels it. */
function whenReaderActs(then: () => void): () => void {
  const cancel = () => {
    for (const type of READER_EVENTS) window.removeEventListener(type, acted, true);
  };
  const acted = () => {
    cancel();
    then();
  };
  for (const type of READER_EVENTS) window.addEventListener(type, acted, { passive: true, capture: true });
  return cancel;
}

/** What observes the size of one element (the latest given) with `onResize`, until the list unmounts. */
function useObserveSize(onResize: () => void): (element: HTMLElement | null) => void {
  const observer = useRef<ResizeObserver | null>(null);
  useEffect(() => () => observer.current?.disconnect(), []);
  return useCallback(
    (element: HTMLElement | null) => {
      observer.current?.disconnect();
      if (!element || typeof ResizeObserver === "undefined") return;
      observer.current ??= new ResizeObserver(() => onResize());
      observer.current.observe(element);
    },
    [onResize],
  );
}

/** The first message at least partly in view, and its distance from the top of the view. */
function readingPlace(scroller: HTMLElement | null): { seq: string; offset: number } | null {
  if (!scroller) return null;
  const top = scroller.getBoundingClientRect().top;
  for (const element of scroller.querySelectorAll<HTMLElement>("[data-seq]")) {
    const box = element.getBoundingClientRect();
    if (box.bottom > top + 1) return { seq: element.dataset.seq!, offset: box.top - top };
  }
  return null;
}

/** Whether any of `element` is within the scroller's view. */
function inView(element: HTMLElement, scroller: HTMLElement): boolean {
  const box = element.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  return box.bottom > view.top && box.top < view.bottom;
}

/** How far the message noted is from where it was noted, and where the list is scrolled to; null when the message is not in the page. */
function driftOf(element: HTMLElement, held: { seq: string; offset: number }): { drift: number; top: number } | null {
  const target = element.querySelector<HTMLElement>(`[data-seq="${held.seq}"]`);
  if (!target) return null;
  return { drift: target.getBoundingClientRect().top - element.getBoundingClientRect().top - held.offset, top: element.scrollTop };
}

/**
 * Virtuoso keeps the rows in place when rows are added above (`firstItemIndex`), but not always
 * while it measures them (rows of unknown height added before the reader has scrolled up, or
 * with rows rendered above the view: react-virtuoso issues 947 and 1405). So the message being
 * read when a page arrives (as the last scroll left it) is put back where it was, frame by
 * frame, until the rows have been measured, or until the reader does anything.
 *
 * Without a page either: a row rendered above the view on the way up is drawn at its real height
 * where Virtuoso had counted an estimate, so everything below it moves by the difference, and
 * Virtuoso scrolls by that difference only when the row is measured while it still takes the
 * list to be going up, which it stops doing soon after the scroll (its direction falls back to
 * none 50 ms after a scroll starts). On a busy machine the rows were measured 45 to 120 ms after
 * the scroll and not scrolled back: the message being read stayed 240 px down or 248 px up. So
 * after each scroll the message is watched: a move of it while the list has not scrolled is the
 * rows', not the reader's (who moves it only by scrolling: any scroll since leaves it alone),
 * and once Virtuoso has had the frame in which it would have scrolled it back, it is put back.
 * Returns what notes the place on each scroll.
 */
function useHoldReadingPlace(scroller: RefObject<HTMLElement | null>, firstItemIndex: number, following: RefObject<boolean>): () => void {
  const place = useRef<{ seq: string; offset: number } | null>(null);
  const holding = useRef(false);
  const seenFirst = useRef(firstItemIndex);
  useLayoutEffect(() => {
    const element = scroller.current;
    const added = seenFirst.current > firstItemIndex;
    seenFirst.current = firstItemIndex;
    if (!added || !element) return;
    const held = place.current;
    if (!held) return;
    holding.current = true;
    let frames = 0;
    let frame = 0;
    const hold = () => {
      const drift = driftOf(element, held)?.drift ?? 0;
      if (Math.abs(drift) >= 1) element.scrollTop += drift;
      if (++frames < HOLD_FRAMES) frame = requestAnimationFrame(hold);
      else release();
    };
    const release = () => {
      holding.current = false;
      cancelAnimationFrame(frame);
      stopWaiting();
    };
    // Anything the person does (anywhere: find scrolls the list too) is theirs to move.
    const stopWaiting = whenReaderActs(release);
    hold();
    return release;
  }, [scroller, firstItemIndex]);

  const watch = useRef({ framesLeft: 0, frame: 0, timer: 0 });
  const [note] = useState(() => () => {
    if (holding.current) return;
    place.current = readingPlace(scroller.current);
    // Followed, the list is kept at the bottom and the watch would act on nothing (see moved): one
    // started on every scroll (a streamed reply's every new line) ran frame after frame for nothing.
    if (following.current) return;
    const watching = watch.current;
    const running = watching.framesLeft > 0;
    watching.framesLeft = WATCH_FRAMES;
    if (running) return;
    // Where the message was moved to with the list not scrolled: null when it has not moved.
    const moved = () => {
      const element = scroller.current;
      const held = place.current;
      if (!element || !held || holding.current || following.current) return null;
      const now = driftOf(element, held);
      return now && Math.abs(now.drift) >= 1 ? { ...now, seq: held.seq } : null;
    };
    const alike = (one: ReturnType<typeof moved>, other: ReturnType<typeof moved>) =>
      one !== null && other !== null && one.seq === other.seq && one.top === other.top && Math.abs(one.drift - other.drift) < 1;
    // Virtuoso measures the rows in the frame the move is first seen in and scrolls the list back,
    // when it does, in one of its callbacks of the next frame; so a move seen in two frames is
    // decided on after that frame's callbacks, if nothing has moved since.
    let seen: ReturnType<typeof moved> = null;
    const check = () => {
      const now = moved();
      if (alike(seen, now) && !watching.timer) {
        watching.timer = window.setTimeout(() => {
          watching.timer = 0;
          const after = moved();
          if (alike(now, after)) scroller.current!.scrollTop += after!.drift;
        });
      }
      seen = now;
      if (--watching.framesLeft > 0) watching.frame = requestAnimationFrame(check);
    };
    watching.frame = requestAnimationFrame(check);
  });
  useEffect(() => {
    const watching = watch.current;
    return () => {
      watching.framesLeft = 0;
      cancelAnimationFrame(watching.frame);
      clearTimeout(watching.timer);
    };
  }, []);
  return note;
}

/**
 * The conversation's scrolling, over a virtualised list (react-virtuoso): older pages load as the
 * reader nears the top and the rows on screen stay exactly where they were while a page is added
 * above them (`firstItemIndex`); the list follows new messages and a streaming reply only while
 * the reader is at the bottom (or has just sent one), otherwise "Jump to latest" is offered; a
 * message can be scrolled to and focused (`?at=`, find).
 */
export function useHistoryScroll<Row extends Keyed>({
  rows,
  anchorKey,
  messagesIn,
  followAtFirst,
  rowOfSeq,
  hasOlder,
  loadingOlder,
  loadOlder,
}: {
  rows: Row[];
  /**
   * The key of a row that stays as older pages arrive above it (the group that starts at the
   * oldest message of the page the view opened with): the rows above it are the ones added,
   * so Virtuoso's `firstItemIndex` goes down by their number and what is on screen stays put.
   */
  anchorKey: string | null;
  /** How many messages a row holds (a group its messages; a divider none). */
  messagesIn: (row: Row) => number;
  /** Opened at its newest message (not at a linked one): new messages are followed from the start. */
  followAtFirst: boolean;
  /** The index of the row that shows this message, or -1 when it is not loaded. */
  rowOfSeq: (seq: number) => number;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
}) {
  const virtuoso = useRef<VirtuosoHandle>(null);
  const scroller = useRef<HTMLElement | null>(null);
  const [atBottom, setAtBottom] = useState(followAtFirst);
  // Followed: new content scrolls into view. Set at the bottom, cleared when the reader scrolls away.
  const following = useRef(followAtFirst);
  const followGrace = useRef(0);
  // Where the list was at the last scroll event.
  const lastTop = useRef(0);
  // Nothing is loaded above until the list has taken its first position (at the newest message, or at `?at=`).
  const positioned = useRef(false);
  const firstItemIndex = useMemo(() => FIRST_INDEX - Math.max(0, anchorKey === null ? 0 : rows.findIndex((row) => row.key === anchorKey)), [rows, anchorKey]);
  const noteReadingPlace = useHoldReadingPlace(scroller, firstItemIndex, following);

  // Through Virtuoso, not by setting scrollTop: a position it did not set makes it correct it
  // back, and the two took turns (every row mounted again, frame after frame, at phone width).
  // A move up not seen yet by onScroll (its event comes a frame later than a resize's callback)
  // is the reader's: it ends following instead of being undone. The footer (replies streaming)
  // grows outside Virtuoso's rows, and Virtuoso counts its height only a frame later: its growth
  // is scrolled to directly (no row is measured then, nothing for Virtuoso to correct).
  const keepAtBottom = useCallback((footerGrew = false) => {
    const element = scroller.current;
    if (!element || !following.current || element.scrollHeight - element.scrollTop - element.clientHeight <= 1) return;
    if (element.scrollTop < lastTop.current - 1) following.current = false;
    else if (footerGrew) element.scrollTop = element.scrollHeight;
    else virtuoso.current?.scrollToIndex({ index: "LAST", align: "end" });
  }, []);
  const older = useRef({ hasOlder, loadingOlder, loadOlder, rows, firstItemIndex });
  useLayoutEffect(() => {
    older.current = { hasOlder, loadingOlder, loadOlder, rows, firstItemIndex };
  });
  // The first row in view, as Virtuoso numbers it (with `firstItemIndex`).
  const firstInView = useRef<number | null>(null);
  // Near the top: fewer than PREFETCH_MESSAGES loaded messages above the view. Counted in
  // messages, not pixels: the rows above that have not been rendered yet have no height.
  const maybeLoadOlder = useCallback(() => {
    const { hasOlder: more, loadingOlder: loading, loadOlder: load, rows: held, firstItemIndex: first } = older.current;
    if (!positioned.current || !more || loading) return;
    // Not while following the newest messages (a page arriving then could not be told from the
    // reader's own scrolling), unless the list does not even fill the view.
    const element = scroller.current;
    if (following.current && element && element.scrollHeight > element.clientHeight + 1) return;
    const above = held.slice(0, Math.max(0, (firstInView.current ?? first) - first)).reduce((sum, row) => sum + messagesIn(row), 0);
    if (above < PREFETCH_MESSAGES) load();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- messagesIn is a rule, not data
  }, []);

  // Only the reader moves the list up: content growing, rows measured as they render, a page
  // added above (Virtuoso keeps the rows in place by moving down) never do. So a move up ends
  // following, and any other move away from the bottom while followed is put back at once.
  const readerActed = useRef(followAtFirst);
  useEffect(() => {
    if (readerActed.current) return;
    return whenReaderActs(() => {
      readerActed.current = true;
    });
  }, []);
  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    // Opened at a linked message, the end of what is loaded is not the newest message yet (newer
    // ones are still to come): the list follows from the bottom once the reader has gone there.
    const bottom = element.scrollHeight - element.scrollTop - element.clientHeight < BOTTOM_SLACK && readerActed.current;
    const movedUp = element.scrollTop < lastTop.current - 1;
    lastTop.current = element.scrollTop;
    // On its way to the bottom (a jump, a send: Virtuoso may take a few steps to reach rows it
    // has not measured), a step back up is Virtuoso's, not the reader's; once there, any is the reader's.
    if (bottom) {
      following.current = true;
      followGrace.current = 0;
    } else if (movedUp && performance.now() > followGrace.current) following.current = false;
    else if (following.current) keepAtBottom();
    // Opened at the newest message, nothing older loads before the list has got there (opened at
    // a linked message: before it is in place, see scrollToMessage).
    if (bottom && followAtFirst) positioned.current = true;
    // Not while Virtuoso takes the list to where it opens: that is nobody's reading place yet.
    if (positioned.current) noteReadingPlace();
    setAtBottom(bottom || following.current);
    maybeLoadOlder();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keepAtBottom is stable
  }, [maybeLoadOlder, followAtFirst, noteReadingPlace]);

  // Opening at the newest message is a jump there too.
  useEffect(() => {
    if (followAtFirst) followGrace.current = performance.now() + FOLLOW_GRACE_MS;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- as the list opens
  }, []);

  // When an older page has arrived and is laid out, keep loading while still near the top
  // (a short page, a tall screen).
  useEffect(() => {
    if (loadingOlder) return;
    const frame = requestAnimationFrame(maybeLoadOlder);
    return () => cancelAnimationFrame(frame);
  }, [loadingOlder, rows, maybeLoadOlder]);

  // A streaming reply, an image that loads, a message that grows: the list grows without a
  // scroll event. Followed, it is kept at the bottom in the same frame, before it is painted.
  const observeList = useObserveSize(keepAtBottom);
  const observeFooter = useObserveSize(useCallback(() => keepAtBottom(true), [keepAtBottom]));

  const scrollerRef = useCallback(
    (element: HTMLElement | Window | null) => {
      scroller.current?.removeEventListener("scroll", onScroll);
      scroller.current = element instanceof HTMLElement ? element : null;
      scroller.current?.addEventListener("scroll", onScroll, { passive: true });
    },
    [onScroll],
  );

  const rangeChanged = useCallback(
    (range: ListRange) => {
      firstInView.current = range.startIndex;
      // A list that does not fill the view never scrolls: it is positioned once it has rendered
      // (opened at a linked message, once scrollToMessage has settled: Virtuoso's first render
      // does not fill the view either, and rows added above then would move where it lands).
      const element = scroller.current;
      if (followAtFirst && element && element.scrollHeight <= element.clientHeight + 1) positioned.current = true;
      maybeLoadOlder();
    },
    [maybeLoadOlder, followAtFirst],
  );

  const scrollToBottom = useCallback(() => {
    readerActed.current = true;
    following.current = true;
    followGrace.current = performance.now() + FOLLOW_GRACE_MS;
    setAtBottom(true);
    virtuoso.current?.scrollToIndex({ index: "LAST", align: "end" });
  }, []);

  /** New content (a message, one being sent) scrolls into view while followed. */
  const followOutput = useCallback<Exclude<FollowOutput, boolean | "smooth" | "auto">>(() => (following.current ? "auto" : false), []);

  /**
   * Scrolls to a loaded message and focuses it: its row first (it may not be rendered), then the
   * message itself to the middle of the view once it is there. False when it is not loaded.
   */
  const scrollToMessage = useCallback(
    (seq: number, { focus = true }: { focus?: boolean } = {}): boolean => {
      if (rowOfSeq(seq) < 0) return false;
      following.current = false;
      let tries = 0;
      let shown = false;
      let asked = 0;
      // Virtuoso reaches an index over several frames, and rows added above meanwhile make it
      // land on whatever row then has that index: the index is read afresh at each ask.
      const ask = () => {
        asked = tries;
        shown = false;
        const row = rowOfSeq(seq);
        if (row >= 0) virtuoso.current?.scrollToIndex({ index: row, align: "center" });
      };
      // A row already in the page is scrolled to at once (below).
      if (!scroller.current?.querySelector(`[data-seq="${seq}"]`)) ask();
      // Virtuoso may still land elsewhere when rows arrive while it places the list (opened at a
      // link, the newer messages' catch-up): until the reader moves the list, it is taken back.
      let readerMoved = false;
      const stopWatching = whenReaderActs(() => (readerMoved = true));
      const settle = () => {
        const element = scroller.current;
        const target = element?.querySelector<HTMLElement>(`[data-seq="${seq}"]`);
        if (target && !shown) {
          target.scrollIntoView({ block: "center" });
          noteReadingPlace();
          shown = true;
        } else if (!readerMoved && element && !(target && inView(target, element)) && tries - asked >= RETAKE_FRAMES) ask();
        // Until it holds: Virtuoso keeps the list hidden (unfocusable) until it has reached the
        // row it opened at, and may render the row again on its way, the focus going with the old one.
        if (target && focus && document.activeElement === document.body) target.focus({ preventScroll: true });
        // Nothing older loads before it has settled (see above).
        if (++tries < SETTLE_FRAMES) requestAnimationFrame(settle);
        else {
          stopWatching();
          positioned.current = true;
          maybeLoadOlder();
        }
      };
      requestAnimationFrame(settle);
      return true;
    },
    [rowOfSeq, noteReadingPlace, maybeLoadOlder],
  );

  return {
    atBottom,
    scrollToBottom,
    scrollToMessage,
    observeList,
    observeFooter,
    virtuosoProps: useMemo(() => ({ ref: virtuoso, scrollerRef, firstItemIndex, followOutput, rangeChanged }), [scrollerRef, firstItemIndex, followOutput, rangeChanged]),
  };
}
