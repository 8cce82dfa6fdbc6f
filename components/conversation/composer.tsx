"use client";

import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from "react";
import type { ComposerUpload } from "@/hooks/use-attachment-uploads";
import type { Refusal } from "@/hooks/use-send-message";
import type { ParticipantDto } from "@/lib/conversations/list-participants";
import { MAX_MESSAGE_BYTES } from "@/lib/conversations/message-input";
import { ComposerUploads } from "./composer-uploads";
import { mentionOptions, panelPreview, type MentionOption, type PanelContext } from "./mention-options";
import { insertMention, mentionQueryAt } from "./mention-query";

interface ComposerProps {
  label: string;
  participants: ParticipantDto[];
  /** Whether panels can be asked here, and the saved ones offered by @completion. */
  panels: PanelContext;
  onSend: (content: string) => void;
  onTyping: () => void;
  hint?: string | null;
  /** The text box, for the conversation to focus when it opens. */
  inputRef?: RefObject<HTMLTextAreaElement | null>;
  /** The last message the server refused: its text comes back here, the reason shows below. */
  refusal?: Refusal | null;
  /** The message being replied to, shown above the text box with a way to cancel. */
  replyingTo?: { authorName: string; excerpt: string; onCancel: () => void } | null;
  /** What the last change to a message did or could not do (an edit asks nobody; a refusal). */
  notice?: { text: string; tone: "info" | "error" } | null;
  /** Files to send with the message: added by button, paste or drop, uploading at once. */
  files?: ComposerFiles;
}

export interface ComposerFiles {
  uploads: ComposerUpload[];
  add: (files: File[]) => void;
  remove: (localId: string) => void;
  /** Sending waits until every file is uploaded. */
  uploading: boolean;
  readyIds: string[];
}

const encoder = new TextEncoder();

/**
 * Enter sends, Shift+Enter starts a new line; typing @ offers the participants and the panels.
 * Empty text and text over the size limit are not sent (the server refuses them too).
 */
export function Composer({ label, participants, panels, onSend, onTyping, hint, inputRef, refusal, replyingTo, notice, files }: ComposerProps) {
  const [text, setText] = useState("");
  const [refused, setRefused] = useState<string | null>(null);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const ownInput = useRef<HTMLTextAreaElement>(null);
  const input = inputRef ?? ownInput;
  /** Where the caret goes once a chosen mention is in the text. */
  const caretAfterMention = useRef<number | null>(null);

  const query = dismissed ? null : mentionQueryAt(text, caret);

  // Nothing typed is lost: a refused message is put back (unless something new was typed since).
  const [seenRefusal, setSeenRefusal] = useState(refusal);
  if (refusal !== seenRefusal) {
    setSeenRefusal(refusal);
    if (refusal) {
      setText((current) => (current.trim() === "" ? refusal.content : current));
      setRefused(refusal.reason);
    }
  }
  // Placed as the text is committed, before the next keystroke: a caret placed a frame later
  // would jump back over what a fast typist typed since (and Enter would then send, not pick).
  useLayoutEffect(() => {
    if (caretAfterMention.current === null) return;
    input.current?.setSelectionRange(caretAfterMention.current, caretAfterMention.current);
    caretAfterMention.current = null;
  }, [text, input]);
  useEffect(() => {
    if (refusal) input.current?.focus();
  }, [refusal, input]);
  const options = query ? mentionOptions(query.query, participants, panels, text.slice(0, query.start)) : [];
  const preview = panelPreview(text, participants, panels);
  const bytes = encoder.encode(text).length;
  const tooLong = bytes > MAX_MESSAGE_BYTES;
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const sendable = (text.trim().length > 0 || (files?.readyIds.length ?? 0) > 0) && !tooLong && !files?.uploading;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!sendable) return;
    onSend(text);
    setText("");
    setCaret(0);
  };

  const choose = (option: MentionOption) => {
    if (!query) return;
    const next = insertMention(text, query.start, caret, option.handle);
    setText(next.text);
    setCaret(next.caret);
    caretAfterMention.current = next.caret;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (options.length > 0) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        setActive((index) => (index + (event.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        choose(options[Math.min(active, options.length - 1)]!);
        return;
      }
      if (event.key === "Escape") {
        setDismissed(true);
        return;
      }
    }
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };

  return (
    <form
      onSubmit={submit}
      onDragOver={(event) => {
        if (!files || !event.dataTransfer.types.includes("Files")) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        if (!files || event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        setDragging(false);
        files.add([...event.dataTransfer.files]);
      }}
      className={`relative border-t border-slate-200 p-2 sm:p-3 dark:border-slate-800 ${dragging ? "bg-brand-50 dark:bg-slate-800" : ""}`}
    >
      {options.length > 0 && (
        <ul role="listbox" id="mention-options" aria-label="Mention someone" className="absolute bottom-full left-3 mb-1 w-72 max-w-[calc(100%-1.5rem)] rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          {options.map((option, index) => (
            <li
              key={option.key}
              id={optionId(option)}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(option);
              }}
              className="flex cursor-pointer flex-wrap items-center gap-x-2 rounded-md px-2 py-1 text-sm aria-selected:bg-brand-50 dark:aria-selected:bg-slate-800"
            >
              <span className="font-medium">{option.name}</span>
              <span className="text-muted">@{option.handle}</span>
              {option.kind !== "user" && <span className="ml-auto text-[10px] font-semibold uppercase text-link">{option.kind}</span>}
              {option.detail && <span className="w-full truncate text-xs text-muted">{option.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      {replyingTo && (
        <div className="mb-1 flex items-center gap-2 text-xs text-muted-strong">
          <p className="min-w-0 flex-1 truncate border-l-2 border-brand-600 pl-2">
            <span className="font-semibold">Replying to {replyingTo.authorName}:</span> {replyingTo.excerpt}
          </p>
          <button type="button" onClick={replyingTo.onCancel} className="rounded px-1 text-link hover:underline">
            Cancel reply
          </button>
        </div>
      )}
      {files && <ComposerUploads uploads={files.uploads} onRemove={files.remove} />}
      <div className="flex items-end gap-2 rounded-xl border border-slate-300 bg-white px-3 py-2 focus-within:border-brand-600 focus-within:ring-2 focus-within:ring-brand-600/40 dark:border-slate-600 dark:bg-slate-900">
        <textarea
          ref={input}
          aria-label={label}
          aria-autocomplete="list"
          aria-controls={options.length > 0 ? "mention-options" : undefined}
          aria-activedescendant={options.length > 0 ? optionId(options[Math.min(active, options.length - 1)]!) : undefined}
          aria-describedby={preview ? "panel-preview" : undefined}
          placeholder={label}
          rows={1}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setCaret(event.target.selectionStart);
            setActive(0);
            setDismissed(false);
            setRefused(null);
            onTyping();
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={(event) => {
            if (!files || event.clipboardData.files.length === 0) return;
            event.preventDefault();
            files.add([...event.clipboardData.files]);
          }}
          className="max-h-48 min-h-[1.5rem] min-w-0 flex-1 resize-none bg-transparent text-slate-900 outline-none placeholder:text-slate-500 dark:text-slate-100 dark:placeholder:text-slate-400"
        />
        {files && (
          <>
            <input
              ref={picker}
              type="file"
              multiple
              hidden
              onChange={(event) => {
                files.add([...(event.target.files ?? [])]);
                event.target.value = "";
              }}
            />
            <button type="button" onClick={() => picker.current?.click()} aria-label="Attach files" title="Attach files (or paste, or drop them here)" className="rounded-lg px-2 py-1.5 text-sm text-muted-strong hover:bg-slate-100 dark:hover:bg-slate-800">
              <span aria-hidden="true">📎</span>
            </button>
          </>
        )}
        <button
          type="submit"
          disabled={!sendable}
          className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-40"
        >
          Send
        </button>
      </div>
      {tooLong && (
        <p role="alert" className="mt-1 text-xs text-danger">
          Too long: {bytes.toLocaleString("en")} bytes; messages can be at most 16 KB ({MAX_MESSAGE_BYTES.toLocaleString("en")} bytes).
        </p>
      )}
      {refused && !tooLong && (
        <p role="alert" className="mt-1 text-xs text-danger">
          Not sent: {refused}
        </p>
      )}
      {preview && !tooLong && !refused && (
        <p id="panel-preview" aria-live="polite" className={`mt-1 text-xs ${preview.ok ? "text-muted" : "text-amber-700 dark:text-amber-300"}`}>
          {preview.text}
        </p>
      )}
      {hint && !tooLong && !refused && !preview && !notice && <p className="mt-1 text-xs text-amber-700 dark:text-amber-300">{hint}</p>}
      {notice && (
        <p role={notice.tone === "error" ? "alert" : "status"} className={`mt-1 text-xs ${notice.tone === "error" ? "text-danger" : "text-amber-700 dark:text-amber-300"}`}>
          {notice.text}
        </p>
      )}
    </form>
  );
}

const optionId = (option: MentionOption) => `mention-${option.key}`;
