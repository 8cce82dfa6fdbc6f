"use client";

import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";
import type { SessionUser } from "@/lib/auth/session-user";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ProjectDirectory } from "@/lib/projects/project-directory";
import { Avatar, colourFor } from "@/components/ui/avatar";
import { useAgentsAtWork } from "@/hooks/use-agents-at-work";
import { useConversations } from "@/hooks/use-conversations";
import { useDirectory } from "@/hooks/use-directory";
import { SidebarLink } from "./sidebar-link";
import { NewChannelForm, PersonPicker, useOpenConversation, type OpenAction } from "./start-forms";
import { UserMenu } from "./user-menu";

export interface SidebarActions {
  createChannel: OpenAction;
  openDirectMessage: OpenAction;
  openAgentChat: OpenAction;
  signOut: (input: unknown) => Promise<unknown>;
}

export function Sidebar({
  user,
  initialConversations,
  initialDirectory,
  actions,
}: {
  user: SessionUser;
  initialConversations: ConversationSummary[];
  initialDirectory: ProjectDirectory | null;
  actions: SidebarActions;
}) {
  const conversations = useConversations(user.id, initialConversations);
  const { directory, refresh: refreshDirectory } = useDirectory(initialDirectory);
  const activityIn = useAgentsAtWork();
  const pathname = usePathname();
  const [adding, setAdding] = useState<"channel" | "dm" | null>(null);
  const dm = useOpenConversation(actions.openDirectMessage);
  const agentChat = useOpenConversation(actions.openAgentChat);
  const isActive = (id: string) => pathname === `/c/${id}`;

  const channels = conversations.filter((c) => c.type === "group").sort((a, b) => a.title.localeCompare(b.title));
  const directMessages = conversations.filter((c) => c.type === "dm");
  const agentChats = new Map(conversations.filter((c) => c.type === "agent_dm" && c.peer).map((c) => [c.peer!.id, c]));

  return (
    <nav aria-label="Conversations" className="flex w-64 shrink-0 flex-col border-r border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="px-4 py-3 text-lg font-bold tracking-tight">
        <span className="text-brand-600">●</span> {directory?.project.name ?? "Chorus"}
      </div>
      <div className="flex-1 space-y-4 overflow-y-auto px-2 pb-4">
        <Section title="Channels" addLabel="New channel" onAdd={directory ? () => setAdding("channel") : undefined}>
          {adding === "channel" && directory && <NewChannelForm projectId={directory.project.id} action={actions.createChannel} onDone={() => setAdding(null)} />}
          {channels.map((c) => (
            <SidebarLink key={c.id} conversation={c} active={isActive(c.id)} activity={activityIn(c.id)} icon={<span aria-hidden="true">#</span>} />
          ))}
        </Section>

        <Section
          title="Direct messages"
          addLabel="New direct message"
          onAdd={
            directory
              ? () => {
                  refreshDirectory();
                  setAdding("dm");
                }
              : undefined
          }
        >
          {adding === "dm" && directory && (
            <PersonPicker
              label="Start a direct message with"
              people={directory.members.filter((member) => member.id !== user.id).map((member) => ({ id: member.id, name: member.name, detail: `@${member.handle}` }))}
              onPick={(otherUserId) => void dm.open({ projectId: directory.project.id, otherUserId }).then(() => setAdding(null))}
              onDone={() => setAdding(null)}
              error={dm.error}
            />
          )}
          {directMessages.map((c) => (
            <SidebarLink key={c.id} conversation={c} active={isActive(c.id)} icon={<Avatar name={c.title} colour={colourFor(c.peer?.id ?? c.id)} size="xs" />} />
          ))}
        </Section>

        <Section title="Agents">
          {directory?.agents.map((agent) => {
            const chat = agentChats.get(agent.id);
            const icon = <Avatar name={agent.displayName} colour={agent.color} size="xs" />;
            if (chat) return <SidebarLink key={agent.id} conversation={chat} active={isActive(chat.id)} activity={activityIn(chat.id)} icon={icon} />;
            return (
              <button
                key={agent.id}
                type="button"
                title={agent.description}
                disabled={agentChat.busy}
                onClick={() => void agentChat.open({ projectId: directory.project.id, agentId: agent.id })}
                className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm text-slate-600 hover:bg-slate-200 dark:text-slate-400 dark:hover:bg-slate-800"
              >
                {icon}
                <span className="flex-1 truncate">Chat with {agent.displayName}</span>
              </button>
            );
          })}
          {agentChat.error && <p role="alert" className="px-2 text-xs text-red-600">{agentChat.error}</p>}
        </Section>
      </div>
      <UserMenu user={user} signOut={actions.signOut} />
    </nav>
  );
}

function Section({ title, addLabel, onAdd, children }: { title: string; addLabel?: string; onAdd?: () => void; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <div className="flex items-center px-2 pb-1">
        <h2 className="flex-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h2>
        {onAdd && addLabel && (
          <button type="button" aria-label={addLabel} title={addLabel} onClick={onAdd} className="rounded px-1.5 text-lg leading-none text-slate-500 hover:bg-slate-200 dark:hover:bg-slate-800">
            +
          </button>
        )}
      </div>
      {children}
    </section>
  );
}
