"use client";

import Link from "next/link";
import { useActionState, useEffect, useRef, type ReactNode } from "react";
import type { ErrorPayload } from "@/lib/errors/app-error";

export interface AuthFormState {
  error: ErrorPayload | null;
  /** What was typed (never the password), so a failed submit does not empty the form. */
  values: { name?: string; email?: string };
}

type AuthFormAction = (previous: AuthFormState, form: FormData) => Promise<AuthFormState>;

const copy = {
  "sign-in": { title: "Sign in", submit: "Sign in", other: "New to Chorus?", otherLink: "Create an account", otherHref: "/sign-up" },
  "sign-up": { title: "Create your account", submit: "Create account", other: "Already have an account?", otherLink: "Sign in", otherHref: "/sign-in" },
} as const;

const initialState: AuthFormState = { error: null, values: {} };

/** Fields the form shows their own errors under; any other refusal is the form's. */
const formFields = ["name", "email", "password"];

interface AuthFormProps {
  mode: "sign-in" | "sign-up";
  action: AuthFormAction;
  /** An invite link's secret, sent with the sign-up. */
  invite?: string;
  /** Said above the fields (what the invite gives). */
  notice?: ReactNode;
}

export function AuthForm({ mode, action, invite, notice }: AuthFormProps) {
  const [state, formAction, pending] = useActionState(action, initialState);
  const text = copy[mode];
  const fieldError = (name: string) => state.error?.fields?.[name];
  const formError = state.error && !formFields.some((field) => state.error?.fields?.[field]) ? state.error.message : null;
  const form = useRef<HTMLFormElement>(null);
  // An email already taken at sign-up: the way out is a link, not just words.
  const emailError: ReactNode =
    mode === "sign-up" && state.error?.code === "conflict" ? (
      <>
        An account with this email already exists.{" "}
        <Link href="/sign-in" className="font-semibold underline">
          Sign in instead.
        </Link>
      </>
    ) : (
      fieldError("email")
    );

  // After a refused submit, the keyboard lands on the first field to fix (or the form's error).
  useEffect(() => {
    if (!state.error) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]')?.focus();
  }, [state]);

  return (
    <form ref={form} action={formAction} noValidate className="space-y-4">
      <h1 className="text-xl font-semibold">{text.title}</h1>
      {notice}
      {invite && <input type="hidden" name="invite" value={invite} />}
      {mode === "sign-up" && <Field name="name" label="Name" autoComplete="name" defaultValue={state.values.name} error={fieldError("name")} />}
      <Field name="email" label="Email" type="email" autoComplete="email" defaultValue={state.values.email} error={emailError} />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
        error={fieldError("password")}
      />
      {formError && (
        <p role="alert" tabIndex={-1} className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
          {formError}
        </p>
      )}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-lg bg-brand-600 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? "Please wait…" : text.submit}
      </button>
      <p className="text-center text-sm text-muted">
        {text.other}{" "}
        <Link href={text.otherHref} className="font-semibold text-link hover:underline">
          {text.otherLink}
        </Link>
      </p>
    </form>
  );
}

interface FieldProps {
  name: string;
  label: string;
  error?: ReactNode;
  type?: string;
  autoComplete?: string;
  defaultValue?: string;
}

function Field({ name, label, error, ...input }: FieldProps) {
  const errorId = `${name}-error`;
  return (
    <label className="block">
      <span className="mb-1 block text-sm font-medium">{label}</span>
      <input
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className="w-full rounded-lg border border-slate-400 bg-white px-3 py-2 focus:border-brand-600 aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-950"
        {...input}
      />
      {error && (
        <span id={errorId} className="mt-1 block text-sm text-danger">
          {error}
        </span>
      )}
    </label>
  );
}
