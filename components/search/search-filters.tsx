"use client";

import { useId, type ReactNode } from "react";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ProjectDirectory } from "@/lib/projects/project-directory";
import type { SearchForm } from "./search-form";

const field = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100";

const conversationGroups: { label: string; type: ConversationSummary["type"]; name: (title: string) => string }[] = [
  { label: "Channels", type: "group", name: (title) => `#${title}` },
  { label: "Direct messages", type: "dm", name: (title) => title },
  { label: "Agent chats", type: "agent_dm", name: (title) => title },
];

/** Narrow a search: one conversation, one person or agent, a range of days. */
export function SearchFilters({
  form,
  onChange,
  conversations,
  directory,
}: {
  form: SearchForm;
  onChange: (change: Partial<SearchForm>) => void;
  conversations: ConversationSummary[];
  directory: ProjectDirectory | null | undefined;
}) {
  const id = useId();
  return (
    <fieldset className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      <legend className="sr-only">Filters</legend>
      <Field id={`${id}-conversation`} label="Conversation">
        <select id={`${id}-conversation`} value={form.conversationId} onChange={(event) => onChange({ conversationId: event.target.value })} className={field}>
          <option value="">All conversations</option>
          {conversationGroups.map(({ label, type, name }) => {
            const inGroup = conversations.filter((conversation) => conversation.type === type);
            return (
              inGroup.length > 0 && (
                <optgroup key={type} label={label}>
                  {inGroup.map((conversation) => (
                    <option key={conversation.id} value={conversation.id}>
                      {name(conversation.title)}
                    </option>
                  ))}
                </optgroup>
              )
            );
          })}
        </select>
      </Field>
      <Field id={`${id}-author`} label="Written by">
        <select id={`${id}-author`} value={form.authorId} onChange={(event) => onChange({ authorId: event.target.value })} className={field}>
          <option value="">Anyone</option>
          <optgroup label="People">
            {directory?.members.map((member) => (
              <option key={member.id} value={member.id}>
                {member.name} (@{member.handle})
              </option>
            ))}
          </optgroup>
          <optgroup label="Agents">
            {directory?.agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.displayName} (@{agent.handle})
              </option>
            ))}
          </optgroup>
        </select>
      </Field>
      <Field id={`${id}-from`} label="On or after">
        <input id={`${id}-from`} type="date" value={form.from} max={form.to || undefined} onChange={(event) => onChange({ from: event.target.value })} className={field} />
      </Field>
      <Field id={`${id}-to`} label="On or before">
        <input id={`${id}-to`} type="date" value={form.to} min={form.from || undefined} onChange={(event) => onChange({ to: event.target.value })} className={field} />
      </Field>
    </fieldset>
  );
}

/** A label beside its control, not around it: a select's name is then its label alone, not the label and the chosen option. */
function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="text-sm font-medium">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}
