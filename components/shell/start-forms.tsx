"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { ErrorPayload } from "@/lib/errors/app-error";

export type OpenAction = (input: Record<string, unknown>) => Promise<{ data: { conversationId: string } } | { error: ErrorPayload }>;

/** Runs an action that opens a conversation, then goes there; shows the error in words otherwise. */
export function useOpenConversation(action: OpenAction) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const open = async (input: Record<string, unknown>) => {
    setBusy(true);
    setError(null);
    const result = await action(input).catch(() => ({ error: { code: "internal", message: "Could not reach Chorus." } as ErrorPayload }));
    setBusy(false);
    if ("error" in result) return setError(result.error.fields ? Object.values(result.error.fields)[0]! : result.error.message);
    router.push(`/c/${result.data.conversationId}`);
    router.refresh();
  };
  return { open, error, busy };
}

export function NewChannelForm({ projectId, action, onDone }: { projectId: string; action: OpenAction; onDone: () => void }) {
  const { open, error, busy } = useOpenConversation(action);
  const [name, setName] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await open({ projectId, name });
  };
  return (
    <form onSubmit={submit} className="space-y-1 px-2 py-1" aria-label="New channel">
      <label className="block text-xs font-medium text-slate-600 dark:text-slate-400">
        Channel name
        <input
          autoFocus
          value={name}
          onChange={(event) => setName(event.target.value)}
          onKeyDown={(event) => event.key === "Escape" && onDone()}
          placeholder="e.g. release-notes"
          className="mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
        />
      </label>
      {error && <p role="alert" className="text-xs text-red-600">{error}</p>}
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className="rounded-md bg-brand-600 px-2 py-1 text-xs font-semibold text-white disabled:opacity-50">
          Create
        </button>
        <button type="button" onClick={onDone} className="text-xs text-slate-500 underline">
          Cancel
        </button>
      </div>
    </form>
  );
}

export function PersonPicker({
  label,
  people,
  onPick,
  onDone,
  error,
}: {
  label: string;
  people: { id: string; name: string; detail: string }[];
  onPick: (id: string) => void;
  onDone: () => void;
  error: string | null;
}) {
  return (
    <div className="px-2 py-1" role="group" aria-label={label}>
      {people.length === 0 && <p className="text-xs text-slate-500">Nobody else is in this project yet.</p>}
      <ul>
        {people.map((person) => (
          <li key={person.id}>
            <button type="button" onClick={() => onPick(person.id)} className="w-full rounded-md px-2 py-1 text-left text-sm hover:bg-slate-200 dark:hover:bg-slate-800">
              {person.name} <span className="text-xs text-slate-500">{person.detail}</span>
            </button>
          </li>
        ))}
      </ul>
      {error && <p role="alert" className="text-xs text-red-600">{error}</p>}
      <button type="button" onClick={onDone} className="text-xs text-slate-500 underline">
        Cancel
      </button>
    </div>
  );
}
