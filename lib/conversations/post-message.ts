import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/db/open-database";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { empty, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { AppError } from "@/lib/errors/app-error";
import { countTokens } from "@/lib/llm/token-counter";
import { messageInclude, toMessageDto, type MessageDto } from "./message-dto";
import type { PostMessageInput } from "./message-input";
import { userMessageMetadata } from "./message-metadata";
import { parseMentions } from "./parse-mentions";

/** A burst of more than RATE_LIMIT messages is refused; the allowance refills at RATE_LIMIT per RATE_WINDOW_S. */
export const RATE_LIMIT = 20;
export const RATE_WINDOW_S = 10;
const RATE_REFILL_PER_S = RATE_LIMIT / RATE_WINDOW_S;

export interface PostMessageResult {
  message: MessageDto;
  /** False when this clientId was already posted: the first message is returned, nothing is written. */
  created: boolean;
  /** Who takes part, so their sidebars can be told (activity) without a query per user. */
  participantUserIds: string[];
  mentionedUserIds: string[];
  mentionedAgentIds: string[];
  /** @handles that matched no participant: the composer shows a hint. */
  unknownMentions: string[];
  /** Agents asked to answer: a dispatch row each was written with the message. */
  dispatchedAgentIds: string[];
  /** Those dispatch rows, for the worker to claim at once. */
  dispatchIds: string[];
}

/**
 * Writes a user's message with the conversation's next sequence number, its mentions and the
 * author's read position. Idempotent on (conversation, clientId): a retried or duplicated send
 * returns the first message.
 */
export async function postMessage(prisma: Prisma, { userId, input }: { userId: string; input: PostMessageInput }): Promise<PostMessageResult> {
  try {
    return await insertMessage(prisma, userId, input);
  } catch (error) {
    // The same clientId again (a retry, or two sends racing): the unique constraint refused it.
    if (!isUniqueViolation(error)) throw error;
    const message = await existingMessage(prisma, userId, input);
    return { message, created: false, participantUserIds: [], mentionedUserIds: [], mentionedAgentIds: [], unknownMentions: [], dispatchedAgentIds: [], dispatchIds: [] };
  }
}

interface InsertedRow {
  authorName: string | null;
  tokens: number | null;
  seq: number | null;
  participantUserIds: string[];
  mentionedUserIds: string[];
  mentionedAgentIds: string[];
  unknownMentions: string[];
  dispatchedAgentIds: string[];
  dispatchIds: string[];
}

/**
 * One atomic statement, the hot path of the product: check the author takes part, take a token
 * from their rate bucket, allocate the next seq under the conversation's row lock (so seqs have
 * no gaps), insert the message and the mentions of participants (growing their mention badges),
 * move the author's read position (one's own messages never count as unread), and return who
 * must be told.
 */
async function insertMessage(prisma: Prisma, userId: string, input: PostMessageInput): Promise<PostMessageResult> {
  const id = randomUUID();
  const now = new Date();
  const metadata = userMessageMetadata(now);
  const handles = parseMentions(input.content);
  // Most messages mention nobody: their statement leaves the mention work out entirely.
  const withMentions = handles.length > 0;
  const [row] = await prisma.$queryRaw<InsertedRow[]>`
    WITH parties AS (
      SELECT p."userId", p."agentId"${withMentions ? sql`, COALESCE(u."handle", a."handle") AS "handle"` : empty}
      FROM "participants" p
      ${withMentions ? sql`LEFT JOIN "users" u ON u."id" = p."userId" LEFT JOIN "agents" a ON a."id" = p."agentId"` : empty}
      WHERE p."conversationId" = ${input.conversationId}
    ), ${withMentions ? sql`handles AS (SELECT jsonb_array_elements_text(${JSON.stringify(handles)}::jsonb) AS "handle"),` : empty} author AS (
      SELECT u."name" FROM "participants" p JOIN "users" u ON u."id" = p."userId"
      WHERE p."conversationId" = ${input.conversationId} AND p."userId" = ${userId}
    ), bucket AS (
      INSERT INTO "rate_buckets" ("userId", "tokens", "updatedAt")
      SELECT ${userId}, ${RATE_LIMIT - 1}, now() FROM author
      ON CONFLICT ("userId") DO UPDATE SET
        "tokens" = GREATEST(LEAST(${RATE_LIMIT}::float8, "rate_buckets"."tokens" + EXTRACT(EPOCH FROM (now() - "rate_buckets"."updatedAt")) * ${RATE_REFILL_PER_S}) - 1, -1),
        "updatedAt" = now()
      RETURNING "tokens"
    ), allocated AS (
      UPDATE "conversations" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = now()
      WHERE "id" = ${input.conversationId} AND (SELECT "tokens" FROM bucket) >= 0
      RETURNING "lastSeq", "type"
    ), inserted AS (
      INSERT INTO "messages" ("id", "conversationId", "seq", "clientId", "authorUserId", "role", "content", "metadata", "tokenCount", "createdAt")
      SELECT ${id}, ${input.conversationId}, allocated."lastSeq", ${input.clientId}, ${userId}, 'user', ${input.content}, ${JSON.stringify(metadata)}::jsonb, ${countTokens(input.content)}, ${now}
      FROM allocated
      RETURNING "seq"
    ), ${withMentions ? sql`mentioned AS (
      INSERT INTO "message_mentions" ("id", "messageId", "conversationId", "seq", "userId", "agentId")
      SELECT gen_random_uuid()::text, ${id}, ${input.conversationId}, inserted."seq", parties."userId", parties."agentId"
      FROM inserted, parties
      WHERE parties."handle" IN (SELECT "handle" FROM handles) AND parties."userId" IS DISTINCT FROM ${userId}
    ), mention_badges AS (
      -- The new message is after everyone's read position: each mentioned person's badge grows.
      INSERT INTO "read_states" ("userId", "conversationId", "lastReadSeq", "unreadMentions", "updatedAt")
      SELECT parties."userId", ${input.conversationId}, 0, 1, now()
      FROM inserted, parties
      WHERE parties."handle" IN (SELECT "handle" FROM handles) AND parties."userId" IS NOT NULL AND parties."userId" <> ${userId}
      ON CONFLICT ("userId", "conversationId") DO UPDATE SET "unreadMentions" = "read_states"."unreadMentions" + 1
    ),` : empty} dispatched AS (
      -- Which agents act: an agent chat's agent always; in a group, the enabled agent participants
      -- it @mentions (each once); in a DM, none. Unique per (message, agent).
      INSERT INTO "dispatches" ("id", "messageId", "agentId", "conversationId", "updatedAt")
      SELECT gen_random_uuid()::text, ${id}, parties."agentId", ${input.conversationId}, now()
      FROM inserted, allocated, parties JOIN "agents" ag ON ag."id" = parties."agentId" AND ag."enabled"
      WHERE parties."agentId" IS NOT NULL AND (allocated."type" = 'agent_dm' ${withMentions ? sql`OR (allocated."type" = 'group' AND parties."handle" IN (SELECT "handle" FROM handles))` : empty})
      RETURNING "id", "agentId"
    ), read AS (
      INSERT INTO "read_states" ("userId", "conversationId", "lastReadSeq", "updatedAt")
      SELECT ${userId}, ${input.conversationId}, "seq", now() FROM inserted
      ON CONFLICT ("userId", "conversationId")
      -- Posting reads everything before one's own message, mentions included.
      DO UPDATE SET "lastReadSeq" = GREATEST("read_states"."lastReadSeq", EXCLUDED."lastReadSeq"), "unreadMentions" = 0, "updatedAt" = now()
    )
    SELECT (SELECT "name" FROM author) AS "authorName",
           (SELECT "tokens" FROM bucket) AS "tokens",
           (SELECT "seq" FROM inserted) AS "seq",
           ARRAY(SELECT "agentId" FROM dispatched) AS "dispatchedAgentIds",
           ARRAY(SELECT "id" FROM dispatched) AS "dispatchIds",
           ARRAY(SELECT "userId" FROM parties WHERE "userId" IS NOT NULL) AS "participantUserIds",
           ${
             withMentions
               ? sql`ARRAY(SELECT "userId" FROM parties WHERE "userId" <> ${userId} AND "handle" IN (SELECT "handle" FROM handles)) AS "mentionedUserIds",
                     ARRAY(SELECT "agentId" FROM parties WHERE "agentId" IS NOT NULL AND "handle" IN (SELECT "handle" FROM handles)) AS "mentionedAgentIds",
                     ARRAY(SELECT "handle" FROM handles WHERE "handle" NOT IN (SELECT "handle" FROM parties)) AS "unknownMentions"`
               : sql`'{}'::text[] AS "mentionedUserIds", '{}'::text[] AS "mentionedAgentIds", '{}'::text[] AS "unknownMentions"`
           }`;

  if (!row?.authorName) throw new AppError("forbidden", "You are not a participant of this conversation.");
  if (row.seq === null) {
    if (row.tokens !== null && row.tokens < 0) {
      throw new AppError("rate_limited", `You're sending messages too fast (at most ${RATE_LIMIT} in ${RATE_WINDOW_S} seconds). Wait a moment, then retry.`);
    }
    throw new AppError("not_found", "This conversation no longer exists.");
  }
  const message: MessageDto = {
    id,
    conversationId: input.conversationId,
    seq: row.seq,
    clientId: input.clientId,
    role: "user",
    content: input.content,
    metadata,
    author: { kind: "user", id: userId, name: row.authorName },
    createdAt: now.toISOString(),
  };
  const { participantUserIds, mentionedUserIds, mentionedAgentIds, unknownMentions, dispatchedAgentIds, dispatchIds } = row;
  return { message, created: true, participantUserIds, mentionedUserIds, mentionedAgentIds, unknownMentions, dispatchedAgentIds, dispatchIds };
}

async function existingMessage(prisma: Prisma, userId: string, input: PostMessageInput): Promise<MessageDto> {
  const row = await prisma.message.findUniqueOrThrow({
    where: { conversationId_clientId: { conversationId: input.conversationId, clientId: input.clientId } },
    include: messageInclude,
  });
  if (row.authorUserId !== userId) {
    throw new AppError("conflict", "This message id is already used by another message. Send it again as a new message.");
  }
  return toMessageDto(row);
}
