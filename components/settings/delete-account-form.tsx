"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { FieldError, FormAlert, inputClass, SettingsSection, useSettingsAction, type SettingsAction } from "./form-parts";

/** Deleting one's account: said what it means, asked again, proven by the password. */
export function DeleteAccountForm({ remove }: { remove: SettingsAction<void> }) {
  const router = useRouter();
  const [asked, setAsked] = useState(false);
  const { errors, formError, saving, run, clear } = useSettingsAction(remove);
  const passwordInput = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (await run({ password: new FormData(event.currentTarget).get("password") })) return router.replace("/sign-in");
    passwordInput.current?.focus();
  };

  return (
    <SettingsSection id="delete-account" title="Delete account">
      <p className="text-sm text-muted-strong">
        Your messages stay in their conversations, shown as written by “Deleted user”. Your name, email, password, API tokens and what agents remembered about you are
        removed, and you are signed out everywhere. This cannot be undone.
      </p>
      {!asked ? (
        <button
          type="button"
          onClick={() => setAsked(true)}
          className="rounded-lg border border-red-700 px-3 py-1.5 text-sm font-semibold text-red-700 hover:bg-red-50 dark:border-red-300 dark:text-red-300 dark:hover:bg-red-950"
        >
          Delete my account…
        </button>
      ) : (
        <form onSubmit={(event) => void submit(event)} className="space-y-3" noValidate>
          <div>
            <label className="block text-sm font-medium">
              Your password, to confirm
              <input
                ref={passwordInput}
                type="password"
                name="password"
                required
                autoComplete="current-password"
                autoFocus
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={errors.password ? "delete-password-error" : undefined}
                className={inputClass}
              />
            </label>
            <FieldError id="delete-password-error" message={errors.password} />
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="submit" disabled={saving} className="rounded-lg bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60">
              Delete my account for good
            </button>
            <button type="button" onClick={() => (setAsked(false), clear())} className="rounded-lg px-3 py-1.5 text-sm font-semibold text-link hover:underline">
              Keep my account
            </button>
          </div>
          <FormAlert message={formError} />
        </form>
      )}
    </SettingsSection>
  );
}
