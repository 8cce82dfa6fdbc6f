import { randomUUID } from "node:crypto";
import type { Prisma, Transaction } from "@/lib/db/open-database";
import type { ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import { persistAgentReply, type AgentReply } from "@/lib/agents/persist-agent-reply";
import { refusalText, type HandoffDecision } from "./decide-handoff";
import type { HandoffMode } from "./handoff-modes";
import type { Published } from "./merge-fork-result";

export interface HandoffWrite {
  job: ClaimedDispatch;
  orchestrator: AgentReply["agent"];
  model: string;
  /** The orchestrator's turn as any reply records it (dispatch, model, usage…). */
  metadata: MessageMetadata;
  decision: HandoffDecision;
}

/**
 * Ends the orchestrator's turn with its handoff, in one transaction: the handoff message (its
 * content is the summary; the metadata names the specialist and the mode), and the turn that
 * follows: the specialist's in this conversation, or in a new fork holding copies of the last
 * messages, or after a refusal the orchestrator's own, without handoffs. Nothing is written when
 * the orchestrator's dispatch is no longer this attempt's.
 */
export async function persistHandoff(prisma: Prisma, { job, orchestrator, model, metadata, decision }: HandoffWrite): Promise<Published | null> {
  const askMessageId = job.askMessageId ?? job.messageId;
  const forkId = decision.kind === "handoff" && decision.mode === "fork" ? randomUUID() : undefined;
  const content = decision.kind === "handoff" ? decision.summary : refusalText(orchestrator.displayName, decision);
  const handoff: MessageMetadata["handoff"] =
    decision.kind === "handoff"
      ? { toAgentId: decision.target.agentId, toHandle: decision.target.handle, toDisplayName: decision.target.displayName, mode: decision.mode, reason: decision.reason, ...(forkId ? { forkId } : {}) }
      : undefined;
  return prisma.$transaction(async (tx) => {
    const persisted = await persistAgentReply(tx, {
      dispatchId: job.id,
      attempts: job.attempts,
      conversationId: job.conversationId,
      agent: orchestrator,
      content,
      metadata: { ...metadata, ...(decision.kind === "handoff" ? { isHandoffSummary: true, handoff } : { error: "handoff_refused" }) },
      outcome: "done",
      model,
    });
    if (!persisted) return null;
    const handoffMessageId = persisted.message.id;
    if (decision.kind === "refused") {
      await insertDispatch(tx, { after: job.id, messageId: handoffMessageId, agentId: orchestrator.id, conversationId: job.conversationId, askMessageId, mode: job.mode, historyLimit: job.historyLimit, depth: job.depth, allowHandoff: false });
    } else if (forkId) {
      const forkAsk = await createFork(tx, { forkId, parentId: job.conversationId, askMessageId, agentId: decision.target.agentId, title: `${decision.target.displayName} · fork`, copies: decision.target.forkHistory });
      await insertDispatch(tx, { after: job.id, messageId: forkAsk, agentId: decision.target.agentId, conversationId: forkId, askMessageId: null, mode: "fork", historyLimit: null, depth: 0, allowHandoff: true });
    } else {
      const historyLimit = decision.mode === "recent" ? decision.target.recentN : null;
      await insertDispatch(tx, { after: job.id, messageId: handoffMessageId, agentId: decision.target.agentId, conversationId: job.conversationId, askMessageId, mode: decision.mode, historyLimit, depth: job.depth + 1, allowHandoff: true });
    }
    return persisted;
  });
}

/**
 * The turn that follows `after`. It takes that turn's place in the queue (its createdAt): a
 * message posted meanwhile to the same agent is answered after this one, in order.
 */
async function insertDispatch(
  tx: Transaction,
  d: { after: string; messageId: string; agentId: string; conversationId: string; askMessageId: string | null; mode: HandoffMode | "direct"; historyLimit: number | null; depth: number; allowHandoff: boolean },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO "dispatches" ("id", "messageId", "agentId", "conversationId", "askMessageId", "mode", "historyLimit", "depth", "allowHandoff", "createdAt", "updatedAt")
    SELECT ${randomUUID()}, ${d.messageId}, ${d.agentId}, ${d.conversationId}, ${d.askMessageId}, ${d.mode}, ${d.historyLimit}, ${d.depth}, ${d.allowHandoff}, "createdAt", now()
    FROM "dispatches" WHERE "id" = ${d.after}`;
}

/**
 * A forked context: a conversation of its own under the parent, holding copies of the last
 * `copies` messages before the person's message (fewer when fewer exist) and of that message,
 * each marked with what it copies. Returns the id of the person's message's copy.
 */
async function createFork(
  tx: Transaction,
  { forkId, parentId, askMessageId, agentId, title, copies }: { forkId: string; parentId: string; askMessageId: string; agentId: string; title: string; copies: number },
): Promise<string> {
  await tx.$executeRaw`
    INSERT INTO "conversations" ("id", "projectId", "type", "key", "scope", "title", "parentConversationId", "rootConversationId", "forkedFromMessageId", "forkAgentId", "forkDepth", "forkStatus", "updatedAt")
    SELECT ${forkId}, "projectId", 'fork', 'per_room', ${`fork:${forkId}`}, ${title}, "id", COALESCE("rootConversationId", "id"), ${askMessageId}, ${agentId}, "forkDepth" + 1, 'running', now()
    FROM "conversations" WHERE "id" = ${parentId}`;
  const copied = await tx.$queryRaw<{ id: string; seq: number }[]>`
    WITH source AS (
      (SELECT m."id", m."seq", m."authorUserId", m."authorAgentId", m."role", m."content", m."metadata", m."tokenCount", m."tokenEncoding", m."createdAt"
       FROM "messages" m
       WHERE m."conversationId" = ${parentId} AND m."role" <> 'system' AND m."seq" < (SELECT "seq" FROM "messages" WHERE "id" = ${askMessageId})
       ORDER BY m."seq" DESC LIMIT ${copies})
      UNION ALL
      SELECT "id", "seq", "authorUserId", "authorAgentId", "role", "content", "metadata", "tokenCount", "tokenEncoding", "createdAt" FROM "messages" WHERE "id" = ${askMessageId}
    )
    INSERT INTO "messages" ("id", "conversationId", "seq", "authorUserId", "authorAgentId", "role", "content", "metadata", "tokenCount", "tokenEncoding", "createdAt")
    SELECT gen_random_uuid()::text, ${forkId}, row_number() OVER (ORDER BY "seq"), "authorUserId", "authorAgentId", "role", "content",
           "metadata" || jsonb_build_object('copiedFrom', jsonb_build_object('messageId', "id", 'seq', "seq")), "tokenCount", "tokenEncoding", "createdAt"
    FROM source
    RETURNING "id", "seq"`;
  const ask = copied.reduce((last, row) => (row.seq > last.seq ? row : last));
  await tx.$executeRaw`UPDATE "conversations" SET "lastSeq" = ${ask.seq} WHERE "id" = ${forkId}`;
  return ask.id;
}
