"use client";

import { useRouter } from "next/navigation";
import { useState, type ChangeEvent, type FormEvent } from "react";
import { requestJson } from "@/components/admin/api-request";
import { Avatar, colourFor } from "@/components/ui/avatar";
import { AVATAR_COLOURS, type PersonAvatar } from "@/lib/avatars/avatar-rules";
import { FieldError, FormAlert, SettingsSection, submitClass, useSettingsAction, type SettingsAction } from "./form-parts";

const AVATARS_URL = "/api/avatars";
const sendPicture: SettingsAction<PersonAvatar> = (form) => requestJson(AVATARS_URL, "POST", form);
const removePicture: SettingsAction<PersonAvatar> = () => requestJson(AVATARS_URL, "DELETE");
const secondaryClass = "rounded-lg border border-slate-400 px-3 py-1.5 text-sm font-semibold hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800";
const fileClass =
  "mt-1 block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-brand-600 file:px-3 file:py-1.5 file:font-semibold file:text-white hover:file:bg-brand-700";

/**
 * How the person looks beside their name: a picture (uploaded at once, cut to a square by the
 * server) or their initials on a colour they pick. The preview shows the colour being picked.
 */
export function AvatarSettings({ person, saveColor }: { person: { id: string; name: string } & PersonAvatar; saveColor: SettingsAction<PersonAvatar> }) {
  const router = useRouter();
  const [avatar, setAvatar] = useState<PersonAvatar>({ color: person.color, avatarUrl: person.avatarUrl });
  // "" is the colour derived from the person's id.
  const [chosen, setChosen] = useState(person.color ?? "");
  const [status, setStatus] = useState("");
  const upload = useSettingsAction(sendPicture);
  const removal = useSettingsAction(removePicture);
  const colour = useSettingsAction(saveColor);
  const busy = upload.saving || removal.saving;

  const show = (result: { data: PersonAvatar } | null, said: string) => {
    if (!result) return;
    setAvatar(result.data);
    setStatus(said);
    // The sidebar's menu shows it too.
    router.refresh();
  };
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    const form = new FormData();
    form.set("file", file);
    setStatus("");
    removal.clear();
    const result = await upload.run(form);
    // Choosing the same file again is a new attempt.
    input.value = "";
    show(result, "Picture saved.");
  };
  const remove = async () => {
    setStatus("");
    upload.clear();
    show(await removal.run(undefined), "Picture removed: your initials show instead.");
  };
  const saveColour = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStatus("");
    show(await colour.run({ avatarColor: chosen || null }), "Colour saved.");
  };

  const swatches = [{ value: "", name: "Automatic", shown: colourFor(person.id) }, ...AVATAR_COLOURS.map((swatch) => ({ ...swatch, shown: swatch.value }))];
  return (
    <SettingsSection id="avatar" title="Avatar">
      <div className="flex flex-wrap items-start gap-4">
        <Avatar name={person.name} colour={chosen || colourFor(person.id)} image={avatar.avatarUrl} size="lg" />
        <div className="min-w-0 flex-1 space-y-2">
          <label className="block text-sm font-medium">
            Upload a picture
            <input
              type="file"
              name="avatar"
              accept="image/png,image/jpeg,image/webp,image/gif"
              disabled={busy}
              onChange={(event) => void choose(event)}
              aria-invalid={upload.errors.avatar ? true : undefined}
              aria-describedby={upload.errors.avatar ? "avatar-error avatar-help" : "avatar-help"}
              className={fileClass}
            />
          </label>
          <p id="avatar-help" className="text-sm text-muted">
            PNG, JPEG, WebP or GIF, at most 5 MB. It is cut to a square from its middle.
          </p>
          <FieldError id="avatar-error" message={upload.errors.avatar} />
          {avatar.avatarUrl && (
            <button type="button" disabled={busy} onClick={() => void remove()} className={secondaryClass}>
              Remove picture
            </button>
          )}
        </div>
      </div>
      <FormAlert message={upload.formError ?? removal.formError} />
      <form onSubmit={(event) => void saveColour(event)} className="space-y-3" noValidate>
        <fieldset aria-describedby={colour.errors.avatarColor ? "avatar-color-error avatar-color-help" : "avatar-color-help"}>
          <legend className="text-sm font-medium">Colour behind your initials</legend>
          <p id="avatar-color-help" className="text-sm text-muted">
            Shown when you have no picture.
          </p>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
            {swatches.map((swatch) => (
              <label key={swatch.value} className="flex items-center gap-1.5 text-sm">
                <input type="radio" name="avatarColor" value={swatch.value} checked={chosen === swatch.value} onChange={() => setChosen(swatch.value)} className="accent-brand-600" />
                <span aria-hidden="true" className="h-5 w-5 rounded-full border border-slate-400 dark:border-slate-600" style={{ backgroundColor: swatch.shown }} />
                {swatch.name}
              </label>
            ))}
          </div>
        </fieldset>
        <FieldError id="avatar-color-error" message={colour.errors.avatarColor} />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" disabled={colour.saving} className={submitClass}>
            Save colour
          </button>
          <FormAlert message={colour.formError} />
        </div>
      </form>
      <p role="status" className="text-sm text-muted-strong">
        {status}
      </p>
    </SettingsSection>
  );
}
