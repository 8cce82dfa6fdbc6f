"use client";

import { useState, type FormEvent } from "react";
import { FieldError, FormAlert, inputClass, SettingsSection, submitClass, useSettingsAction, type SettingsAction } from "./form-parts";

const fields = [
  ["currentPassword", "Current password", "current-password"],
  ["newPassword", "New password", "new-password"],
] as const;

/** A new password, proven by the current one; optionally ends every other session at once. */
export function PasswordForm({ change }: { change: SettingsAction<{ signedOutOthers: boolean }> }) {
  const { errors, formError, saving, run } = useSettingsAction(change);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setDone(null);
    const result = await run({ currentPassword: form.get("currentPassword"), newPassword: form.get("newPassword"), signOutOthers: form.get("signOutOthers") === "on" });
    if (!result) return;
    formElement.reset();
    setDone(result.data.signedOutOthers ? "Password changed. Your other sessions are signed out." : "Password changed.");
  };

  return (
    <SettingsSection id="password" title="Password">
      <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
        {fields.map(([name, label, autoComplete]) => (
          <div key={name}>
            <label className="block text-sm font-medium">
              {label}
              <input
                type="password"
                name={name}
                required
                autoComplete={autoComplete}
                aria-invalid={errors[name] ? true : undefined}
                aria-describedby={errors[name] ? `${name}-error` : undefined}
                className={inputClass}
              />
            </label>
            <FieldError id={`${name}-error`} message={errors[name]} />
          </div>
        ))}
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="signOutOthers" className="accent-brand-600" />
          Sign out my other sessions
        </label>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" disabled={saving} className={submitClass}>
            Change password
          </button>
          <p role="status" className="text-sm text-muted-strong">
            {done ?? ""}
          </p>
        </div>
        <FormAlert message={formError} />
      </form>
    </SettingsSection>
  );
}
