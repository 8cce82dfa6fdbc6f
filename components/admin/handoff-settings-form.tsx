"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { ErrorPayload } from "@/lib/errors/app-error";
import { handoffModeLabels, handoffModes, type HandoffMode } from "@/lib/handoffs/handoff-modes";
import type { HandoffSettings } from "@/lib/handoffs/handoff-settings";
import type { SpecialistCandidate } from "@/lib/handoffs/manage-handoffs";

export interface HandoffFormActions {
  save: (input: unknown) => Promise<ActionResult<HandoffSettings>>;
  test: (input: unknown) => Promise<ActionResult<{ rule: number; agentId: string } | null>>;
}

const inputClass = "mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950";
const smallButton = "rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800";

/** One labelled control with its error (or hint) under it, tied together for screen readers. */
function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: ReactNode; children: (describedBy: string | undefined) => ReactNode }) {
  const noteId = `${id}-note`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children(error || hint ? noteId : undefined)}
      {error ? (
        <p id={noteId} className="mt-1 text-xs text-danger">
          {error}
        </p>
      ) : (
        hint && (
          <p id={noteId} className="mt-1 text-xs text-muted">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

/**
 * An orchestrator's settings: its specialists (each with how much context it gets), routing rules
 * for the offline model with a box to try a message against them, and the handoff depth. The
 * server validates; its errors appear under the field they concern and nothing typed is lost.
 */
export function HandoffSettingsForm({
  agentId,
  agentName,
  initial,
  candidates,
  actions,
}: {
  agentId: string;
  agentName: string;
  initial: HandoffSettings;
  candidates: SpecialistCandidate[];
  actions: HandoffFormActions;
}) {
  const router = useRouter();
  const [settings, setSettings] = useState(initial);
  const [errors, setErrors] = useState<ErrorPayload | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [testMessage, setTestMessage] = useState("");
  const [testResult, setTestResult] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const nameOf = (id: string) => candidates.find((candidate) => candidate.id === id)?.displayName ?? "Deleted agent";
  /** A specialist (or a rule's target) whose agent was deleted since the settings were saved. */
  const isGone = (id: string) => !candidates.some((candidate) => candidate.id === id);
  const update = (change: Partial<HandoffSettings>) => {
    setSaved(false);
    setSettings((current) => ({ ...current, ...change }));
  };
  const setSpecialist = (index: number, change: Partial<HandoffSettings["specialists"][number]>) =>
    update({ specialists: settings.specialists.map((specialist, at) => (at === index ? { ...specialist, ...change } : specialist)) });
  const setRoute = (index: number, change: Partial<HandoffSettings["routes"][number]>) => update({ routes: settings.routes.map((route, at) => (at === index ? { ...route, ...change } : route)) });
  const unlisted = candidates.filter((candidate) => !settings.specialists.some((specialist) => specialist.agentId === candidate.id));
  const fieldError = (path: string) => errors?.fields?.[path];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await actions.save({ agentId, ...settings }).catch(() => ({ error: { code: "internal", message: "Could not reach Chorus. Try again." } as ErrorPayload }));
    setBusy(false);
    if ("error" in result) return setErrors(result.error);
    setErrors(null);
    setSettings(result.data);
    setSaved(true);
    router.refresh();
  };

  const test = async () => {
    const result = await actions.test({ agentId, routes: settings.routes, message: testMessage }).catch(() => ({ error: { code: "internal", message: "Could not reach Chorus. Try again." } as ErrorPayload }));
    if ("error" in result) return setTestResult(result.error.message);
    setTestResult(result.data ? `Rule ${result.data.rule} matches: ${agentName} hands off to ${nameOf(result.data.agentId)}.` : `No rule matches: ${agentName} answers itself.`);
  };

  return (
    <form ref={form} onSubmit={submit} aria-label="Handoff settings" className="space-y-6" noValidate>
      {errors && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
          {errors.fields ? "Some settings need fixing: see the fields marked below." : errors.message}
        </p>
      )}
      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-semibold uppercase text-muted">Orchestrator</legend>
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" checked={settings.orchestrator} onChange={(event) => update({ orchestrator: event.target.checked })} className="h-4 w-4" />
          {agentName} orchestrates: it may hand messages off to its specialists
        </label>
        <Field id="handoff-maxDepth" label="Handoffs per message" error={fieldError("maxDepth")} hint="After this many handoffs for one message, the agent holding it answers itself.">
          {(describedBy) => (
            <input
              id="handoff-maxDepth"
              type="number"
              min={1}
              max={10}
              value={settings.maxDepth}
              onChange={(event) => update({ maxDepth: Number(event.target.value) })}
              aria-describedby={describedBy}
              aria-invalid={Boolean(fieldError("maxDepth")) || undefined}
              className={`${inputClass} max-w-32`}
            />
          )}
        </Field>
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-semibold uppercase text-muted">Specialists</legend>
        {fieldError("specialists") && <p className="text-xs text-danger">{fieldError("specialists")}</p>}
        {settings.specialists.length === 0 && <p className="text-sm text-muted">No specialists yet.</p>}
        <ul className="space-y-3">
          {settings.specialists.map((specialist, index) => {
            const prefix = `specialists.${index}`;
            const name = nameOf(specialist.agentId);
            return (
              <li key={specialist.agentId} aria-label={`Specialist ${name}`} className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-3 dark:border-slate-800">
                <Field id={`${prefix}-agent`} label="Agent" error={fieldError(`${prefix}.agentId`) ?? (isGone(specialist.agentId) ? "This agent was deleted: remove it (no handoff reaches it)." : undefined)}>
                  {(describedBy) => (
                    <select
                      id={`${prefix}-agent`}
                      value={specialist.agentId}
                      onChange={(event) => setSpecialist(index, { agentId: event.target.value })}
                      aria-describedby={describedBy}
                      aria-invalid={Boolean(fieldError(`${prefix}.agentId`)) || undefined}
                      className={inputClass}
                    >
                      {[candidates.find((candidate) => candidate.id === specialist.agentId), ...unlisted].flatMap((candidate) =>
                        candidate ? [<option key={candidate.id} value={candidate.id}>{`${candidate.displayName} (@${candidate.handle})${candidate.enabled ? "" : " · disabled"}`}</option>] : [],
                      )}
                    </select>
                  )}
                </Field>
                <Field
                  id={`${prefix}-mode`}
                  label="Context shared"
                  error={fieldError(`${prefix}.mode`)}
                  hint={specialist.mode === "full" ? "Full history sends every message of the conversation: the most tokens of all modes (the specialist's budget still applies)." : undefined}
                >
                  {(describedBy) => (
                    <select id={`${prefix}-mode`} value={specialist.mode} onChange={(event) => setSpecialist(index, { mode: event.target.value as HandoffMode })} aria-describedby={describedBy} className={inputClass}>
                      {handoffModes.map((mode) => (
                        <option key={mode} value={mode}>
                          {handoffModeLabels[mode][0]!.toUpperCase() + handoffModeLabels[mode].slice(1)}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                {specialist.mode === "recent" && (
                  <Field id={`${prefix}-recentN`} label="Recent messages" error={fieldError(`${prefix}.recentN`)}>
                    {(describedBy) => (
                      <input
                        id={`${prefix}-recentN`}
                        type="number"
                        min={1}
                        value={specialist.recentN}
                        onChange={(event) => setSpecialist(index, { recentN: Number(event.target.value) })}
                        aria-describedby={describedBy}
                        aria-invalid={Boolean(fieldError(`${prefix}.recentN`)) || undefined}
                        className={inputClass}
                      />
                    )}
                  </Field>
                )}
                {specialist.mode === "fork" && (
                  <Field id={`${prefix}-forkHistory`} label="Messages copied into the fork" error={fieldError(`${prefix}.forkHistory`)}>
                    {(describedBy) => (
                      <input
                        id={`${prefix}-forkHistory`}
                        type="number"
                        min={0}
                        value={specialist.forkHistory}
                        onChange={(event) => setSpecialist(index, { forkHistory: Number(event.target.value) })}
                        aria-describedby={describedBy}
                        aria-invalid={Boolean(fieldError(`${prefix}.forkHistory`)) || undefined}
                        className={inputClass}
                      />
                    )}
                  </Field>
                )}
                <div className="flex items-end sm:col-span-3">
                  <button
                    type="button"
                    onClick={() => update({ specialists: settings.specialists.filter((_, at) => at !== index), routes: settings.routes.filter((route) => route.agentId !== specialist.agentId) })}
                    className={smallButton}
                  >
                    Remove {name}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
        {unlisted.length > 0 && (
          <button type="button" onClick={() => update({ specialists: [...settings.specialists, { agentId: unlisted[0]!.id, mode: "summary", recentN: 10, forkHistory: 5 }] })} className={smallButton}>
            Add specialist
          </button>
        )}
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-semibold uppercase text-muted">Routing rules (offline model)</legend>
        <p className="text-sm text-muted">Checked in order against each message; the first whose pattern (a case-insensitive regular expression, without look-around or back-references) matches hands off to its specialist.</p>
        <ol className="space-y-3">
          {settings.routes.map((route, index) => {
            const prefix = `routes.${index}`;
            return (
              <li key={index} aria-label={`Rule ${index + 1}`} className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-[1fr_12rem_auto] dark:border-slate-800">
                <Field id={`${prefix}-pattern`} label={`Rule ${index + 1} pattern`} error={fieldError(`${prefix}.pattern`)}>
                  {(describedBy) => (
                    <input
                      id={`${prefix}-pattern`}
                      value={route.pattern}
                      onChange={(event) => setRoute(index, { pattern: event.target.value })}
                      aria-describedby={describedBy}
                      aria-invalid={Boolean(fieldError(`${prefix}.pattern`)) || undefined}
                      className={`${inputClass} font-mono`}
                    />
                  )}
                </Field>
                <Field id={`${prefix}-agent`} label="Hands off to" error={fieldError(`${prefix}.agentId`) ?? (isGone(route.agentId) ? "Its specialist was deleted: this rule is skipped until you point it at another specialist or remove it." : undefined)}>
                  {(describedBy) => (
                    <select
                      id={`${prefix}-agent`}
                      value={route.agentId}
                      onChange={(event) => setRoute(index, { agentId: event.target.value })}
                      aria-describedby={describedBy}
                      aria-invalid={Boolean(fieldError(`${prefix}.agentId`)) || undefined}
                      className={inputClass}
                    >
                      {settings.specialists.map((specialist) => (
                        <option key={specialist.agentId} value={specialist.agentId}>
                          {nameOf(specialist.agentId)}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <div className="flex items-end">
                  <button type="button" onClick={() => update({ routes: settings.routes.filter((_, at) => at !== index) })} className={smallButton}>
                    Remove rule {index + 1}
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
        {settings.specialists.length > 0 ? (
          <button type="button" onClick={() => update({ routes: [...settings.routes, { pattern: "", agentId: settings.specialists[0]!.agentId }] })} className={smallButton}>
            Add rule
          </button>
        ) : (
          <p className="text-sm text-muted">Add a specialist first: rules route to specialists.</p>
        )}
        <div className="rounded-lg border border-dashed border-slate-300 p-3 dark:border-slate-700">
          <label htmlFor="handoff-test" className="block text-sm font-medium">
            Test this message
          </label>
          <div className="mt-1 flex flex-col gap-2 sm:flex-row">
            <input id="handoff-test" value={testMessage} onChange={(event) => setTestMessage(event.target.value)} className={`${inputClass} mt-0`} />
            <button type="button" onClick={() => void test()} className={smallButton}>
              Test
            </button>
          </div>
          <p aria-live="polite" className="mt-1 text-sm">
            {testResult}
          </p>
        </div>
      </fieldset>

      <div className="flex items-center gap-3">
        <button type="submit" disabled={busy} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50">
          {busy ? "Saving…" : "Save handoffs"}
        </button>
        <p aria-live="polite" className="text-sm text-muted">
          {saved ? "Saved." : ""}
        </p>
      </div>
    </form>
  );
}
