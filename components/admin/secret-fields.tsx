"use client";

import { useId } from "react";

/**
 * A header (http) or environment variable (stdio) in the server form. One already set on the
 * server shows its name only: its value never leaves the server, so the admin keeps it, types a
 * replacement, or removes it.
 */
export type SecretRow = { key: number; name: string; value: string } & ({ saved: false } | { saved: true; change: "keep" | "replace" | "remove" });

export const savedSecretRows = (names: string[]): SecretRow[] => names.map((name, index) => ({ key: index, name, value: "", saved: true, change: "keep" }));

/**
 * What the API is sent: a name with its value sets it, with null removes it (PATCH), names left
 * out keep theirs; undefined when nothing changes. A new row left blank is ignored, a half-filled
 * one is sent so the API says what is missing.
 */
export function secretChanges(rows: SecretRow[]): Record<string, string | null> | undefined {
  const changes = rows.flatMap((row): [string, string | null][] => {
    if (!row.saved) return row.name.trim() || row.value ? [[row.name, row.value]] : [];
    return row.change === "keep" ? [] : [[row.name, row.change === "remove" ? null : row.value]];
  });
  return changes.length > 0 ? Object.fromEntries(changes) : undefined;
}

const inputClass = "mt-1 w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 font-mono text-sm dark:border-slate-600 dark:bg-slate-950";
const smallButton = "rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800";
const changeText = { keep: "set", replace: "gets a new value", remove: "is removed when you save" } as const;

/** The rows of headers or environment variables: the ones set (by name) and new ones (name and value). */
export function SecretFields({ what, hint, namePlaceholder, rows, onChange }: { what: "header" | "environment variable"; hint: string; namePlaceholder: string; rows: SecretRow[]; onChange: (rows: SecretRow[]) => void }) {
  const id = useId();
  const update = (key: number, change: Partial<SecretRow>) => onChange(rows.map((row) => (row.key === key ? ({ ...row, ...change } as SecretRow) : row)));
  const title = what === "header" ? "Headers" : "Environment";
  const newRows = rows.filter((row) => !row.saved);
  return (
    <fieldset className="space-y-2 sm:col-span-2">
      <legend className="text-sm font-medium">{title}</legend>
      <p className="text-xs text-muted">{hint}</p>
      <ul className="space-y-2">
        {rows.map((row) => {
          const rowId = `${id}-${row.key}`;
          if (row.saved) {
            return (
              <li key={row.key} aria-label={`${what} ${row.name}`} className="rounded-md border border-slate-200 p-2 text-sm dark:border-slate-800">
                <div className="flex flex-wrap items-center gap-2">
                  <code className="min-w-0 break-all font-semibold">{row.name}</code>
                  <span className={row.change === "remove" ? "text-danger" : "text-muted"}>{changeText[row.change]}</span>
                  <span className="ml-auto flex gap-2">
                    {row.change === "keep" ? (
                      <>
                        <button type="button" onClick={() => update(row.key, { change: "replace" })} className={smallButton}>
                          Replace<span className="sr-only"> {row.name}</span>
                        </button>
                        <button type="button" onClick={() => update(row.key, { change: "remove" })} className={smallButton}>
                          Remove<span className="sr-only"> {row.name}</span>
                        </button>
                      </>
                    ) : (
                      <button type="button" onClick={() => update(row.key, { change: "keep", value: "" })} className={smallButton}>
                        Keep current value<span className="sr-only"> of {row.name}</span>
                      </button>
                    )}
                  </span>
                </div>
                {row.change === "replace" && (
                  <label className="mt-2 block text-sm font-medium">
                    New value of {row.name}
                    <input value={row.value} onChange={(event) => update(row.key, { value: event.target.value })} autoComplete="off" spellCheck={false} className={inputClass} />
                  </label>
                )}
              </li>
            );
          }
          const label = `new ${what} ${newRows.indexOf(row) + 1}`;
          return (
            <li key={row.key} aria-label={label} className="grid gap-2 rounded-md border border-dashed border-slate-300 p-2 sm:grid-cols-[1fr_2fr_auto] dark:border-slate-700">
              <div>
                <label htmlFor={`${rowId}-name`} className="block text-sm font-medium">
                  Name<span className="sr-only"> of {label}</span>
                </label>
                <input id={`${rowId}-name`} value={row.name} onChange={(event) => update(row.key, { name: event.target.value })} placeholder={namePlaceholder} autoComplete="off" spellCheck={false} className={inputClass} />
              </div>
              <div>
                <label htmlFor={`${rowId}-value`} className="block text-sm font-medium">
                  Value<span className="sr-only"> of {label}</span>
                </label>
                <input id={`${rowId}-value`} value={row.value} onChange={(event) => update(row.key, { value: event.target.value })} autoComplete="off" spellCheck={false} className={inputClass} />
              </div>
              <div className="flex items-end">
                <button type="button" onClick={() => onChange(rows.filter((other) => other.key !== row.key))} className={smallButton}>
                  Remove<span className="sr-only"> {label}</span>
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <button type="button" onClick={() => onChange([...rows, { key: Math.max(0, ...rows.map((row) => row.key)) + 1, name: "", value: "", saved: false }])} className={smallButton}>
        Add {what}
      </button>
    </fieldset>
  );
}
