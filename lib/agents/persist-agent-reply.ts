import { randomUUID } from "node:crypto";
import type { Transaction } from "@/lib/db/open-database";
import { unchangedMessage, type MessageDto } from "@/lib/conversations/message-dto";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { countTokens, encodingFor } from "@/lib/llm/token-counter";
import { dispatchUsageArguments } from "@/lib/usage/record-usage";
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
 * The agent's reply, the end of its dispatch, its usage, its snapshot's reply id and a handoff's
 * next turn, in one call of chorus_persist_agent_reply (migration 20261204020000), and only if
 * this attempt still owns the dispatch: a worker whose lease was taken over can never post a
 * second reply. The next turn takes the finished turn's place in the queue (its createdAt), so a
 * message posted meanwhile comes after it; it is written running, attempt 1, under the finished
 * turn's lease when its agent has nothing earlier to do in that conversation, so this node runs it
 * at once without a claim (DispatchWorker.adopt), and pending otherwise.
 * Returns null when the dispatch was no longer ours.
 */
export async function persistAgentReply(prisma: Transaction, reply: AgentReply): Promise<PersistedReply | null> {
  const id = randomUUID();
  const now = new Date();
  const next = reply.followUp;
  const [row] = await rawRows<{ seq: number | null; askedByUserId: string | null; participantUserIds: string[]; followUpStatus: string | null }>(prisma, sql`
    SELECT * FROM "chorus_persist_agent_reply"(
      ${reply.dispatchId}, ${reply.attempt === "queued" ? null : reply.attempt}::int, ${reply.outcome}, ${reply.metadata.error ?? null},
      ${id}, ${reply.conversationId}, ${reply.agent.id}, ${reply.content}, ${JSON.stringify(reply.metadata)}::jsonb,
      ${countTokens(reply.content, reply.model)}::int, ${encodingFor(reply.model)}, ${now}::timestamp(3), ${reply.metadata.replyToMessageId ?? null},
      ${next?.id ?? null}, ${next ? (next.messageId ?? id) : null}, ${next?.agentId ?? null}, ${next?.conversationId ?? null}, ${next?.askMessageId ?? null},
      ${next?.mode ?? null}, ${next?.historyLimit ?? null}::int, ${next?.depth ?? null}::int, ${next?.allowHandoff ?? null}::boolean,
      ${dispatchUsageArguments(usageOf(reply))})`);
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
