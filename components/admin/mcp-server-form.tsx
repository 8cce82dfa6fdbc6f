"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { ErrorPayload } from "@/lib/errors/app-error";
import type { McpServerView } from "@/lib/mcp/mcp-server-view";
import { requestJson } from "./api-request";
import { FormSubmitRow } from "./form-submit-row";
import { SecretFields, savedSecretRows, secretChanges, type SecretRow } from "./secret-fields";

type Transport = McpServerView["transport"];

interface FormValues {
  name: string;
  transport: Transport;
  url: string;
  command: string;
  /** One argument per line. */
  args: string;
  headers: SecretRow[];
  env: SecretRow[];
}

const blank: FormValues = { name: "", transport: "http", url: "", command: "", args: "", headers: [], env: [] };
const FIELDS = ["name", "url", "command", "args"] as const;
type FieldName = (typeof FIELDS)[number];

const inputClass = "mt-1 w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-950";
const transportChoices: [Transport, string][] = [
  ["http", "HTTP: a Streamable HTTP endpoint"],
  ["stdio", "Command: a program Chorus runs (stdio)"],
];

const valuesOf = (server: McpServerView): FormValues => ({
  name: server.name,
  transport: server.transport,
  url: server.url ?? "",
  command: server.command ?? "",
  args: server.args.join("\n"),
  headers: savedSecretRows(server.headerNames),
  env: savedSecretRows(server.envNames),
});

/** Blank lines are not arguments (an empty argument is all but never meant). */
const argsOf = (text: string) => text.split(/\r?\n/).filter((line) => line !== "");

/** The body of POST /api/mcp-servers; only the chosen transport's fields go (the others are kept in the form). */
function newServerBody(values: FormValues) {
  return values.transport === "http"
    ? { transport: "http", name: values.name, url: values.url, headers: secretChanges(values.headers) }
    : { transport: "stdio", name: values.name, command: values.command, args: argsOf(values.args), env: secretChanges(values.env) };
}

/** The body of PATCH: only what the admin changed, so another admin's change to another field stays. */
function serverChanges(server: McpServerView, values: FormValues) {
  const changed = <T,>(value: T, saved: T) => (JSON.stringify(value) === JSON.stringify(saved) ? undefined : value);
  return {
    name: changed(values.name, server.name),
    ...(server.transport === "http"
      ? { url: changed(values.url, server.url ?? ""), headers: secretChanges(values.headers) }
      : { command: changed(values.command, server.command ?? ""), args: changed(argsOf(values.args), server.args), env: secretChanges(values.env) }),
  };
}

/**
 * The field a refusal concerns: the API names it first in its message ("url must start with
 * http://…"), or in `fields` (a name already taken).
 */
function invalidFields(error: ErrorPayload | null): Set<string> {
  if (!error) return new Set();
  if (error.fields) return new Set(Object.keys(error.fields));
  const first = /^\w+/.exec(error.message)?.[0];
  return new Set(FIELDS.filter((field) => field === first));
}

/** A labelled input with its hint, or the API's word on it; a refused one points at the refusal too. */
function Field({ id, label, hint, note, invalid, errorId, children }: { id: string; label: string; hint: string; note?: string; invalid: boolean; errorId: string; children: (props: { id: string; "aria-describedby": string; "aria-invalid": true | undefined }) => ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children({ id, "aria-describedby": invalid ? `${id}-note ${errorId}` : `${id}-note`, "aria-invalid": invalid || undefined })}
      <p id={`${id}-note`} className={`mt-1 text-xs ${note ? "text-danger" : "text-muted"}`}>
        {note ?? hint}
      </p>
    </div>
  );
}

/**
 * Adds an MCP server, or changes one. Secret values are never shown: the form lists the header
 * and environment names that are set, to keep, replace or remove. A refusal is shown beside the
 * buttons with the field it concerns marked, and nothing typed is lost.
 */
export function McpServerForm({ server, onDone }: { server?: McpServerView; onDone?: () => void }) {
  const router = useRouter();
  const id = useId();
  const [values, setValues] = useState(() => (server ? valuesOf(server) : blank));
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const invalid = invalidFields(error);
  const errorId = `${id}-error`;

  // A refusal takes the admin to the field it concerns.
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [error]);

  const set = (change: Partial<FormValues>) => setValues((current) => ({ ...current, ...change }));
  const field = (name: FieldName, label: string, hint: string, input: (props: { id: string; "aria-describedby": string; "aria-invalid": true | undefined }) => ReactNode) => (
    <Field id={`${id}-${name}`} label={label} hint={hint} note={error?.fields?.[name]} invalid={invalid.has(name)} errorId={errorId}>
      {input}
    </Field>
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setAdded(null);
    const result = server
      ? await requestJson<McpServerView>(`/api/mcp-servers/${server.id}`, "PATCH", serverChanges(server, values))
      : await requestJson<McpServerView>("/api/mcp-servers", "POST", newServerBody(values));
    setBusy(false);
    if ("error" in result) return setError(result.error);
    setError(null);
    if (!server) {
      setValues(blank);
      setAdded(`Added ${result.data.name}.`);
    }
    router.refresh();
    onDone?.();
  };

  return (
    <form ref={form} onSubmit={(event) => void submit(event)} aria-label={server ? `Edit ${server.name}` : "Add server"} className="grid gap-3 sm:grid-cols-2" noValidate>
      {field("name", "Name", "1–32 lowercase letters, digits, - or _, like notes or issue-tracker.", (props) => (
        <input {...props} value={values.name} onChange={(event) => set({ name: event.target.value })} autoComplete="off" className={inputClass} />
      ))}
      {server ? (
        <p className="text-sm">
          <span className="block font-medium">Transport</span>
          <span className="text-muted">{server.transport === "http" ? "HTTP" : "Command (stdio)"}: to change it, delete the server and add it again.</span>
        </p>
      ) : (
        <fieldset>
          <legend className="text-sm font-medium">Transport</legend>
          {transportChoices.map(([transport, label]) => (
            <label key={transport} className="mt-1 flex items-center gap-2 text-sm">
              <input type="radio" name={`${id}-transport`} checked={values.transport === transport} onChange={() => set({ transport })} className="h-4 w-4" />
              {label}
            </label>
          ))}
        </fieldset>
      )}
      {values.transport === "http" ? (
        <>
          <div className="sm:col-span-2">
            {field("url", "URL", "Its Streamable HTTP endpoint, like https://mcp.example.com/mcp.", (props) => (
              <input {...props} type="url" value={values.url} onChange={(event) => set({ url: event.target.value })} autoComplete="off" className={inputClass} />
            ))}
          </div>
          <SecretFields what="header" hint="Sent with every request, like authorization. Values are stored encrypted and never shown again." namePlaceholder="authorization" rows={values.headers} onChange={(headers) => set({ headers })} />
        </>
      ) : (
        <>
          {field("command", "Command", "The program to run on the Chorus server, like npx or /usr/local/bin/notes-mcp.", (props) => (
            <input {...props} value={values.command} onChange={(event) => set({ command: event.target.value })} autoComplete="off" spellCheck={false} className={`${inputClass} font-mono`} />
          ))}
          {field("args", "Arguments", "One per line, like -y then @acme/notes-mcp.", (props) => (
            <textarea {...props} rows={3} value={values.args} onChange={(event) => set({ args: event.target.value })} spellCheck={false} className={`${inputClass} font-mono`} />
          ))}
          <SecretFields what="environment variable" hint="Given to the program, like API_TOKEN. Values are stored encrypted and never shown again." namePlaceholder="API_TOKEN" rows={values.env} onChange={(env) => set({ env })} />
        </>
      )}
      <div className="sm:col-span-2">
        <FormSubmitRow error={error?.message ?? null} errorId={errorId} busy={busy} label={server ? "Save changes" : "Add server"} busyLabel="Connecting…" done={added}>
          {server && (
            <button type="button" onClick={onDone} className="rounded-lg px-3 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
              Cancel
            </button>
          )}
        </FormSubmitRow>
      </div>
    </form>
  );
}
