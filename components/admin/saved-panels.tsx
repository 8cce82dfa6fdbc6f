"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { ErrorPayload } from "@/lib/errors/app-error";
import type { SavedPanelView } from "@/lib/panels/manage-saved-panels";

export interface SavedPanelActions {
  save: (input: unknown) => Promise<ActionResult<void>>;
  remove: (input: unknown) => Promise<ActionResult<void>>;
}

type Agent = { id: string; handle: string; displayName: string; enabled: boolean };

const inputClass = "mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950";
const smallButton = "rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800";
const blank = { handle: "", name: "", agentIds: [] as string[], maxRounds: 3, tokenCap: 20_000, timeLimitSeconds: 120 };
const failed = { error: { code: "internal", message: "Could not reach Chorus. Try again." } as ErrorPayload };

/** The project's saved panels: each editable and deletable, and a form for a new one. */
export function SavedPanels({ panels, agents, actions }: { panels: SavedPanelView[]; agents: Agent[]; actions: SavedPanelActions }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const nameOf = (id: string) => agents.find((agent) => agent.id === id)?.displayName;
  const remove = async (panel: SavedPanelView) => {
    const result = await actions.remove({ id: panel.id }).catch(() => failed);
    if ("error" in result) return setError(result.error.message);
    router.refresh();
  };
  return (
    <div className="space-y-4">
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      {panels.length === 0 && <p className="text-sm text-muted">No saved panels yet.</p>}
      <ul className="space-y-3">
        {panels.map((panel) => (
          <li key={panel.id} aria-label={`Panel @${panel.handle}`} className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
            <p className="font-semibold">
              {panel.name} <span className="font-normal text-muted">@{panel.handle}</span>
            </p>
            <p className="text-muted">
              {panel.agentIds.map((id) => nameOf(id) ?? "a deleted agent").join(", ")} · {panel.maxRounds} rounds · {panel.tokenCap.toLocaleString("en")} tokens · {panel.timeLimitSeconds} s
            </p>
            {panel.missingAgents > 0 && <p className="text-danger">It names {panel.missingAgents === 1 ? "an agent" : `${panel.missingAgents} agents`} that no longer exist: asking it is refused until you fix it.</p>}
            <div className="mt-2 flex gap-2">
              <details className="flex-1">
                <summary className="cursor-pointer text-xs font-semibold text-link">Edit @{panel.handle}</summary>
                <PanelForm agents={agents} initial={panel} save={(input) => actions.save({ ...input, id: panel.id })} label={`Edit panel @${panel.handle}`} submit="Save" />
              </details>
              <button type="button" onClick={() => void remove(panel)} className={`${smallButton} self-start`}>
                Delete @{panel.handle}
              </button>
            </div>
          </li>
        ))}
      </ul>
      <section aria-labelledby="new-panel">
        <h2 id="new-panel" className="mb-2 text-lg font-semibold">
          New panel
        </h2>
        <PanelForm agents={agents} initial={blank} save={actions.save} label="New panel" submit="Add panel" />
      </section>
    </div>
  );
}

function PanelForm({ agents, initial, save, label, submit }: { agents: Agent[]; initial: typeof blank; save: (input: typeof blank) => Promise<ActionResult<void>>; label: string; submit: string }) {
  const router = useRouter();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<ErrorPayload | null>(null);
  const [busy, setBusy] = useState(false);
  const prefix = label.replace(/\W+/g, "-").toLowerCase();
  const field = (name: string) => errors?.fields?.[name];
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await save(values).catch(() => failed);
    setBusy(false);
    if ("error" in result) return setErrors(result.error);
    setErrors(null);
    if (initial === blank) setValues(blank);
    router.refresh();
  };
  const number = (name: "maxRounds" | "tokenCap" | "timeLimitSeconds", text: string) => (
    <div>
      <label htmlFor={`${prefix}-${name}`} className="block text-sm font-medium">
        {text}
      </label>
      <input
        id={`${prefix}-${name}`}
        type="number"
        value={values[name]}
        onChange={(event) => setValues({ ...values, [name]: Number(event.target.value) })}
        aria-invalid={Boolean(field(name)) || undefined}
        aria-describedby={field(name) ? `${prefix}-${name}-error` : undefined}
        className={inputClass}
      />
      {field(name) && (
        <p id={`${prefix}-${name}-error`} className="mt-1 text-xs text-danger">
          {field(name)}
        </p>
      )}
    </div>
  );
  return (
    <form onSubmit={onSubmit} aria-label={label} className="mt-2 grid gap-3 sm:grid-cols-2" noValidate>
      {errors && !errors.fields && (
        <p role="alert" className="text-sm text-danger sm:col-span-2">
          {errors.message}
        </p>
      )}
      <div>
        <label htmlFor={`${prefix}-handle`} className="block text-sm font-medium">
          Handle
        </label>
        <input id={`${prefix}-handle`} value={values.handle} onChange={(event) => setValues({ ...values, handle: event.target.value })} aria-invalid={Boolean(field("handle")) || undefined} aria-describedby={`${prefix}-handle-note`} className={inputClass} />
        <p id={`${prefix}-handle-note`} className={`mt-1 text-xs ${field("handle") ? "text-danger" : "text-muted"}`}>
          {field("handle") ?? "People ask the panel as @handle."}
        </p>
      </div>
      <div>
        <label htmlFor={`${prefix}-name`} className="block text-sm font-medium">
          Name
        </label>
        <input id={`${prefix}-name`} value={values.name} onChange={(event) => setValues({ ...values, name: event.target.value })} aria-invalid={Boolean(field("name")) || undefined} aria-describedby={field("name") ? `${prefix}-name-error` : undefined} className={inputClass} />
        {field("name") && (
          <p id={`${prefix}-name-error`} className="mt-1 text-xs text-danger">
            {field("name")}
          </p>
        )}
      </div>
      <fieldset className="sm:col-span-2" aria-describedby={field("agentIds") ? `${prefix}-agents-error` : undefined}>
        <legend className="text-sm font-medium">Agents</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {agents.map((agent) => (
            <label key={agent.id} className="flex items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                checked={values.agentIds.includes(agent.id)}
                onChange={(event) => setValues({ ...values, agentIds: event.target.checked ? [...values.agentIds, agent.id] : values.agentIds.filter((id) => id !== agent.id) })}
              />
              {agent.displayName}
              {!agent.enabled && <span className="text-xs text-muted">(disabled)</span>}
            </label>
          ))}
        </div>
        {field("agentIds") && (
          <p id={`${prefix}-agents-error`} className="mt-1 text-xs text-danger">
            {field("agentIds")}
          </p>
        )}
      </fieldset>
      {number("maxRounds", "Rounds")}
      {number("tokenCap", "Token cap")}
      {number("timeLimitSeconds", "Time limit (seconds)")}
      <div className="flex items-end">
        <button type="submit" disabled={busy} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50">
          {submit}
        </button>
      </div>
    </form>
  );
}
