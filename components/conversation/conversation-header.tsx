import type { Manager } from "@/lib/conversations/conversation-permissions";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ParticipantDto } from "@/lib/conversations/list-participants";
import type { ProjectDirectory } from "@/lib/projects/project-directory";
import { EndSessionButton, type EndSessionAction, type ReadSessionEndAction } from "@/components/memory/end-session-button";
import { MyMemories, type MemoryActions } from "@/components/memory/my-memories";
import { ForksMenu } from "@/components/handoffs/forks-menu";
import type { OpenAction } from "@/components/shell/start-forms";
import { AddAgentMenu, type AddAgentAction } from "./add-agent-menu";
import type { AddablePerson } from "./conversation-members";
import { ConversationSettings } from "./conversation-settings";
import { NewChatButton } from "./new-chat-button";
import { NotificationsControl, type SetNotificationsAction } from "./notifications-control";
import type { ManageActions } from "./use-manage-conversation";

export interface HeaderMemoryActions extends MemoryActions {
  endSession: EndSessionAction;
  readSessionEnd: ReadSessionEndAction;
}

/** Managing the conversation: its settings, and another chat with an agent. */
export interface HeaderManagement {
  actor: Manager;
  actions: ManageActions;
  addablePeople: AddablePerson[];
  startAgentChat: OpenAction;
  /** The person's own notifications here. */
  setNotifications: SetNotificationsAction;
}

const badge = "rounded bg-brand-100 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-brand-700 dark:bg-brand-700/30 dark:text-brand-100";

export function ConversationHeader({
  conversation,
  participants,
  addableAgents,
  addAgent,
  memory,
  management,
  onOpenFork,
}: {
  conversation: ConversationSummary;
  participants: ParticipantDto[];
  addableAgents: ProjectDirectory["agents"];
  addAgent: AddAgentAction;
  memory: HeaderMemoryActions;
  management: HeaderManagement;
  onOpenFork: (forkId: string) => void;
}) {
  const prefix = conversation.type === "group" ? "# " : "";
  const agents = participants.filter((participant) => participant.kind === "agent");
  const peer = conversation.peer;
  return (
    <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-200 px-3 py-2 sm:px-4 sm:py-3 dark:border-slate-800">
      <div className="min-w-0">
        <h1 id="conversation-title" tabIndex={-1} className="min-w-0 truncate text-lg font-semibold text-slate-900 outline-none dark:text-slate-100">
          {prefix}
          {conversation.title}
        </h1>
        {conversation.topic && (
          <p data-testid="conversation-topic" className="truncate text-sm text-muted">
            {conversation.topic}
          </p>
        )}
      </div>
      {/* An agent chat named after its first message still says who it is with. */}
      {conversation.type === "agent_dm" && peer && peer.name !== conversation.title && (
        <span data-testid="chat-agent" className="text-sm text-muted">
          with {peer.name}
        </span>
      )}
      {conversation.type === "agent_dm" && <span className={badge}>agent</span>}
      {conversation.isPrivate && <span className={badge}>private</span>}
      {conversation.archived && <span className={badge}>archived</span>}
      <p className="w-full min-w-0 truncate text-sm text-muted sm:ml-auto sm:w-auto" data-testid="participants-summary">
        {participants.length} participants
        {agents.length > 0 && ` · agents: ${agents.map((agent) => `@${agent.handle}${agent.disabled ? " (disabled)" : ""}`).join(", ")}`}
      </p>
      {/* The actions wrap as one row, never one button at a time. */}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {conversation.type === "agent_dm" && peer && <MyMemories agentId={peer.id} agentName={peer.name} actions={memory} />}
        {conversation.type === "agent_dm" && peer && <NewChatButton agentId={peer.id} agentName={peer.name} startAgentChat={management.startAgentChat} />}
        {conversation.type !== "dm" && <ForksMenu conversationId={conversation.id} onOpenFork={onOpenFork} />}
        {conversation.type !== "dm" && <EndSessionButton conversationId={conversation.id} endSession={memory.endSession} readSessionEnd={memory.readSessionEnd} />}
        {conversation.type === "group" && !conversation.archived && <AddAgentMenu conversationId={conversation.id} agents={addableAgents} addAgent={addAgent} />}
        {conversation.type !== "dm" && (
          <ConversationSettings conversation={conversation} participants={participants} addablePeople={management.addablePeople} actor={management.actor} actions={management.actions} />
        )}
        <NotificationsControl conversation={conversation} save={management.setNotifications} />
      </div>
    </header>
  );
}
