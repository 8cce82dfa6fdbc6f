"use client";

import { useEffect, useId, useMemo, useRef, useState, type MouseEvent } from "react";
import { MAX_DISTINCT_REACTIONS } from "@/lib/reactions/emoji-catalog";
import { EmojiPicker } from "./emoji-picker";
import { reactionChips, type Reaction, type ReactionChip } from "./reaction-text";

export interface ReactionBarProps {
  /** Grouped by emoji, in the order each first appeared (`ReactionSummary[]`). */
  reactions: Reaction[];
  currentUserId: string;
  /** `reacted` is the state asked for: true adds the current user's reaction, false removes it. */
  onToggle(emoji: string, reacted: boolean): void;
  /** Nothing can be changed (a request under way, a read-only conversation); who reacted still shows. */
  disabled?: boolean;
}

// Roughly the picker's height: below it would leave the screen, it opens above the button.
const PICKER_HEIGHT = 420;

/**
 * The reactions under a message: one toggle chip per emoji with its count (pressed when the
 * current user is among them; who reacted in a tooltip and as its description), and "Add
 * reaction", which opens the emoji picker. Picking an emoji the user already reacted with keeps it.
 */
export function ReactionBar({ reactions, currentUserId, onToggle, disabled = false }: ReactionBarProps) {
  const chips = useMemo(() => reactionChips(reactions, currentUserId), [reactions, currentUserId]);
  const trigger = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [above, setAbove] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const toggle = (event: MouseEvent<HTMLButtonElement>) => {
    if (disabled) return;
    setError(null);
    if (!open) {
      // The picker gives the focus back to whatever was focused when it opened; Safari doesn't focus a clicked button.
      event.currentTarget.focus();
      const { top, bottom } = event.currentTarget.getBoundingClientRect();
      const below = window.innerHeight - bottom;
      setAbove(below < PICKER_HEIGHT && top > below);
    }
    setOpen(!open);
  };

  const pick = (emoji: string) => {
    setOpen(false);
    trigger.current?.focus();
    const chip = chips.find((each) => each.emoji === emoji);
    if (disabled || chip?.mine) return;
    if (!chip && chips.length >= MAX_DISTINCT_REACTIONS) {
      setError(`This message already has ${MAX_DISTINCT_REACTIONS} different reactions, the most one message can have. React with one of those.`);
      return;
    }
    onToggle(emoji, true);
  };

  return (
    <div role="group" aria-label="Reactions" className="relative mt-1 flex flex-wrap items-center gap-1">
      {chips.map((chip) => (
        <Chip key={chip.emoji} chip={chip} disabled={disabled} onToggle={onToggle} />
      ))}
      <button
        ref={trigger}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-disabled={disabled || undefined}
        title="Add reaction"
        onClick={toggle}
        className={`inline-flex h-7 w-9 items-center justify-center rounded-full border border-slate-400 text-muted-strong dark:border-slate-500 ${disabled ? "cursor-not-allowed" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`}
      >
        <AddReactionIcon />
        <span className="sr-only">Add reaction</span>
      </button>
      {open && (
        <div className={`pointer-events-none absolute inset-x-0 z-30 [&>*]:pointer-events-auto ${above ? "bottom-full mb-1" : "top-full mt-1"}`}>
          <EmojiPicker label="Add reaction" onPick={pick} onClose={() => setOpen(false)} />
        </div>
      )}
      {error && (
        <p role="alert" className="w-full text-xs text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

function Chip({ chip, disabled, onToggle }: { chip: ReactionChip; disabled: boolean; onToggle: ReactionBarProps["onToggle"] }) {
  const id = useId();
  const [tip, setTip] = useState(false);
  useEffect(() => {
    if (!tip) return;
    // Escape hides the tooltip wherever the focus is, as when it shows under the pointer (WCAG 1.4.13).
    const hide = (event: KeyboardEvent) => {
      if (event.key === "Escape") setTip(false);
    };
    document.addEventListener("keydown", hide);
    return () => document.removeEventListener("keydown", hide);
  }, [tip]);
  const look = chip.mine
    ? "border-brand-600 bg-brand-50 text-brand-800 dark:border-brand-300 dark:bg-brand-900 dark:text-brand-100"
    : "border-slate-300 bg-white text-muted-strong dark:border-slate-600 dark:bg-slate-900";
  return (
    // The tooltip sits inside the hovered area, so the pointer can move onto it (WCAG 1.4.13).
    <span className="relative inline-flex" onMouseEnter={() => setTip(true)} onMouseLeave={() => setTip(false)}>
      <button
        type="button"
        aria-pressed={chip.mine}
        aria-label={chip.label}
        aria-describedby={id}
        aria-disabled={disabled || undefined}
        onClick={() => {
          if (!disabled) onToggle(chip.emoji, !chip.mine);
        }}
        onFocus={() => setTip(true)}
        onBlur={() => setTip(false)}
        className={`inline-flex h-7 items-center gap-1 rounded-full border px-2 text-sm ${look} ${disabled ? "cursor-not-allowed" : chip.mine ? "hover:bg-brand-100 dark:hover:bg-brand-800" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`}
      >
        <span aria-hidden="true" className="text-base leading-none">
          {chip.emoji}
        </span>
        <span className="font-semibold tabular-nums">{chip.count}</span>
      </button>
      <span role="tooltip" id={id} hidden={!tip} className="absolute bottom-full left-0 z-20 pb-1">
        <span className="block w-max max-w-64 rounded-md bg-slate-900 px-2 py-1 text-xs text-white shadow dark:bg-slate-100 dark:text-slate-900">{chip.description}</span>
      </span>
    </span>
  );
}

/** A smiling face with a plus: the usual "add reaction" mark. */
function AddReactionIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
      <path d="M20.9 11A9 9 0 1 1 13 3.1" />
      <path d="M8 14s1.5 2 4 2 4-2 4-2" />
      <path d="M9 9h.01M15 9h.01" />
      <path d="M19 2v6M16 5h6" />
    </svg>
  );
}
