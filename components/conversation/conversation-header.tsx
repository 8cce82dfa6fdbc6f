import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ParticipantDto } from "@/lib/conversations/list-participants";
import type { ProjectDirectory } from "@/lib/projects/project-directory";
import { EndSessionButton, type EndSessionAction, type ReadSessionEndAction } from "@/components/memory/end-session-button";
import { MyMemories, type MemoryActions } from "@/components/memory/my-memories";
import { ForksMenu } from "@/components/handoffs/forks-menu";
import { AddAgentMenu, type AddAgentAction } from "./add-agent-menu";

export interface HeaderMemoryActions extends MemoryActions {
  endSession: EndSessionAction;
  readSessionEnd: ReadSessionEndAction;
}

export function ConversationHeader({
  conversation,
  participants,
  addableAgents,
  addAgent,
  memory,
  onOpenFork,
}: {
  conversation: ConversationSummary;
  participants: ParticipantDto[];
  addableAgents: ProjectDirectory["agents"];
  addAgent: AddAgentAction;
  memory: HeaderMemoryActions;
  onOpenFork: (forkId: string) => void;
}) {
  const prefix = conversation.type === "group" ? "# " : "";
  const agents = participants.filter((participant) => participant.kind === "agent");
  return (
    <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-200 px-3 py-2 sm:px-4 sm:py-3 dark:border-slate-800">
      <h1 id="conversation-title" tabIndex={-1} className="min-w-0 truncate text-lg font-semibold text-slate-900 outline-none dark:text-slate-100">
        {prefix}
        {conversation.title}
      </h1>
      {conversation.type === "agent_dm" && <span className="rounded bg-brand-100 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-brand-700 dark:bg-brand-700/30 dark:text-brand-100">agent</span>}
      <p className="w-full min-w-0 truncate text-sm text-muted sm:ml-auto sm:w-auto" data-testid="participants-summary">
        {participants.length} participants
        {agents.length > 0 && ` · agents: ${agents.map((agent) => `@${agent.handle}${agent.disabled ? " (disabled)" : ""}`).join(", ")}`}
      </p>
      {conversation.type !== "dm" && (
        // The actions wrap as one row, never one button at a time.
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          {conversation.type === "agent_dm" && conversation.peer && <MyMemories agentId={conversation.peer.id} agentName={conversation.peer.name} actions={memory} />}
          <ForksMenu conversationId={conversation.id} onOpenFork={onOpenFork} />
          <EndSessionButton conversationId={conversation.id} endSession={memory.endSession} readSessionEnd={memory.readSessionEnd} />
          {conversation.type === "group" && <AddAgentMenu conversationId={conversation.id} agents={addableAgents} addAgent={addAgent} />}
        </div>
      )}
    </header>
  );
}
