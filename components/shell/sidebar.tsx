"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";
import type { SessionUser } from "@/lib/auth/session-user";
import type { PersonAvatar } from "@/lib/avatars/avatar-rules";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ProjectDirectory } from "@/lib/projects/project-directory";
import { Avatar, colourFor } from "@/components/ui/avatar";
import { useAgentsAtWork } from "@/hooks/use-agents-at-work";
import { useConversations } from "@/hooks/use-conversations";
import { useDirectory } from "@/hooks/use-directory";
import { ArchivedSection } from "./archived-section";
import { InboxLink } from "@/components/inbox/inbox-link";
import { SearchLink } from "@/components/search/search-link";
import { SidebarLink } from "./sidebar-link";
import { NewChannelForm, PeopleMenu, useOpenConversation, type OpenAction } from "./start-forms";
import { useDesktopNotifications } from "./use-desktop-notifications";
import { useTabTitle } from "./use-tab-title";
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
  user: SessionUser & PersonAvatar;
  initialConversations: ConversationSummary[];
  initialDirectory: ProjectDirectory | null;
  actions: SidebarActions;
}) {
  const conversations = useConversations(user.id, initialConversations);
  const { directory, refresh: refreshDirectory } = useDirectory(initialDirectory);
  const activityIn = useAgentsAtWork();
  const pathname = usePathname();
  const [addingChannel, setAddingChannel] = useState(false);
  const dm = useOpenConversation(actions.openDirectMessage);
  const agentChat = useOpenConversation(actions.openAgentChat);
  const isActive = (id: string) => pathname === `/c/${id}`;
  useTabTitle(conversations, pathname);
  useDesktopNotifications(user.id, conversations);

  const channels = conversations.filter((c) => c.type === "group" && !c.archived).sort((a, b) => a.title.localeCompare(b.title));
  const directMessages = conversations.filter((c) => c.type === "dm");
  // A person may have several chats with one agent, most recent first, each under its own title.
  const agentChats = new Map<string, ConversationSummary[]>();
  for (const c of conversations) if (c.type === "agent_dm" && c.peer && !c.archived) agentChats.set(c.peer.id, [...(agentChats.get(c.peer.id) ?? []), c]);

  return (
    <nav aria-label="Conversations" className="flex h-full w-72 shrink-0 flex-col border-r border-slate-200 bg-slate-50 md:w-64 dark:border-slate-800 dark:bg-slate-900">
      <div className="px-4 py-3 text-lg font-bold tracking-tight">
        <span aria-hidden="true" className="text-link">
          ●
        </span>{" "}
        {directory?.project.name ?? "Chorus"}
      </div>
      <SearchLink />
      <InboxLink me={user.id} />
      <div className="flex-1 space-y-4 overflow-y-auto px-2 pb-4">
        <Section
          title="Channels"
          action={
            directory && (
              <button type="button" aria-label="New channel" title="New channel" onClick={() => setAddingChannel(true)} className="rounded px-1.5 text-lg leading-none text-muted hover:bg-slate-200 dark:hover:bg-slate-800">
                +
              </button>
            )
          }
        >
          {addingChannel && directory && <NewChannelForm projectId={directory.project.id} action={actions.createChannel} onDone={() => setAddingChannel(false)} />}
          {channels.map((c) => (
            <SidebarLink key={c.id} conversation={c} active={isActive(c.id)} activity={activityIn(c.id)} icon={<span aria-hidden="true">#</span>} />
          ))}
          <Link href="/channels" aria-current={pathname === "/channels" ? "page" : undefined} className="block rounded-md px-2 py-1.5 text-sm text-link hover:bg-slate-200 dark:hover:bg-slate-800">
            Browse channels
          </Link>
        </Section>

        <Section
          title="Direct messages"
          action={
            directory && (
              <PeopleMenu
                label="Start a direct message with"
                buttonLabel="New direct message"
                icon="+"
                people={directory.members.filter((member) => member.id !== user.id).map((member) => ({ id: member.id, name: member.name, detail: `@${member.handle}` }))}
                onOpen={refreshDirectory}
                onPick={(otherUserId) => dm.open({ projectId: directory.project.id, otherUserId })}
                error={dm.error}
              />
            )
          }
        >
          {directMessages.map((c) => (
            <SidebarLink key={c.id} conversation={c} active={isActive(c.id)} icon={<Avatar name={c.title} colour={c.peer?.color ?? colourFor(c.peer?.id ?? c.id)} image={c.peer?.avatarUrl} size="xs" />} />
          ))}
        </Section>

        <Section
          title="Agents"
          action={
            directory &&
            directory.agents.length > 0 && (
              <PeopleMenu
                label="Start a new chat with"
                buttonLabel="New agent chat"
                icon="+"
                people={directory.agents.map((agent) => ({ id: agent.id, name: agent.displayName, detail: `@${agent.handle}` }))}
                onOpen={refreshDirectory}
                onPick={(agentId) => agentChat.open({ projectId: directory.project.id, agentId, new: true })}
                error={agentChat.error}
              />
            )
          }
        >
          {directory?.agents.map((agent) => {
            const chats = agentChats.get(agent.id);
            const icon = <Avatar name={agent.displayName} colour={agent.color} size="xs" />;
            if (chats) return chats.map((chat) => <SidebarLink key={chat.id} conversation={chat} active={isActive(chat.id)} activity={activityIn(chat.id)} icon={icon} />);
            // Not chatted with yet: the same name as an open chat, and a hint of what a click does.
            return (
              <button
                key={agent.id}
                type="button"
                title={agent.description ? `Start a chat: ${agent.description}` : "Start a chat"}
                disabled={agentChat.busy}
                onClick={() => void agentChat.open({ projectId: directory.project.id, agentId: agent.id })}
                className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm text-muted hover:bg-slate-200 dark:hover:bg-slate-800"
              >
                {icon}
                {/* Named by its text, in one piece, starting with what a person sees (WCAG 2.5.3). */}
                <span aria-hidden="true" className="flex-1 truncate">
                  {agent.displayName}
                </span>
                <span className="sr-only">{agent.displayName}: start a chat</span>
              </button>
            );
          })}
          {agentChat.error && (
            <p role="alert" className="px-2 text-xs text-danger">
              {agentChat.error}
            </p>
          )}
        </Section>

        <ArchivedSection conversations={conversations.filter((c) => c.archived)} isActive={isActive} />
      </div>
      <UserMenu user={user} signOut={actions.signOut} />
    </nav>
  );
}

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <div className="flex items-center px-2 pb-1">
        <h2 className="flex-1 text-xs font-semibold uppercase tracking-wide text-muted">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}
