import { useState, type ReactNode } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { UNREACHABLE } from "@/components/ui/unreachable";

export const inputClass = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-950";
export const submitClass = "rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60";

export type SettingsAction<T> = (input: unknown) => Promise<ActionResult<T>>;

/**
 * A settings form's action: whether it is under way, and its refusal by field ("form": the
 * message, said on its own as `formError` when no field says it).
 */
export function useSettingsAction<T>(action: SettingsAction<T>) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const run = async (input: unknown): Promise<{ data: T } | null> => {
    setSaving(true);
    const result = await action(input).catch(() => UNREACHABLE);
    setSaving(false);
    setErrors("error" in result ? { form: result.error.message, ...result.error.fields } : {});
    return "error" in result ? null : result;
  };
  const formError = Object.keys(errors).some((key) => key !== "form") ? undefined : errors.form;
  return { errors, formError, saving, run, clear: () => setErrors({}) };
}

/** A refusal no field says, announced. */
export function FormAlert({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm text-danger">
      {message}
    </p>
  );
}

/** A field's error under it, named by the field's aria-describedby. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-danger">
      {message}
    </p>
  );
}

/** A settings section named by its heading (a landmark screen readers list). */
export function SettingsSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
