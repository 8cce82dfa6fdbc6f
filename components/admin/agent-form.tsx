"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { AgentConfig } from "@/lib/agents/agent-settings";
import type { ErrorPayload } from "@/lib/errors/app-error";

type FieldName = keyof AgentConfig;

interface Field {
  name: FieldName;
  label: string;
  hint?: string;
  input: "text" | "textarea" | "number" | "color" | "checkbox" | { options: [value: string, label: string][] };
  step?: string;
}

const builtInProviders: [value: string, label: string][] = [
  ["offline", "Offline model (no key needed)"],
  ["openai", "Server's endpoint (OPENAI_BASE_URL)"],
];

/** A configured provider as the form offers it: its models are what the model field suggests. */
export interface ProviderChoice {
  id: string;
  name: string;
  models: string[];
}

const sections: { title: string; fields: Field[] }[] = [
  {
    title: "Profile",
    fields: [
      { name: "displayName", label: "Display name", input: "text" },
      { name: "handle", label: "Handle", hint: "People mention the agent as @handle.", input: "text" },
      { name: "color", label: "Avatar colour", input: "color" },
      { name: "description", label: "Description", input: "text" },
      { name: "systemPrompt", label: "System prompt", input: "textarea" },
    ],
  },
  {
    title: "Model",
    fields: [
      { name: "provider", label: "Provider", hint: "Add providers under Manage agents → Providers.", input: { options: builtInProviders } },
      { name: "model", label: "Model", hint: "e.g. gpt-4o-mini or llama3.1:8b", input: "text" },
      { name: "temperature", label: "Temperature", input: "number", step: "0.1" },
      { name: "maxOutputTokens", label: "Max output tokens", input: "number" },
      { name: "historyWindow", label: "History window", hint: "How many of the latest messages the agent sees.", input: "number" },
      { name: "acceptsImages", label: "Model accepts images", hint: "Images people attach are shown to the model; otherwise it is told their names only.", input: "checkbox" },
    ],
  },
  {
    title: "Usage",
    fields: [
      { name: "monthlyTokenCap", label: "Monthly token cap", hint: "Input and output tokens per calendar month (UTC). Empty: no cap. At the cap the agent says so instead of answering.", input: "number" },
      { name: "inputUsdPerMillion", label: "Input price (USD per 1M tokens)", hint: "For the usage page's costs. Empty: not priced.", input: "number", step: "0.01" },
      { name: "outputUsdPerMillion", label: "Output price (USD per 1M tokens)", hint: "Empty: not priced.", input: "number", step: "0.01" },
    ],
  },
  {
    title: "Context",
    fields: [
      { name: "maxWorkingMemoryTokens", label: "Working memory budget (tokens)", hint: "Must be larger than the system prompt.", input: "number" },
      {
        name: "pruningStrategy",
        label: "Pruning strategy",
        input: { options: [["fifo", "FIFO: drop the oldest"], ["summarize", "Summarize old turns"], ["sliding_window", "Sliding window"]] },
      },
      { name: "minHistoryMessages", label: "Minimum history messages", input: "number" },
      { name: "slidingWindowTurns", label: "Sliding window turns", input: "number" },
      { name: "summarizeFraction", label: "Summarize fraction", input: "number", step: "0.05" },
      { name: "summaryMaxTokens", label: "Summary max tokens", input: "number" },
      { name: "semanticTopK", label: "Semantic top K", input: "number" },
      {
        name: "knowledgeRetrieval",
        label: "Knowledge retrieval",
        hint: "Hybrid also finds exact words such as error codes and names.",
        input: { options: [["hybrid", "Hybrid: meaning and exact words"], ["vector", "Vector: meaning only"]] },
      },
      { name: "episodicTopK", label: "Episodic top K", input: "number" },
      { name: "procedureThreshold", label: "Procedure match threshold", hint: "Least similarity (0–1) for a procedure matched by meaning.", input: "number", step: "0.05" },
      { name: "maxAttachmentTokens", label: "Attachment text limit (tokens)", hint: "A file's text beyond this many tokens is cut.", input: "number" },
      { name: "maxToolSteps", label: "Tool steps per turn", hint: "Model calls that may use tools in one answer; then it answers without them.", input: "number" },
      { name: "maxToolResultTokens", label: "Tool result limit (tokens)", hint: "A tool's result beyond this many tokens is cut.", input: "number" },
    ],
  },
];

const fields = sections.flatMap((section) => section.fields);

const inputClass = "mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950";

const MODEL_OPTIONS_ID = "agent-model-options";

function FieldInput({ field, value, onChange, describedBy, invalid }: { field: Field; value: string; onChange: (value: string) => void; describedBy?: string; invalid: boolean }) {
  const common = { id: `agent-${field.name}`, name: field.name, value, "aria-describedby": describedBy, "aria-invalid": invalid || undefined, onChange: (event: { target: { value: string } }) => onChange(event.target.value) };
  if (field.name === "model") return <input {...common} type="text" list={MODEL_OPTIONS_ID} autoComplete="off" className={inputClass} />;
  if (field.input === "textarea") return <textarea {...common} rows={5} className={inputClass} />;
  if (field.input === "checkbox") {
    return <input id={common.id} name={common.name} aria-describedby={describedBy} aria-invalid={common["aria-invalid"]} type="checkbox" checked={value === "true"} onChange={(event) => onChange(String(event.target.checked))} className="mt-2 block h-4 w-4" />;
  }
  if (typeof field.input === "object") {
    return (
      <select {...common} className={inputClass}>
        {field.input.options.map(([option, label]) => (
          <option key={option} value={option}>
            {label}
          </option>
        ))}
      </select>
    );
  }
  return <input {...common} type={field.input} step={field.step} className={field.input === "color" ? "mt-1 h-9 w-16 rounded-md border border-slate-300" : inputClass} />;
}

/**
 * Creates or edits an agent. The server validates (zod) and answers with an error per field,
 * shown under the field it concerns; nothing typed is lost on a refusal.
 */
export function AgentForm({
  initial,
  save,
  agentId,
  submitLabel,
  openaiConfigured,
  providers,
}: {
  initial: AgentConfig;
  /** The project's configured providers, offered besides the built-in two. */
  providers: ProviderChoice[];
  /** Whether the server has OPENAI_API_KEY; without it every agent answers with the offline model. */
  openaiConfigured: boolean;
  save: (input: unknown) => Promise<ActionResult<unknown>>;
  agentId?: string;
  submitLabel: ReactNode;
}) {
  const router = useRouter();
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((field) => [field.name, String(initial[field.name] ?? "")])));
  const [errors, setErrors] = useState<ErrorPayload | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  // A refused save takes the person to the first field that needs fixing.
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await save({ ...values, ...(agentId ? { agentId } : {}) }).catch(() => ({ error: { code: "internal", message: "Could not reach Chorus. Try again." } as ErrorPayload }));
    setBusy(false);
    if ("error" in result) return setErrors(result.error);
    router.push("/admin/agents");
    router.refresh();
  };

  const chosenProvider = providers.find((provider) => `provider:${provider.id}` === values.provider);
  const withProviders = (field: Field): Field =>
    field.name === "provider" ? { ...field, input: { options: [...builtInProviders, ...providers.map((provider): [string, string] => [`provider:${provider.id}`, provider.name])] } } : field;

  return (
    <form ref={form} onSubmit={submit} className="space-y-6" aria-label="Agent settings" noValidate>
      {errors && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
          {errors.fields ? "Some settings need fixing: see the fields marked below." : errors.message}
        </p>
      )}
      {sections.map((section) => (
        <fieldset key={section.title} className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-semibold uppercase text-muted">{section.title}</legend>
          {section.fields.map(withProviders).map((field) => {
            const error = errors?.fields?.[field.name];
            const hintId = `${field.name}-hint`;
            const hint =
              field.name === "provider" && values.provider === "openai" && !openaiConfigured
                ? "OPENAI_API_KEY is not set on the server: this agent answers with the offline model until it is."
                : field.name === "model" && chosenProvider
                  ? chosenProvider.models.length > 0
                    ? `${chosenProvider.name} lists ${chosenProvider.models.length} model${chosenProvider.models.length === 1 ? "" : "s"}: type to choose one.`
                    : `${chosenProvider.name} listed no models: type the model's id.`
                  : field.hint;
            return (
              <div key={field.name} className={field.input === "textarea" ? "sm:col-span-2" : ""}>
                <label htmlFor={`agent-${field.name}`} className="block text-sm font-medium">
                  {field.label}
                </label>
                <FieldInput field={field} value={values[field.name] ?? ""} onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))} describedBy={error || hint ? hintId : undefined} invalid={Boolean(error)} />
                {error ? (
                  <p id={hintId} className="mt-1 text-xs text-danger">{error}</p>
                ) : (
                  hint && <p id={hintId} className="mt-1 text-xs text-muted">{hint}</p>
                )}
              </div>
            );
          })}
        </fieldset>
      ))}
      <datalist id={MODEL_OPTIONS_ID}>
        {chosenProvider?.models.map((model) => <option key={model} value={model} />)}
      </datalist>
      <div className="flex gap-3">
        <button type="submit" disabled={busy} className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50">
          {busy ? "Saving…" : submitLabel}
        </button>
        <button type="button" onClick={() => router.push("/admin/agents")} className="text-sm text-muted underline">
          Cancel
        </button>
      </div>
    </form>
  );
}
