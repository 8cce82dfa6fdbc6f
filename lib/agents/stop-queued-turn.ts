import type { MessageDto } from "@/lib/conversations/message-dto";
import type { Prisma } from "@/lib/db/open-database";
import { endApproval } from "@/lib/tool-calls/end-approval";
import type { Published } from "./append-message";
import { persistAgentReply } from "./persist-agent-reply";

/** What a stop needs to know of a dispatch (agent:stop loads it once, to authorise and to stop). */
export const stoppableDispatch = {
  status: true,
  conversationId: true,
  messageId: true,
  askMessageId: true,
  message: { select: { authorUserId: true } },
  askMessage: { select: { authorUserId: true } },
  agent: { select: { id: true, handle: true, displayName: true, color: true, model: true } },
} as const;

interface StoppableDispatch {
  id: string;
  status: string;
  conversationId: string;
  messageId: string;
  askMessageId: string | null;
  agent: { id: string; handle: string; displayName: string; color: string; model: string };
}

/**
 * Stop on a turn that has not started (queued, or waiting for its provider): it ends at once with
 * the agent's "(stopped before answering)" reply, in the statement that finishes the dispatch
 * only while it is still pending, so no worker can start it afterwards. A tool call it was waiting
 * to have approved is denied by whoever stopped it (its step message changes with it). Null when
 * it is not waiting (running, or already ended).
 */
export async function stopQueuedTurn(prisma: Prisma, dispatch: StoppableDispatch, by: { id: string; name: string }): Promise<(Published & { steps: MessageDto[] }) | null> {
  if (dispatch.status !== "pending") return null;
  return prisma.$transaction(async (tx) => {
    const stopped = await persistStopped(tx, dispatch);
    if (!stopped) return null;
    const pending = await tx.toolApproval.findMany({ where: { dispatchId: dispatch.id, status: "pending" }, select: { id: true } });
    const steps: MessageDto[] = [];
    for (const approval of pending) {
      const step = await endApproval(tx, approval.id, { status: "denied", by, reason: "the turn was stopped" });
      if (step) steps.push(step);
    }
    return { ...stopped, steps };
  });
}

function persistStopped(prisma: Parameters<typeof persistAgentReply>[0], dispatch: StoppableDispatch) {
  const { agent } = dispatch;
  return persistAgentReply(prisma, {
    dispatchId: dispatch.id,
    attempt: "queued",
    conversationId: dispatch.conversationId,
    agent: { id: agent.id, handle: agent.handle, displayName: agent.displayName, color: agent.color },
    content: "(stopped before answering)",
    metadata: {
      dispatchId: dispatch.id,
      replyToMessageId: dispatch.askMessageId ?? dispatch.messageId,
      agentId: agent.id,
      agentDisplayName: agent.displayName,
      model: agent.model,
      isHandoffSummary: false,
      isToolResult: false,
      stopped: true,
      latencyMs: 0,
      timestamp: new Date().toISOString(),
    },
    outcome: "done",
    model: agent.model,
  });
}
