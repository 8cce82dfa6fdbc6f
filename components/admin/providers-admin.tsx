"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { ProviderView } from "@/lib/providers/manage-providers";
import { PROVIDER_KINDS, PROVIDER_KIND_IDS, type ProviderKind } from "@/lib/providers/provider-kinds";
import { ConfirmDelete } from "@/components/admin/confirm-delete";
import { DATE_AND_TIME, useDateFormat } from "@/components/providers/preferences-provider";
import { FieldError, FormAlert, inputClass, SettingsSection, submitClass, useSettingsAction } from "@/components/settings/form-parts";
import { ItemList } from "@/components/ui/item-list";

type ProviderAction<T> = (input: unknown) => Promise<ActionResult<T>>;

interface ProvidersAdminProps {
  providers: ProviderView[];
  save: ProviderAction<ProviderView>;
  test: ProviderAction<ProviderView>;
  remove: ProviderAction<void>;
}

/** The configured providers, each testable, editable and deletable, and the form that adds or edits one. */
export function ProvidersAdmin({ providers, save, test, remove }: ProvidersAdminProps) {
  const [editing, setEditing] = useState<ProviderView | null>(null);
  // A new form after each save: fresh fields, and the kind's own address again.
  const [formRound, setFormRound] = useState(0);
  const [saved, setSaved] = useState<string | null>(null);
  const done = (message: string | null) => {
    setEditing(null);
    setFormRound((round) => round + 1);
    setSaved(message);
  };
  return (
    <>
      <SettingsSection id="providers" title="Configured providers">
        <ItemList items={providers} label="Providers" empty="No providers yet: agents use the offline model or the server's endpoint." itemLabel={(provider) => `Provider ${provider.name}`} itemClassName="space-y-2">
          {(provider) => <ProviderItem provider={provider} test={test} remove={remove} onEdit={() => setEditing(provider)} />}
        </ItemList>
      </SettingsSection>
      <ProviderForm key={`${editing?.id ?? "new"}-${formRound}`} editing={editing} save={save} onDone={done} />
      {saved && (
        <p role="status" className="text-sm">
          {saved}
        </p>
      )}
    </>
  );
}

function ProviderItem({ provider, test, remove, onEdit }: { provider: ProviderView; test: ProvidersAdminProps["test"]; remove: ProvidersAdminProps["remove"]; onEdit: () => void }) {
  const router = useRouter();
  const testing = useSettingsAction(test);
  const deleting = useSettingsAction(remove);
  const [confirming, setConfirming] = useState(false);
  const [tested, setTested] = useState<string | null>(null);
  const when = useDateFormat(DATE_AND_TIME);

  const runTest = async () => {
    setTested(null);
    const result = await testing.run({ providerId: provider.id });
    if (!result) return;
    setTested(`Connected: ${result.data.models.length} model${result.data.models.length === 1 ? "" : "s"} listed.`);
    router.refresh();
  };
  const confirmDelete = async () => {
    setConfirming(false);
    if (await deleting.run({ providerId: provider.id })) router.refresh();
  };

  return (
    <>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-semibold">{provider.name}</span>
        <span className="text-xs text-muted-strong">{PROVIDER_KINDS[provider.kind].label}</span>
      </div>
      <p className="break-all text-xs text-muted-strong">
        {provider.baseUrl}
        {provider.apiVersion ? ` · api-version ${provider.apiVersion}` : ""} · {provider.hasKey ? "key stored" : "no key"}
      </p>
      <p className="text-xs text-muted-strong">
        {provider.models.length} model{provider.models.length === 1 ? "" : "s"}
        {provider.models.length > 0 ? `: ${provider.models.slice(0, 6).join(", ")}${provider.models.length > 6 ? "…" : ""}` : ""}
        {provider.checkedAt ? ` · tested ${when.format(new Date(provider.checkedAt))}` : ""}
        {provider.agents.length > 0 ? ` · used by ${provider.agents.join(", ")}` : " · no agent uses it"}
      </p>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <button type="button" onClick={() => void runTest()} disabled={testing.saving} className="text-link hover:underline disabled:opacity-50">
          {testing.saving ? "Testing…" : "Test connection"}
          <span className="sr-only"> of {provider.name}</span>
        </button>
        <button type="button" onClick={onEdit} className="text-link hover:underline">
          Edit<span className="sr-only"> {provider.name}</span>
        </button>
        {confirming ? (
          <ConfirmDelete label={`Delete ${provider.name}`} question={`Delete ${provider.name}?`} onConfirm={() => void confirmDelete()} onCancel={() => setConfirming(false)} />
        ) : (
          <button type="button" onClick={() => setConfirming(true)} className="text-danger hover:underline">
            Delete<span className="sr-only"> {provider.name}</span>
          </button>
        )}
      </div>
      {tested && (
        <p role="status" className="text-sm">
          {tested}
        </p>
      )}
      <FormAlert message={testing.errors.form ?? deleting.errors.form} />
    </>
  );
}

function ProviderForm({ editing, save, onDone }: { editing: ProviderView | null; save: ProvidersAdminProps["save"]; onDone: (saved: string | null) => void }) {
  const router = useRouter();
  const saving = useSettingsAction(save);
  const [kind, setKind] = useState<ProviderKind>(editing?.kind ?? "openai");
  const [baseUrl, setBaseUrl] = useState(editing?.baseUrl ?? PROVIDER_KINDS.openai.baseUrl);
  const field = (name: string) => ({ "aria-invalid": saving.errors[name] ? true : undefined, "aria-describedby": saving.errors[name] ? `provider-${name}-error` : undefined });

  const chooseKind = (next: ProviderKind) => {
    // The address follows the kind until the admin typed one of their own.
    if (baseUrl === "" || baseUrl === PROVIDER_KINDS[kind].baseUrl) setBaseUrl(PROVIDER_KINDS[next].baseUrl);
    setKind(next);
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await saving.run({ ...Object.fromEntries(new FormData(event.currentTarget)), ...(editing ? { providerId: editing.id } : {}) });
    if (!result) return;
    router.refresh();
    onDone(`Saved ${result.data.name}: ${result.data.models.length} model${result.data.models.length === 1 ? "" : "s"} listed.`);
  };

  return (
    <SettingsSection id="provider-form" title={editing ? `Edit ${editing.name}` : "Add a provider"}>
      <form onSubmit={(event) => void submit(event)} className="grid gap-3 sm:grid-cols-2" noValidate>
        <label className="text-sm font-medium">
          Name
          <input name="name" defaultValue={editing?.name} maxLength={60} className={inputClass} {...field("name")} />
          <FieldError id="provider-name-error" message={saving.errors.name} />
        </label>
        <label className="text-sm font-medium">
          Kind
          <select name="kind" value={kind} onChange={(event) => chooseKind(event.target.value as ProviderKind)} className={inputClass}>
            {PROVIDER_KIND_IDS.map((id) => (
              <option key={id} value={id}>
                {PROVIDER_KINDS[id].label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium sm:col-span-2">
          Base URL
          <input name="baseUrl" type="url" value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} className={inputClass} {...field("baseUrl")} />
          <FieldError id="provider-baseUrl-error" message={saving.errors.baseUrl} />
        </label>
        <label className="text-sm font-medium">
          API key
          <input name="apiKey" type="password" autoComplete="off" placeholder={editing?.hasKey ? "Stored: leave empty to keep it" : kind === "ollama" || kind === "vllm" ? "Often not needed" : ""} className={inputClass} {...field("apiKey")} />
          <FieldError id="provider-apiKey-error" message={saving.errors.apiKey} />
        </label>
        {kind === "azure" && (
          <label className="text-sm font-medium">
            API version
            <input name="apiVersion" defaultValue={editing?.apiVersion ?? "2024-10-21"} className={inputClass} {...field("apiVersion")} />
            <FieldError id="provider-apiVersion-error" message={saving.errors.apiVersion} />
          </label>
        )}
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <button type="submit" disabled={saving.saving} className={submitClass}>
            {saving.saving ? "Testing…" : editing ? "Test and save" : "Test and add"}
          </button>
          {editing && (
            <button type="button" onClick={() => onDone(null)} className="text-sm text-muted-strong underline">
              Cancel
            </button>
          )}
        </div>
      </form>
      <FormAlert message={saving.formError} />
    </SettingsSection>
  );
}
