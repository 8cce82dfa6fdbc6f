"use client";

import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";

/**
 * Editing a message in place: Enter (or Ctrl+Enter) saves, Shift+Enter starts a line, Escape
 * cancels. "Save and ask again" is offered for the person's latest message that agents answered.
 */
export function MessageEditor({ initial, canResend, onSave, onCancel }: { initial: string; canResend: boolean; onSave: (content: string, resend: boolean) => Promise<boolean>; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.setSelectionRange(initial.length, initial.length);
  }, [initial]);

  const save = async (resend: boolean) => {
    if (text.trim() === "" || busy) return;
    setBusy(true);
    const saved = await onSave(text, resend);
    setBusy(false);
    if (saved) onCancel();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onCancel();
    } else if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void save(false);
    }
  };

  return (
    <form onSubmit={submit} className="mt-1 space-y-2">
      <label className="sr-only" htmlFor={`edit-${initial.length}`}>
        Edit message
      </label>
      <textarea
        id={`edit-${initial.length}`}
        ref={input}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        rows={Math.min(8, Math.max(2, text.split("\n").length))}
        className="w-full resize-y rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      />
      <div className="flex flex-wrap gap-2 text-sm">
        <button type="submit" disabled={busy} className="rounded-md bg-brand-600 px-3 py-1 font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
          Save
        </button>
        {canResend && (
          <button type="button" disabled={busy} onClick={() => void save(true)} className="rounded-md border border-brand-600 px-3 py-1 font-semibold text-link hover:bg-slate-100 disabled:opacity-60 dark:hover:bg-slate-800">
            Save and ask again
          </button>
        )}
        <button type="button" onClick={onCancel} className="rounded-md px-3 py-1 text-muted-strong hover:bg-slate-100 dark:hover:bg-slate-800">
          Cancel
        </button>
      </div>
    </form>
  );
}
