"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { ConfirmDelete } from "@/components/admin/confirm-delete";
import { FormAlert, useSettingsAction } from "@/components/settings/form-parts";

type AgentAction<T> = (input: unknown) => Promise<ActionResult<T>>;

/** An agent row's Duplicate (the copy opens, disabled, for editing) and Delete (asked again). */
export function AgentCopyDelete({ agentId, name, duplicate, remove }: { agentId: string; name: string; duplicate: AgentAction<{ id: string }>; remove: AgentAction<void> }) {
  const router = useRouter();
  const copying = useSettingsAction(duplicate);
  const deleting = useSettingsAction(remove);
  const [confirming, setConfirming] = useState(false);

  const copy = async () => {
    const result = await copying.run({ agentId });
    if (result) router.push(`/admin/agents/${result.data.id}`);
  };
  const confirmDelete = async () => {
    setConfirming(false);
    if (await deleting.run({ agentId })) router.refresh();
  };

  return (
    <>
      <button type="button" onClick={() => void copy()} disabled={copying.saving} className="text-link hover:underline disabled:opacity-50">
        Duplicate<span className="sr-only"> {name}</span>
      </button>
      {confirming ? (
        <ConfirmDelete label={`Delete ${name}`} question={`Delete ${name}? Its messages stay, under its name.`} onConfirm={() => void confirmDelete()} onCancel={() => setConfirming(false)} />
      ) : (
        <button type="button" onClick={() => setConfirming(true)} disabled={deleting.saving} className="text-danger hover:underline disabled:opacity-50">
          Delete<span className="sr-only"> {name}</span>
        </button>
      )}
      <span className="basis-full text-right text-xs">
        <FormAlert message={copying.errors.form ?? deleting.errors.form} />
      </span>
    </>
  );
}
