"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent, type ReactNode } from "react";
import type { ErrorPayload } from "@/lib/errors/app-error";
import { useMenu } from "@/components/ui/use-menu";

export type OpenAction = (input: Record<string, unknown>) => Promise<{ data: { conversationId: string } } | { error: ErrorPayload }>;

/** Runs an action that opens a conversation, then goes there; shows the error in words otherwise. */
export function useOpenConversation(action: OpenAction) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const open = async (input: Record<string, unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    const result = await action(input).catch(() => ({ error: { code: "internal", message: "Could not reach Chorus." } as ErrorPayload }));
    setBusy(false);
    if ("error" in result) {
      setError(result.error.fields ? Object.values(result.error.fields)[0]! : result.error.message);
      return false;
    }
    router.push(`/c/${result.data.conversationId}`);
    router.refresh();
    return true;
  };
  return { open, error, busy };
}

export function NewChannelForm({ projectId, action, onDone }: { projectId: string; action: OpenAction; onDone: () => void }) {
  const { open, error, busy } = useOpenConversation(action);
  const [name, setName] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await open({ projectId, name, private: isPrivate })) onDone();
  };
  return (
    <form onSubmit={submit} className="space-y-1 px-2 py-1" aria-label="New channel">
      <label className="block text-xs font-medium text-muted">
        Channel name
        <input
          autoFocus
          value={name}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "new-channel-error" : undefined}
          onChange={(event) => setName(event.target.value)}
          onKeyDown={(event) => event.key === "Escape" && onDone()}
          placeholder="e.g. release-notes"
          className="mt-1 w-full rounded-md border border-slate-400 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100"
        />
      </label>
      <label className="flex items-center gap-1.5 text-xs text-muted">
        <input type="checkbox" checked={isPrivate} onChange={(event) => setPrivate(event.target.checked)} onKeyDown={(event) => event.key === "Escape" && onDone()} />
        Private (by invitation only)
      </label>
      {error && (
        <p id="new-channel-error" role="alert" className="text-xs text-danger">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className="rounded-md bg-brand-600 px-2 py-1 text-xs font-semibold text-white disabled:opacity-50">
          Create
        </button>
        <button type="button" onClick={onDone} className="text-xs text-muted underline">
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The "+" of a sidebar section that opens a menu of people to start a conversation with. */
export function PeopleMenu({
  label,
  buttonLabel,
  people,
  onOpen,
  onPick,
  error,
  icon,
}: {
  label: string;
  buttonLabel: string;
  people: { id: string; name: string; detail: string }[];
  onOpen: () => void;
  onPick: (id: string) => Promise<boolean>;
  error: string | null;
  icon: ReactNode;
}) {
  const { open, close, triggerProps, menuProps } = useMenu();
  return (
    <div className="relative">
      <button
        type="button"
        aria-label={buttonLabel}
        title={buttonLabel}
        {...triggerProps}
        onClick={() => {
          if (!open) onOpen();
          triggerProps.onClick();
        }}
        className="rounded px-1.5 text-lg leading-none text-muted hover:bg-slate-200 dark:hover:bg-slate-800"
      >
        {icon}
      </button>
      {open && (
        <div {...menuProps} aria-label={label} className="absolute right-0 top-full z-20 mt-1 max-h-72 w-60 overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          {people.length === 0 && <p className="px-2 py-1 text-xs text-muted">Nobody else is in this project yet.</p>}
          {people.map((person) => (
            <button
              key={person.id}
              type="button"
              role="menuitem"
              onClick={() => void onPick(person.id).then((opened) => opened && close(false))}
              className="block w-full rounded-md px-2 py-1 text-left text-sm hover:bg-slate-100 focus:bg-slate-100 dark:hover:bg-slate-800 dark:focus:bg-slate-800"
            >
              {person.name} <span className="text-xs text-muted">{person.detail}</span>
            </button>
          ))}
          {error && (
            <p role="alert" className="px-2 text-xs text-danger">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
