"use client";

import { useState, type FormEvent, type KeyboardEvent } from "react";

/** Enter sends, Shift+Enter starts a new line. Empty or whitespace-only text is not sent. */
export function Composer({ conversationTitle, onSend }: { conversationTitle: string; onSend: (content: string) => void }) {
  const [text, setText] = useState("");

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (text.trim().length === 0) return;
    onSend(text);
    setText("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };

  return (
    <form onSubmit={submit} className="border-t border-slate-200 p-3 dark:border-slate-800">
      <div className="flex items-end gap-2 rounded-xl border border-slate-300 bg-white px-3 py-2 focus-within:border-brand-500 dark:border-slate-700 dark:bg-slate-900">
        <textarea
          aria-label={`Message ${conversationTitle}`}
          placeholder={`Message #${conversationTitle}`}
          rows={1}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          className="max-h-48 min-h-[1.5rem] flex-1 resize-none bg-transparent text-slate-900 outline-none placeholder:text-slate-400 dark:text-slate-100"
        />
        <button
          type="submit"
          disabled={text.trim().length === 0}
          className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-40"
        >
          Send
        </button>
      </div>
    </form>
  );
}
