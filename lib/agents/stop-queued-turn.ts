import type { Prisma } from "@/lib/db/open-database";
import type { Published } from "./append-message";
import { persistAgentReply } from "./persist-agent-reply";

/**
 * Stop on a turn that has not started (queued, or waiting for its provider): it ends at once with
 * the agent's "(stopped before answering)" reply, in the statement that finishes the dispatch, so
 * no worker can start it afterwards. Null when it is not waiting (running, or already ended).
 */
export async function stopQueuedTurn(prisma: Prisma, { dispatchId }: { dispatchId: string }): Promise<Published | null> {
  const dispatch = await prisma.dispatch.findUnique({
    where: { id: dispatchId },
    select: { status: true, conversationId: true, messageId: true, askMessageId: true, agent: { select: { id: true, handle: true, displayName: true, color: true, model: true } } },
  });
  if (dispatch?.status !== "pending") return null;
  const { agent } = dispatch;
  return persistAgentReply(prisma, {
    dispatchId,
    attempt: "queued",
    conversationId: dispatch.conversationId,
    agent: { id: agent.id, handle: agent.handle, displayName: agent.displayName, color: agent.color },
    content: "(stopped before answering)",
    metadata: {
      dispatchId,
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
