import { randomUUID } from "node:crypto";
import type { Transaction } from "@/lib/db/open-database";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import { countTokens, encodingFor } from "@/lib/llm/token-counter";

export interface AgentReply {
  dispatchId: string;
  attempts: number;
  conversationId: string;
  agent: { id: string; handle: string; displayName: string; color: string };
  content: string;
  metadata: MessageMetadata;
  /** failed: the reply explains why the agent could not answer. */
  outcome: "done" | "failed";
  model: string;
}

/**
 * The agent's reply, the end of its dispatch and its snapshot's reply id, in one statement, and only if this attempt
 * still owns the dispatch: a worker whose lease was taken over can never post a second reply.
 * Returns null when the dispatch was no longer ours.
 */
export async function persistAgentReply(prisma: Transaction, reply: AgentReply): Promise<{ message: MessageDto; participantUserIds: string[] } | null> {
  const id = randomUUID();
  const now = new Date();
  const [row] = await prisma.$queryRaw<{ seq: number | null; participantUserIds: string[] }[]>`
    WITH finished AS (
      UPDATE "dispatches" SET "status" = ${reply.outcome}::"DispatchStatus", "replyMessageId" = ${id}, "leaseUntil" = NULL,
        "lastError" = ${reply.metadata.error ?? null}, "updatedAt" = now()
      WHERE "id" = ${reply.dispatchId} AND "status" = 'running' AND "attempts" = ${reply.attempts}
      RETURNING "id"
    ), allocated AS (
      UPDATE "conversations" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = now()
      WHERE "id" = ${reply.conversationId} AND EXISTS (SELECT 1 FROM finished)
      RETURNING "lastSeq"
    ), inserted AS (
      INSERT INTO "messages" ("id", "conversationId", "seq", "authorAgentId", "role", "content", "metadata", "tokenCount", "tokenEncoding", "createdAt")
      SELECT ${id}, ${reply.conversationId}, "lastSeq", ${reply.agent.id}, 'assistant', ${reply.content}, ${JSON.stringify(reply.metadata)}::jsonb,
        ${countTokens(reply.content, reply.model)}, ${encodingFor(reply.model)}, ${now}
      FROM allocated
      RETURNING "seq"
    ), noted AS (
      -- The turn's snapshot learns which reply it produced.
      UPDATE "context_snapshots" SET "replyMessageId" = ${id}
      WHERE "turnId" = ${reply.dispatchId} AND EXISTS (SELECT 1 FROM inserted)
    )
    SELECT (SELECT "seq" FROM inserted) AS "seq",
           ARRAY(SELECT "userId" FROM "participants" WHERE "conversationId" = ${reply.conversationId} AND "userId" IS NOT NULL) AS "participantUserIds"`;
  if (!row || row.seq === null) return null;
  const { id: agentId, handle, displayName, color } = reply.agent;
  return {
    message: {
      id,
      conversationId: reply.conversationId,
      seq: row.seq,
      clientId: null,
      role: "assistant",
      content: reply.content,
      metadata: reply.metadata,
      author: { kind: "agent", id: agentId, handle, displayName, color },
      createdAt: now.toISOString(),
    },
    participantUserIds: row.participantUserIds,
  };
}
