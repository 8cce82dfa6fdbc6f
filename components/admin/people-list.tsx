"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { PersonRow } from "@/lib/people/manage-people";
import { ConfirmDelete } from "@/components/admin/confirm-delete";
import { FormAlert, inputClass, SettingsSection, submitClass, useSettingsAction } from "@/components/settings/form-parts";
import { DATE_AND_TIME, useDateFormat } from "@/components/providers/preferences-provider";
import { ItemList } from "@/components/ui/item-list";

const deactivateClass = "rounded-md px-2 py-1 text-sm font-medium text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950";
const reactivateClass = "rounded-md border border-slate-400 px-2 py-1 text-sm font-medium hover:bg-slate-100 dark:border-slate-500 dark:hover:bg-slate-800";

type PersonAction = (input: unknown) => Promise<ActionResult<PersonRow>>;

interface PeopleListProps {
  people: PersonRow[];
  selfId: string;
  changeRole: PersonAction;
  deactivate: PersonAction;
  reactivate: PersonAction;
}

/** Everyone with an account: role, last seen, and deactivation. */
export function PeopleList({ people, selfId, ...actions }: PeopleListProps) {
  return (
    <SettingsSection id="people" title={`Accounts (${people.length})`}>
      <ItemList items={people} label="People" empty="No one has an account yet." itemLabel={(person) => person.name} itemClassName="space-y-2">
        {(person) => <Person person={person} self={person.id === selfId} {...actions} />}
      </ItemList>
    </SettingsSection>
  );
}

function Person({ person, self, changeRole, deactivate, reactivate }: { person: PersonRow; self: boolean } & Omit<PeopleListProps, "people" | "selfId">) {
  const router = useRouter();
  const roleChange = useSettingsAction(changeRole);
  const statusChange = useSettingsAction(person.deactivatedAt ? reactivate : deactivate);
  const [confirming, setConfirming] = useState(false);
  const when = useDateFormat(DATE_AND_TIME);
  const formatDate = (iso: string) => when.format(new Date(iso));
  const roleId = `role-${person.id}`;

  const saveRole = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (await roleChange.run({ userId: person.id, role: new FormData(event.currentTarget).get("role") })) router.refresh();
  };
  const changeStatus = async () => {
    setConfirming(false);
    if (await statusChange.run({ userId: person.id })) router.refresh();
  };

  return (
    <>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-semibold">
          {person.name}
          {self && " (you)"}
        </span>
        <span className="min-w-0 break-all text-muted-strong">{person.email}</span>
        {person.deactivatedAt && <span className="rounded bg-slate-200 px-1.5 text-xs font-semibold text-muted-strong dark:bg-slate-800">deactivated</span>}
      </div>
      <p className="text-xs text-muted-strong">
        {person.deactivatedAt ? `Deactivated ${formatDate(person.deactivatedAt)}` : person.lastSeenAt ? `Last seen ${formatDate(person.lastSeenAt)}` : "Not seen yet"} · joined{" "}
        {formatDate(person.joinedAt)}
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <form onSubmit={(event) => void saveRole(event)} className="flex items-end gap-2">
          <label htmlFor={roleId} className="sr-only">
            Role of {person.name}
          </label>
          <select id={roleId} name="role" defaultValue={person.role} key={person.role} className={`${inputClass} mt-0 w-auto`}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
            <option value="debug">Debug</option>
          </select>
          <button type="submit" disabled={roleChange.saving} className={submitClass}>
            Change role<span className="sr-only"> of {person.name}</span>
          </button>
        </form>
        {!self &&
          (confirming ? (
            <ConfirmDelete
              label={`Deactivate ${person.name}`}
              question="Sign them out everywhere and refuse their sign-in?"
              confirm="Deactivate"
              onConfirm={() => void changeStatus()}
              onCancel={() => setConfirming(false)}
            />
          ) : (
            <button
              type="button"
              disabled={statusChange.saving}
              onClick={() => (person.deactivatedAt ? void changeStatus() : setConfirming(true))}
              className={person.deactivatedAt ? reactivateClass : deactivateClass}
            >
              {person.deactivatedAt ? "Reactivate" : "Deactivate"}
              <span className="sr-only"> {person.name}</span>
            </button>
          ))}
      </div>
      <FormAlert message={roleChange.errors.form ?? statusChange.errors.form} />
    </>
  );
}
