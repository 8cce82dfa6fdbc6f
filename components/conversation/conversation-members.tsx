"use client";

import { useState, type FormEvent } from "react";
import type { ParticipantDto } from "@/lib/conversations/list-participants";
import { UserAvatar } from "@/components/ui/avatar";
import type { ConversationManager } from "./use-manage-conversation";

export interface AddablePerson {
  id: string;
  name: string;
  handle: string;
}

/** Who is in a channel, each removable by those who may; people of the project to add. */
export function ConversationMembers({
  participants,
  addablePeople,
  userId,
  canRemove,
  canAdd,
  manager,
}: {
  participants: ParticipantDto[];
  addablePeople: AddablePerson[];
  userId: string;
  canRemove: boolean;
  canAdd: boolean;
  manager: ConversationManager;
}) {
  return (
    <section aria-labelledby="members-title" className="space-y-2">
      <h3 id="members-title" className="font-semibold">
        Members ({participants.length})
      </h3>
      <ul aria-label="Members" className="divide-y divide-slate-200 dark:divide-slate-800">
        {participants.map((participant) => (
          <li key={participant.id} className="flex items-center gap-2 py-1.5 text-sm">
            <UserAvatar person={participant} size="xs" />
            <span className="min-w-0 flex-1 truncate">
              {participant.name}{" "}
              <span className="text-xs text-muted">
                @{participant.handle}
                {participant.kind === "agent" && " · agent"}
                {participant.id === userId && " · you"}
              </span>
            </span>
            {canRemove && participant.id !== userId && (
              <button
                type="button"
                disabled={manager.busy}
                onClick={() => void manager.remove(participant.id)}
                className="rounded-md px-2 py-1 text-xs font-semibold text-danger hover:bg-red-50 disabled:opacity-50 dark:hover:bg-red-950"
              >
                Remove<span className="sr-only"> {participant.name}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {/* Starts again from the first person once the list changes (the one added leaves it). */}
      {canAdd && addablePeople.length > 0 && <AddPersonForm key={addablePeople.map((person) => person.id).join()} people={addablePeople} manager={manager} />}
    </section>
  );
}

function AddPersonForm({ people, manager }: { people: AddablePerson[]; manager: ConversationManager }) {
  const [chosen, setChosen] = useState(people[0]?.id ?? "");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (chosen) await manager.addPerson(chosen);
  };
  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-wrap items-end gap-2">
      <label className="min-w-0 flex-1 text-sm font-medium">
        Add a person
        <select
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-950"
        >
          {people.map((person) => (
            <option key={person.id} value={person.id}>
              {person.name} (@{person.handle})
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={manager.busy} className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50">
        Add
      </button>
    </form>
  );
}
