import { randomUUID } from "node:crypto";
import type { Transaction } from "@/lib/db/open-database";
import { unchangedMessage, type MessageAuthor, type MessageDto } from "@/lib/conversations/message-dto";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import { countTokens, encodingFor } from "@/lib/llm/token-counter";

export interface Published {
  message: MessageDto;
  participantUserIds: string[];
  /** An agent's answer: the person whose question it answers. */
  answersUserId?: string | null;
  /** A new version of a message already posted (a regenerated reply), not a new message. */
  updated?: boolean;
}

/**
 * A message at the end of a conversation (its next seq): an agent's (a tool result has role
 * `tool`), or with no author an app notice. Returns it with the people to tell: the participants of the conversation, or for a
 * fork those of the conversation at its root.
 */
export async function appendMessage(
  tx: Transaction,
  {
    conversationId,
    author,
    content,
    metadata,
    model,
    role = author ? "assistant" : "system",
  }: { conversationId: string; author: Extract<MessageAuthor, { kind: "agent" }> | null; content: string; metadata: MessageMetadata; model: string; role?: "assistant" | "system" | "tool" },
): Promise<Published> {
  const id = randomUUID();
  const now = new Date();
  const [row] = await tx.$queryRaw<{ seq: number; participantUserIds: string[] }[]>`
    WITH allocated AS (
      UPDATE "conversations" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = now() WHERE "id" = ${conversationId}
      RETURNING "lastSeq", COALESCE("rootConversationId", "id") AS "watchedId"
    ), inserted AS (
      INSERT INTO "messages" ("id", "conversationId", "seq", "authorAgentId", "role", "content", "metadata", "tokenCount", "tokenEncoding", "createdAt")
      SELECT ${id}, ${conversationId}, "lastSeq", ${author?.id ?? null}, ${role}::"MessageRole", ${content}, ${JSON.stringify(metadata)}::jsonb, ${countTokens(content, model)}, ${encodingFor(model)}, ${now}
      FROM allocated
      RETURNING "seq"
    )
    SELECT (SELECT "seq" FROM inserted) AS "seq",
           ARRAY(SELECT "userId" FROM "participants" WHERE "conversationId" = (SELECT "watchedId" FROM allocated) AND "userId" IS NOT NULL) AS "participantUserIds"`;
  return {
    message: { id, conversationId, seq: row!.seq, clientId: null, role, content, metadata, author: author ?? { kind: "system" }, createdAt: now.toISOString(), ...unchangedMessage },
    participantUserIds: row!.participantUserIds,
  };
}
