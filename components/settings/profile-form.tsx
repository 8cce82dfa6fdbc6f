"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { Profile } from "@/lib/account/update-profile";
import { themeClass, type Theme, type TimeFormat } from "@/lib/account/preferences";
import { FieldError, FormAlert, inputClass, SettingsSection, submitClass, useSettingsAction, type SettingsAction } from "./form-parts";

const themes: [Theme, string][] = [
  ["system", "As my system"],
  ["light", "Light"],
  ["dark", "Dark"],
];
const timeFormats: [TimeFormat, string][] = [
  ["auto", "As my language does"],
  ["12h", "12-hour (2:30 PM)"],
  ["24h", "24-hour (14:30)"],
];

/** Name, theme and time format, saved together; the theme applies at once. */
export function ProfileForm({ profile, save }: { profile: Profile; save: SettingsAction<Profile> }) {
  const router = useRouter();
  const { errors, formError, saving, run } = useSettingsAction(save);
  const [saved, setSaved] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSaved(false);
    const result = await run({ name: form.get("name"), theme: form.get("theme"), timeFormat: form.get("timeFormat") });
    if (!result) return;
    setSaved(true);
    document.documentElement.className = themeClass(result.data.theme) ?? "";
    // The sidebar's name and every time shown come from the server's render.
    router.refresh();
  };

  return (
    <SettingsSection id="profile" title="Profile">
      <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
        <label className="block text-sm font-medium">
          Name
          <input
            name="name"
            defaultValue={profile.name}
            maxLength={60}
            required
            autoComplete="name"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "profile-name-error" : undefined}
            className={inputClass}
          />
        </label>
        <FieldError id="profile-name-error" message={errors.name} />
        <Choices legend="Theme" name="theme" choices={themes} chosen={profile.theme} />
        <Choices legend="Times" name="timeFormat" choices={timeFormats} chosen={profile.timeFormat} />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" disabled={saving} className={submitClass}>
            Save profile
          </button>
          <p role="status" className="text-sm text-muted-strong">
            {saved ? "Saved." : ""}
          </p>
        </div>
        <FormAlert message={formError} />
      </form>
    </SettingsSection>
  );
}

function Choices<Value extends string>({ legend, name, choices, chosen }: { legend: string; name: string; choices: [Value, string][]; chosen: Value }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {choices.map(([value, label]) => (
          <label key={value} className="flex items-center gap-1.5 text-sm">
            <input type="radio" name={name} value={value} defaultChecked={value === chosen} className="accent-brand-600" />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
