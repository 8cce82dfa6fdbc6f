"use client";

import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { emojiEntry, emojiGroups, FREQUENTLY_USED, searchEmoji, type EmojiEntry } from "@/lib/reactions/emoji-catalog";
import { gridMove } from "./emoji-grid-keys";

export interface EmojiPickerProps {
  /** An emoji was chosen (click, Enter or Space): the catalogue's form, "❤️". The owner closes the picker. */
  onPick(emoji: string): void;
  /** Escape, Tab or a click out of the picker: unmount it. After Escape the picker has already given focus back to its trigger. */
  onClose(): void;
  /** The dialog's accessible name. */
  label?: string;
}

const COLUMNS = 8;
const SEARCH_LIMIT = 96;
const ACTIVE_CELL = '[role="grid"] [tabindex="0"]';

/**
 * A non-modal emoji popover: a search that filters as you type, the frequently used row, then
 * one of Unicode's groups at a time (tabs). Each emoji grid is one Tab stop (arrows move inside,
 * Enter picks); Escape closes and focuses the trigger, which is the element focused when the
 * picker opened, so the trigger should be focused when it opens it and should toggle it (a click
 * on the trigger is left to the trigger); focus or a click going anywhere else closes it. The
 * owner places it: 20 rem wide, or as wide as its container when that is narrower (a phone).
 */
export function EmojiPicker({ onPick, onClose, label = "Pick an emoji" }: EmojiPickerProps) {
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const opener = useRef<HTMLElement | null>(null);
  const pointerOnOpener = useRef(false);
  const closed = useRef(false);
  const [query, setQuery] = useState("");
  const [groupIndex, setGroupIndex] = useState(0);
  const [preview, setPreview] = useState<EmojiEntry | null>(null);

  const groups = emojiGroups();
  const group = groups[groupIndex]!;
  const frequent = useMemo(() => FREQUENTLY_USED.flatMap((emoji) => emojiEntry(emoji) ?? []), []);
  const searching = query.trim().length > 0;
  // One more than is shown, to say when there are more.
  const found = useMemo(() => (searching ? searchEmoji(query, SEARCH_LIMIT + 1) : []), [query, searching]);
  const results = found.slice(0, SEARCH_LIMIT);

  const close = (refocus: boolean) => {
    if (closed.current) return;
    closed.current = true;
    onClose();
    if (refocus) opener.current?.focus();
  };
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });

  useEffect(() => {
    const active = document.activeElement;
    // The trigger; not the search box when Strict Mode runs this twice, nor the page itself.
    if (active instanceof HTMLElement && active !== document.body && !root.current?.contains(active)) opener.current = active;
    search.current?.focus();
    root.current?.scrollIntoView?.({ block: "nearest" });
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      // A press on the trigger is left to the trigger, which toggles the picker.
      pointerOnOpener.current = opener.current?.contains(target) ?? false;
      if (!root.current?.contains(target) && !pointerOnOpener.current) closeRef.current(false);
    };
    document.addEventListener("mousedown", outside);
    return () => document.removeEventListener("mousedown", outside);
  }, []);

  const focusActiveCell = (within: ParentNode | null | undefined) => within?.querySelector<HTMLElement>(ACTIVE_CELL)?.focus();

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    close(true);
  };

  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      focusActiveCell(root.current);
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (results[0]) onPick(results[0].emoji);
    }
  };

  const selectGroup = (index: number) => {
    setGroupIndex(index);
    tabs.current[index]?.focus();
  };
  const onTabKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = groups.length - 1;
    const next = { ArrowRight: groupIndex === last ? 0 : groupIndex + 1, ArrowLeft: groupIndex === 0 ? last : groupIndex - 1, Home: 0, End: last }[event.key];
    if (next !== undefined) {
      event.preventDefault();
      selectGroup(next);
    } else if (event.key === "ArrowDown") {
      event.preventDefault();
      focusActiveCell(document.getElementById(`${id}-panel`));
    }
  };

  const status = !searching
    ? ""
    : found.length > SEARCH_LIMIT
      ? `Over ${SEARCH_LIMIT} emoji match; the best ${SEARCH_LIMIT} are shown.`
      : found.length === 0
        ? `No emoji match “${query.trim()}”.`
        : `${found.length} ${found.length === 1 ? "emoji matches" : "emoji match"}.`;
  const gridProps = { onPick, onPreview: setPreview };

  return (
    <div
      ref={root}
      role="dialog"
      aria-label={label}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        const next = event.relatedTarget;
        if (!(next instanceof Node) || root.current?.contains(next)) return;
        if (opener.current?.contains(next) && pointerOnOpener.current) return;
        close(false);
      }}
      className="flex w-80 max-w-full flex-col gap-2 rounded-lg border border-slate-200 bg-white p-2 text-slate-900 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <input
        ref={search}
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={onSearchKeyDown}
        className="w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm placeholder:text-slate-500 dark:border-slate-500 dark:bg-slate-950 dark:placeholder:text-slate-400"
      />
      <p role="status" className="sr-only">
        {status}
      </p>
      {searching ? (
        results.length > 0 ? (
          <EmojiGrid key={query} label="Search results" entries={results} onAbove={() => search.current?.focus()} className="max-h-64 overflow-y-auto" {...gridProps} />
        ) : (
          <p className="px-1 py-6 text-center text-sm text-muted">{status}</p>
        )
      ) : (
        <>
          <div>
            <div id={`${id}-frequent`} className="px-1 pb-1 text-xs font-semibold text-muted">
              Frequently used
            </div>
            <EmojiGrid labelledBy={`${id}-frequent`} entries={frequent} onAbove={() => search.current?.focus()} {...gridProps} />
          </div>
          <div role="tablist" aria-label="Emoji groups" onKeyDown={onTabKeyDown} className="flex justify-between border-b border-slate-200 dark:border-slate-700">
            {groups.map((each, index) => (
              <button
                key={each.slug}
                ref={(element) => {
                  tabs.current[index] = element;
                }}
                type="button"
                role="tab"
                id={`${id}-tab-${each.slug}`}
                aria-selected={index === groupIndex}
                aria-controls={`${id}-panel`}
                aria-label={each.group}
                title={each.group}
                tabIndex={index === groupIndex ? 0 : -1}
                onClick={() => selectGroup(index)}
                className="-mb-px flex h-8 w-8 items-center justify-center border-b-2 border-transparent text-lg hover:bg-slate-100 aria-selected:border-brand-600 dark:hover:bg-slate-800 dark:aria-selected:border-brand-300"
              >
                <span aria-hidden="true">{each.emojis[0]?.emoji}</span>
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${group.slug}`}>
            <EmojiGrid key={group.slug} label={group.group} entries={group.emojis} onAbove={() => tabs.current[groupIndex]?.focus()} className="h-52 overflow-y-auto" {...gridProps} />
          </div>
        </>
      )}
      {/* The focused or hovered emoji's name for sighted people; a screen reader already says it. */}
      <div aria-hidden="true" className="flex h-7 min-w-0 items-center gap-2 border-t border-slate-200 px-1 pt-1 text-muted dark:border-slate-700">
        {preview ? (
          <>
            <span className="text-xl leading-none">{preview.emoji}</span>
            <span className="truncate text-sm">{preview.name}</span>
          </>
        ) : (
          <span className="truncate text-xs">Arrow keys move, Enter picks, Escape closes</span>
        )}
      </div>
    </div>
  );
}

interface EmojiGridProps {
  entries: EmojiEntry[];
  label?: string;
  labelledBy?: string;
  onPick(emoji: string): void;
  onPreview(entry: EmojiEntry): void;
  /** ArrowUp from the first row. */
  onAbove(): void;
  className?: string;
}

/** A grid of emoji buttons, one Tab stop (roving tabindex); remount it (`key`) for new entries. */
function EmojiGrid({ entries, label, labelledBy, onPick, onPreview, onAbove, className = "" }: EmojiGridProps) {
  const [active, setActive] = useState(0);
  const cells = useRef<(HTMLButtonElement | null)[]>([]);
  const rows = useMemo(() => Array.from({ length: Math.ceil(entries.length / COLUMNS) }, (_, row) => entries.slice(row * COLUMNS, (row + 1) * COLUMNS)), [entries]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = gridMove(event.key, active, entries.length, COLUMNS, event.ctrlKey || event.metaKey);
    if (next === null) return;
    event.preventDefault();
    if (next === "above") return onAbove();
    setActive(next);
    cells.current[next]?.focus();
  };

  return (
    <div role="grid" aria-label={label} aria-labelledby={labelledBy} onKeyDown={onKeyDown} className={className}>
      {rows.map((row, rowIndex) => (
        <div role="row" key={rowIndex} className="grid grid-cols-8">
          {row.map((entry, column) => {
            const index = rowIndex * COLUMNS + column;
            return (
              <div role="gridcell" key={entry.emoji}>
                <button
                  ref={(element) => {
                    cells.current[index] = element;
                  }}
                  type="button"
                  tabIndex={index === active ? 0 : -1}
                  aria-label={entry.name}
                  onClick={() => onPick(entry.emoji)}
                  onFocus={() => {
                    setActive(index);
                    onPreview(entry);
                  }}
                  onMouseEnter={() => onPreview(entry)}
                  className="flex aspect-square w-full items-center justify-center rounded-md text-2xl leading-none hover:bg-slate-100 focus:bg-slate-100 dark:hover:bg-slate-800 dark:focus:bg-slate-800"
                >
                  {entry.emoji}
                </button>
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
