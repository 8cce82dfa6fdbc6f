import { randomUUID } from "node:crypto";
import type { Prisma, Transaction } from "@/lib/db/open-database";
import type { ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import { persistAgentReply, type AgentReply, type FollowUpTurn, type PersistedReply } from "@/lib/agents/persist-agent-reply";
import { refusalText, type HandoffDecision } from "./decide-handoff";
import type { Published } from "@/lib/agents/append-message";

export interface HandoffWrite {
  job: ClaimedDispatch;
  orchestrator: AgentReply["agent"];
  model: string;
  /** The orchestrator's turn as any reply records it (dispatch, model, usage…). */
  metadata: MessageMetadata;
  decision: HandoffDecision;
}

/**
 * Ends the orchestrator's turn with its handoff, atomically: the handoff message (its
 * content is the summary; the metadata names the specialist and the mode), and the turn that
 * follows: the specialist's in this conversation, or in a new fork holding copies of the last
 * messages, or after a refusal the orchestrator's own, without handoffs. Nothing is written when
 * the orchestrator's dispatch is no longer this attempt's. Returns the message and the queued turn.
 */
export async function persistHandoff(prisma: Prisma, { job, orchestrator, model, metadata, decision }: HandoffWrite): Promise<{ handoff: Published; next: ClaimedDispatch; held: boolean } | null> {
  const askMessageId = job.askMessageId ?? job.messageId;
  const forkId = decision.kind === "handoff" && decision.mode === "fork" ? randomUUID() : undefined;
  const content = decision.kind === "handoff" ? decision.summary : refusalText(orchestrator.displayName, decision);
  const handoff: MessageMetadata["handoff"] =
    decision.kind === "handoff"
      ? { toAgentId: decision.target.agentId, toHandle: decision.target.handle, toDisplayName: decision.target.displayName, mode: decision.mode, reason: decision.reason, ...(forkId ? { forkId } : {}) }
      : undefined;
  const reply = {
    dispatchId: job.id,
    attempt: job.attempt,
    conversationId: job.conversationId,
    agent: orchestrator,
    content,
    metadata: { ...metadata, ...(decision.kind === "handoff" ? { isHandoffSummary: true, handoff } : { error: "handoff_refused" }) },
    outcome: "done" as const,
    model,
  };
  const next = randomUUID();
  if (decision.kind === "refused") {
    const followUp = { id: next, agentId: orchestrator.id, conversationId: job.conversationId, askMessageId, mode: job.mode, historyLimit: job.historyLimit, depth: job.depth, allowHandoff: false };
    return withNext(await persistAgentReply(prisma, { ...reply, followUp }), followUp);
  }
  const { target, mode } = decision;
  if (!forkId) {
    const followUp = { id: next, agentId: target.agentId, conversationId: job.conversationId, askMessageId, mode, historyLimit: mode === "recent" ? target.recentN : null, depth: job.depth + 1, allowHandoff: true };
    return withNext(await persistAgentReply(prisma, { ...reply, followUp }), followUp);
  }
  return prisma
    .$transaction(async (tx) => {
      const forkAsk = await createFork(tx, { forkId, parentId: job.conversationId, askMessageId, agentId: target.agentId, title: `${target.displayName} · fork`, copies: target.forkHistory });
      // depth counts the message's handoffs across fork levels, so maxDepth bounds the whole chain.
      const followUp = { id: next, messageId: forkAsk, agentId: target.agentId, conversationId: forkId, askMessageId: null, mode, historyLimit: null, depth: job.depth + 1, allowHandoff: true } satisfies FollowUpTurn;
      const persisted = await persistAgentReply(tx, { ...reply, followUp });
      // The dispatch was taken over: the fork must not exist either.
      if (!persisted) throw new DispatchTakenOver();
      return withNext(persisted, followUp);
    })
    .catch((error: unknown) => {
      if (error instanceof DispatchTakenOver) return null;
      throw error;
    });
}

class DispatchTakenOver extends Error {}

/** The handoff message and the turn it queued, as the worker runs it. */
function withNext(persisted: PersistedReply | null, turn: FollowUpTurn & { messageId?: string }) {
  if (!persisted) return null;
  const { followUp, ...handoff } = persisted;
  const next: ClaimedDispatch = { ...turn, messageId: turn.messageId ?? handoff.message.id, attempt: 1, failures: 0, regeneratesMessageId: null };
  return { handoff, next, held: followUp?.held === true };
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
         -- Tool steps belong to the turns that took them, not to the conversation a fork copies.
         AND m."role" <> 'tool' AND NOT (m."metadata" ? 'toolStep')
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
