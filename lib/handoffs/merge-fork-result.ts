import { randomUUID } from "node:crypto";
import type { Transaction } from "@/lib/db/open-database";
import type { MessageAuthor, MessageDto } from "@/lib/conversations/message-dto";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import { countTokens, encodingFor } from "@/lib/llm/token-counter";

export interface Published {
  message: MessageDto;
  participantUserIds: string[];
}

/**
 * A forked context's final reply, appended to the conversation it was forked from as one
 * assistant message (source "specialist", with the fork's id) and the fork marked finished, in
 * the caller's transaction. When that conversation is itself a running fork, the merged message
 * is its final reply too, so the result climbs the chain. A finished fork merges nothing again.
 */
export async function mergeForkResult(tx: Transaction, { forkId, reply, model }: { forkId: string; reply: MessageDto; model: string }): Promise<Published[]> {
  const merged: Published[] = [];
  let fork = forkId;
  let result = reply;
  for (;;) {
    const [finished] = await tx.$queryRaw<{ parentId: string; askId: string; forkDepth: number }[]>`
      UPDATE "conversations" SET "forkStatus" = 'finished', "updatedAt" = now()
      WHERE "id" = ${fork} AND "forkStatus" = 'running'
      RETURNING "parentConversationId" AS "parentId", "forkedFromMessageId" AS "askId", "forkDepth"`;
    if (!finished) return merged;
    if (result.author.kind !== "agent") throw new Error(`fork ${fork}: only an agent's reply can be its result`);
    const metadata: MessageMetadata = {
      ...result.metadata,
      source: "specialist",
      forkId: fork,
      replyToMessageId: finished.askId,
      isHandoffSummary: false,
      timestamp: new Date().toISOString(),
    };
    const message = await appendAgentMessage(tx, { conversationId: finished.parentId, author: result.author, content: result.content, metadata, model });
    merged.push(message);
    if (finished.forkDepth <= 1) return merged;
    fork = finished.parentId;
    result = message.message;
  }
}

/** An agent's message at the end of a conversation (the next seq), with the people to tell. */
async function appendAgentMessage(
  tx: Transaction,
  { conversationId, author, content, metadata, model }: { conversationId: string; author: Extract<MessageAuthor, { kind: "agent" }>; content: string; metadata: MessageMetadata; model: string },
): Promise<Published> {
  const id = randomUUID();
  const now = new Date();
  const [row] = await tx.$queryRaw<{ seq: number; participantUserIds: string[] }[]>`
    WITH allocated AS (
      UPDATE "conversations" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = now() WHERE "id" = ${conversationId}
      RETURNING "lastSeq", COALESCE("rootConversationId", "id") AS "watchedId"
    ), inserted AS (
      INSERT INTO "messages" ("id", "conversationId", "seq", "authorAgentId", "role", "content", "metadata", "tokenCount", "tokenEncoding", "createdAt")
      SELECT ${id}, ${conversationId}, "lastSeq", ${author.id}, 'assistant', ${content}, ${JSON.stringify(metadata)}::jsonb, ${countTokens(content, model)}, ${encodingFor(model)}, ${now}
      FROM allocated
      RETURNING "seq"
    )
    SELECT (SELECT "seq" FROM inserted) AS "seq",
           ARRAY(SELECT "userId" FROM "participants" WHERE "conversationId" = (SELECT "watchedId" FROM allocated) AND "userId" IS NOT NULL) AS "participantUserIds"`;
  return {
    message: { id, conversationId, seq: row!.seq, clientId: null, role: "assistant", content, metadata, author, createdAt: now.toISOString() },
    participantUserIds: row!.participantUserIds,
  };
}
