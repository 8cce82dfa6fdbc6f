import { randomUUID } from "node:crypto";
import type { Transaction } from "@/lib/db/open-database";
import { unchangedMessage, type MessageDto } from "@/lib/conversations/message-dto";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import { empty, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { countTokens, encodingFor } from "@/lib/llm/token-counter";
import { insertDispatchUsage } from "@/lib/usage/record-usage";
import { rawRows } from "@/lib/db/raw-statements";

export interface AgentReply {
  dispatchId: string;
  /** The turn's attempt: the reply is written only while it holds the dispatch. "queued": the turn never started (stopped while waiting). */
  attempt: number | "queued";
  conversationId: string;
  agent: { id: string; handle: string; displayName: string; color: string };
  content: string;
  metadata: MessageMetadata;
  /** failed: the reply explains why the agent could not answer. */
  outcome: "done" | "failed";
  model: string;
  /**
   * A turn to queue on the reply (a handoff's), in the same statement; it takes the finished
   * turn's place in the queue (its createdAt), so a message posted meanwhile comes after it.
   */
  followUp?: FollowUpTurn;
}

export interface PersistedReply {
  message: MessageDto;
  participantUserIds: string[];
  /** The person whose question the reply answers (none when an agent or the app asked). */
  answersUserId: string | null;
  /**
   * The follow-up turn, when one was queued: held by this node (running, under the finished
   * turn's lease) when its agent had nothing earlier to do in the conversation, else pending.
   */
  followUp?: { held: boolean };
}

export interface FollowUpTurn {
  id: string;
  agentId: string;
  conversationId: string;
  askMessageId: string | null;
  mode: "direct" | "summary" | "recent" | "full" | "fork";
  historyLimit: number | null;
  depth: number;
  allowHandoff: boolean;
  /** The message the turn is dispatched on; the reply itself when omitted. */
  messageId?: string;
}

/** The usage a reply's metadata reports, as its usage row records it. */
export function usageOf({ metadata, model }: Pick<AgentReply, "metadata" | "model">) {
  return metadata.usage ? { provider: metadata.provider ?? "offline", model: metadata.model ?? model, ...metadata.usage } : null;
}

/**
 * The agent's reply, the end of its dispatch, its usage and its snapshot's reply id, in one statement, and only if this attempt
 * still owns the dispatch: a worker whose lease was taken over can never post a second reply.
 * Returns null when the dispatch was no longer ours.
 */
export async function persistAgentReply(prisma: Transaction, reply: AgentReply): Promise<PersistedReply | null> {
  const id = randomUUID();
  const now = new Date();
  const usage = usageOf(reply);
  const [row] = await rawRows<{ seq: number | null; askedByUserId: string | null; participantUserIds: string[]; followUpStatus: string | null }>(prisma, sql`
    WITH finished AS (
      UPDATE "dispatches" SET "status" = ${reply.outcome}::"DispatchStatus", "replyMessageId" = ${id}, "leaseUntil" = NULL,
        "lastError" = ${reply.metadata.error ?? null}, "updatedAt" = now()
      WHERE "id" = ${reply.dispatchId} AND ${reply.attempt === "queued" ? sql`"status" = 'pending'` : sql`"status" = 'running' AND "attempt" = ${reply.attempt}`}
      RETURNING "id"
    ), allocated AS (
      UPDATE "conversations" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = now()
      WHERE "id" = ${reply.conversationId} AND EXISTS (SELECT 1 FROM finished)
      RETURNING "lastSeq"
    ), inserted AS (
      INSERT INTO "messages" ("id", "conversationId", "seq", "authorAgentId", "role", "content", "metadata", "tokenCount", "tokenEncoding", "createdAt", "askedByUserId")
      SELECT ${id}, ${reply.conversationId}, "lastSeq", ${reply.agent.id}, 'assistant', ${reply.content}, ${JSON.stringify(reply.metadata)}::jsonb,
        ${countTokens(reply.content, reply.model)}, ${encodingFor(reply.model)}, ${now},
        -- The person whose question it answers: their inbox lists it, and they are told of it.
        (SELECT "authorUserId" FROM "messages" WHERE "id" = ${reply.metadata.replyToMessageId ?? null})
      FROM allocated
      RETURNING "seq", "askedByUserId"
    )${reply.followUp ? queueFollowUp(reply.followUp, reply.dispatchId, id) : empty}${usage ? sql`, counted AS (${insertDispatchUsage(reply.dispatchId, usage, sql`EXISTS (SELECT 1 FROM inserted)`)})` : empty}, noted AS (
      -- The turn's snapshot learns which reply it produced.
      UPDATE "context_snapshots" SET "replyMessageId" = ${id}
      WHERE "turnId" = ${reply.dispatchId} AND EXISTS (SELECT 1 FROM inserted)
    )
    SELECT (SELECT "seq" FROM inserted) AS "seq", (SELECT "askedByUserId" FROM inserted) AS "askedByUserId",
           ${reply.followUp ? sql`(SELECT "status"::text FROM queued)` : sql`NULL`} AS "followUpStatus",
           ARRAY(SELECT "userId" FROM "participants" WHERE "conversationId" = ${reply.conversationId} AND "userId" IS NOT NULL) AS "participantUserIds"`);
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
      ...unchangedMessage,
    },
    participantUserIds: row.participantUserIds,
    answersUserId: row.askedByUserId,
    ...(row.followUpStatus ? { followUp: { held: row.followUpStatus === "running" } } : {}),
  };
}

/**
 * The follow-up turn's insert. When its agent has nothing earlier to do in that conversation, it
 * is written running, attempt 1, under the finished turn's lease: this node runs it at once
 * without a claim (DispatchWorker.adopt). Otherwise it waits, pending, for its agent's turn.
 */
function queueFollowUp(turn: FollowUpTurn, after: string, replyId: string) {
  return sql`, queued AS (
      INSERT INTO "dispatches" ("id", "messageId", "agentId", "conversationId", "askMessageId", "mode", "historyLimit", "depth", "allowHandoff", "status", "attempt", "leaseUntil", "leasedBy", "createdAt", "updatedAt")
      SELECT ${turn.id}, ${turn.messageId ?? replyId}, ${turn.agentId}, ${turn.conversationId}, ${turn.askMessageId}, ${turn.mode}, ${turn.historyLimit}, ${turn.depth}, ${turn.allowHandoff},
             CASE WHEN busy THEN 'pending' ELSE 'running' END::"DispatchStatus", CASE WHEN busy THEN 0 ELSE 1 END, CASE WHEN busy THEN NULL ELSE d."leaseUntil" END, CASE WHEN busy THEN NULL ELSE d."leasedBy" END,
             d."createdAt", now()
      FROM "dispatches" d, LATERAL (
        SELECT EXISTS (
          SELECT 1 FROM "dispatches" e
          WHERE e."agentId" = ${turn.agentId} AND e."conversationId" = ${turn.conversationId} AND e."id" <> d."id" AND e."status" IN ('pending', 'running')
        ) AS busy
      ) b
      WHERE d."id" = ${after} AND EXISTS (SELECT 1 FROM inserted)
      RETURNING "status"
    )`;
}
