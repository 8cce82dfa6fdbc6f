"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { InviteRow, InviteStatus } from "@/lib/people/invites";
import { FormAlert, inputClass, SettingsSection, submitClass, useSettingsAction } from "@/components/settings/form-parts";
import { DATE_AND_TIME, useDateFormat } from "@/components/providers/preferences-provider";
import { CopyOnce } from "@/components/ui/copy-once";
import { ItemList } from "@/components/ui/item-list";

type CreateAction = (input: unknown) => Promise<ActionResult<{ invite: InviteRow; token: string }>>;
type RevokeAction = (input: unknown) => Promise<ActionResult<InviteRow>>;

function outcome(invite: InviteRow, formatDate: (iso: string) => string): string {
  const said: Record<InviteStatus, string> = {
    pending: `expires ${formatDate(invite.expiresAt)}`,
    used: `used by ${invite.usedBy ?? "someone"}`,
    expired: `expired ${formatDate(invite.expiresAt)}`,
    revoked: "withdrawn",
  };
  return said[invite.status];
}

/** Invite links: a role and an expiry; the link is shown once, then listed by what became of it. */
export function InviteLinks({ invites, create, revoke }: { invites: InviteRow[]; create: CreateAction; revoke: RevokeAction }) {
  const router = useRouter();
  const creating = useSettingsAction(create);
  const revoking = useSettingsAction(revoke);
  const [link, setLink] = useState<string | null>(null);
  const when = useDateFormat(DATE_AND_TIME);
  const formatDate = (iso: string) => when.format(new Date(iso));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await creating.run({ role: form.get("role"), expiresInDays: form.get("expiresInDays") });
    if (!result) return;
    setLink(`${window.location.origin}/sign-up?invite=${result.data.token}`);
    router.refresh();
  };

  const withdraw = async (invite: InviteRow) => {
    if (await revoking.run({ inviteId: invite.id })) router.refresh();
  };

  return (
    <SettingsSection id="invites" title="Invite links">
      <form onSubmit={(event) => void submit(event)} className="flex flex-wrap items-end gap-3" noValidate>
        <label className="text-sm font-medium">
          Role
          <select name="role" defaultValue="member" className={inputClass}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
            <option value="debug">Debug</option>
          </select>
        </label>
        <label className="text-sm font-medium">
          Expires after
          <select name="expiresInDays" defaultValue="7" className={inputClass}>
            <option value="1">1 day</option>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
          </select>
        </label>
        <button type="submit" disabled={creating.saving} className={submitClass}>
          Create invite link
        </button>
      </form>
      <FormAlert message={creating.errors.form ?? revoking.errors.form} />
      {link && <CopyOnce key={link} heading="Send this link to the person you invite: it will not be shown again, and it works once." label="New invite link" value={link} />}
      <ItemList items={invites} label="Invite links" empty="No invite links yet." itemLabel={(invite) => `Invite as ${invite.role} created ${formatDate(invite.createdAt)}`} itemClassName="flex flex-wrap items-center gap-x-4 gap-y-1">
        {(invite) => (
          <>
            <span className="min-w-0 flex-1">
              <span className="block font-semibold capitalize">{invite.role}</span>
              <span className="block text-xs text-muted-strong">
                by {invite.createdBy} · {outcome(invite, formatDate)}
              </span>
            </span>
            {invite.status === "pending" && (
              <button type="button" onClick={() => void withdraw(invite)} className="rounded-md px-2 py-1 font-medium text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950">
                Withdraw<span className="sr-only"> this invite</span>
              </button>
            )}
          </>
        )}
      </ItemList>
    </SettingsSection>
  );
}
