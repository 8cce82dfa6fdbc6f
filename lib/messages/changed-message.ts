import type { Prisma, Transaction } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { messageInclude, toMessageDto, type MessageDto } from "@/lib/conversations/message-dto";
import { withSourceStates } from "@/lib/conversations/source-states";

/** A message as a change needs it: locked until the change commits, with its conversation's state. */
export interface LockedMessage {
  id: string;
  conversationId: string;
  seq: number;
  role: "user" | "assistant" | "system" | "tool";
  authorUserId: string | null;
  authorAgentId: string | null;
  content: string;
  metadata: Record<string, unknown>;
  tokenCount: number | null;
  tokenEncoding: string | null;
  version: number;
  versionCount: number;
  deletedAt: Date | null;
  conversationType: string;
  archivedAt: Date | null;
  /** Whether the person changing it takes part in its conversation. */
  isParticipant: boolean;
}

/**
 * Locks a message for a change (edits, deletions, reactions and version switches of one message
 * happen one at a time), checking `userId` may see it. A message the person cannot see is
 * "not found", never "forbidden": its existence is not theirs to learn.
 */
export async function lockMessage(tx: Transaction, { messageId, userId }: { messageId: string; userId: string | null }): Promise<LockedMessage> {
  const [row] = await tx.$queryRaw<LockedMessage[]>`
    SELECT m."id", m."conversationId", m."seq", m."role"::text AS "role", m."authorUserId", m."authorAgentId", m."content", m."metadata",
           m."tokenCount", m."tokenEncoding", m."version", m."versionCount", m."deletedAt",
           c."type"::text AS "conversationType", c."archivedAt",
           EXISTS (SELECT 1 FROM "participants" p WHERE p."conversationId" = c."id" AND p."userId" = ${userId}) AS "isParticipant"
    FROM "messages" m JOIN "conversations" c ON c."id" = m."conversationId"
    WHERE m."id" = ${messageId}
    FOR UPDATE OF m`;
  // userId null: Chorus itself (a regenerated reply being written), which may change any message.
  if (!row || (userId !== null && !row.isParticipant)) throw new AppError("not_found", "That message does not exist, or it is in a conversation you are not part of.");
  return row;
}

/** Archived conversations are read-only: nothing in them changes until they are unarchived. */
export function assertWritable(message: LockedMessage): void {
  if (message.archivedAt) throw new AppError("conflict", "This conversation is archived, so its messages can't change. Unarchive it first.");
}

/** The next number of the conversation's changes (taken under its row lock, so they are ordered). */
export async function nextChangeSeq(tx: Transaction, conversationId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ lastChangeSeq: number }[]>`
    UPDATE "conversations" SET "lastChangeSeq" = "lastChangeSeq" + 1 WHERE "id" = ${conversationId} RETURNING "lastChangeSeq"`;
  return row!.lastChangeSeq;
}

export async function readMessage(prisma: Prisma | Transaction, messageId: string): Promise<MessageDto> {
  const [message] = await withSourceStates(prisma, [toMessageDto(await prisma.message.findUniqueOrThrow({ where: { id: messageId }, include: messageInclude }))]);
  return message!;
}
