"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { ErrorPayload } from "@/lib/errors/app-error";
import type { ProcedureView } from "@/lib/memory/manage-procedures";
import { ItemList } from "@/components/ui/item-list";

type Action = (input: unknown) => Promise<ActionResult<unknown>>;
const offline = { error: { code: "internal", message: "Could not reach Chorus. Try again." } as ErrorPayload };
const inputClass = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-950";

function ProcedureForm({ initial, submitLabel, onSubmit, onCancel }: { initial?: ProcedureView; submitLabel: string; onSubmit: (fields: Record<string, string>) => Promise<ErrorPayload | null>; onCancel?: () => void }) {
  const id = useId();
  const [error, setError] = useState<ErrorPayload | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = Object.fromEntries(new FormData(form)) as Record<string, string>;
    const problem = await onSubmit(fields);
    setError(problem);
    if (problem) form.querySelector<HTMLElement>(`[name="${Object.keys(problem.fields ?? {})[0] ?? "name"}"]`)?.focus();
    else if (!initial) form.reset();
  };
  const fieldError = (name: string) => error?.fields?.[name] ?? (name === "name" && error && !error.fields ? error.message : undefined);
  const field = (name: "name" | "trigger" | "steps", label: string, hint?: string) => (
    <label className="block text-sm font-medium">
      {label}
      {name === "steps" ? (
        <textarea name={name} rows={4} defaultValue={initial?.steps.join("\n")} aria-invalid={fieldError(name) ? true : undefined} aria-describedby={`${id}-${name}-note`} className={inputClass} />
      ) : (
        <input name={name} defaultValue={name === "name" ? initial?.name : (initial?.trigger ?? "")} aria-invalid={fieldError(name) ? true : undefined} aria-describedby={`${id}-${name}-note`} className={inputClass} />
      )}
      <span id={`${id}-${name}-note`} className={`mt-1 block text-xs ${fieldError(name) ? "text-danger" : "text-muted"}`}>
        {fieldError(name) ?? hint}
      </span>
    </label>
  );
  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-2" noValidate aria-label={initial ? `Edit ${initial.name}` : "New procedure"}>
      {field("name", "Name")}
      {field("trigger", "Trigger (optional)", "A regular expression matched against messages, case-insensitive, without look-around or back-references, e.g. \\b(leave|holiday) request\\b")}
      {field("steps", "Steps", "One step per line.")}
      <div className="flex gap-2">
        <button type="submit" className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700">
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel} className="rounded-lg px-3 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/** Review pending procedures, approve or reject them, edit any, and write new ones by hand. */
export function ProcedureManager({ agentId, procedures, actions }: { agentId: string; procedures: ProcedureView[]; actions: { create: Action; update: Action; setStatus: Action; remove: Action } }) {
  const router = useRouter();
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: Action, input: Record<string, unknown>): Promise<ErrorPayload | null> => {
    const result = await action({ agentId, ...input }).catch(() => offline);
    if ("error" in result) return result.error;
    router.refresh();
    return null;
  };
  const act = async (action: Action, input: Record<string, unknown>) => setError((await run(action, input))?.message ?? null);

  return (
    <div className="space-y-6">
      <section aria-labelledby="new-procedure" className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
        <h2 id="new-procedure" className="mb-2 font-semibold">
          Write a procedure
        </h2>
        <ProcedureForm submitLabel="Add procedure" onSubmit={(fields) => run(actions.create, fields)} />
      </section>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      <ItemList items={procedures} label="Procedures" empty="No procedures yet." itemLabel={(procedure) => `Procedure ${procedure.name}`} itemClassName="space-y-2">
        {(procedure) =>
          editing === procedure.id ? (
            <ProcedureForm
              initial={procedure}
              submitLabel="Save"
              onCancel={() => setEditing(null)}
              onSubmit={async (fields) => {
                const problem = await run(actions.update, { ...fields, procedureId: procedure.id });
                if (!problem) setEditing(null);
                return problem;
              }}
            />
          ) : (
            <>
              <div className="flex flex-wrap items-center gap-2">
                <span className="min-w-0 flex-1 font-semibold">{procedure.name}</span>
                <span className={procedure.status === "pending" ? "font-semibold text-amber-800 dark:text-amber-200" : "text-muted"}>{procedure.status}</span>
              </div>
              <p className="text-xs text-muted">{procedure.trigger ? <>Trigger: <code>{procedure.trigger}</code></> : "No trigger: matched by meaning only"}</p>
              <ol className="list-decimal pl-6">
                {procedure.steps.map((step, index) => (
                  <li key={index}>{step}</li>
                ))}
              </ol>
              <div className="flex flex-wrap gap-2">
                {procedure.status !== "approved" && (
                  <button type="button" onClick={() => void act(actions.setStatus, { procedureId: procedure.id, status: "approved" })} className="rounded-md bg-emerald-700 px-2 py-1 text-xs font-semibold text-white hover:bg-emerald-800">
                    Approve<span className="sr-only"> {procedure.name}</span>
                  </button>
                )}
                {procedure.status !== "rejected" && (
                  <button type="button" onClick={() => void act(actions.setStatus, { procedureId: procedure.id, status: "rejected" })} className="rounded-md border border-slate-400 px-2 py-1 text-xs hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
                    Reject<span className="sr-only"> {procedure.name}</span>
                  </button>
                )}
                <button type="button" onClick={() => setEditing(procedure.id)} className="rounded-md border border-slate-400 px-2 py-1 text-xs hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
                  Edit<span className="sr-only"> {procedure.name}</span>
                </button>
                <button type="button" onClick={() => void act(actions.remove, { procedureId: procedure.id })} className="rounded-md px-2 py-1 text-xs text-danger hover:bg-red-50 dark:hover:bg-red-950">
                  Delete<span className="sr-only"> {procedure.name}</span>
                </button>
              </div>
            </>
          )
        }
      </ItemList>
    </div>
  );
}
