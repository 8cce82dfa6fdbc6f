import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { getConversation, type ConversationSummary } from "./list-conversations";

/**
 * Moves the user's read position forward to `seq` (never backwards: an older tab cannot undo a
 * newer read) and returns the conversation's fresh counts.
 */
export async function markRead(
  prisma: Prisma,
  { userId, conversationId, seq }: { userId: string; conversationId: string; seq: number },
): Promise<ConversationSummary> {
  const before = await getConversation(prisma, { userId, conversationId });
  if (!before) throw new AppError("forbidden", "You are not a participant of this conversation.");
  const upTo = Math.min(seq, before.lastSeq);
  // The mention badge loses the mentions between the old and the new position; a mention posted
  // meanwhile is after both, so it stays counted.
  await prisma.$executeRaw`
    INSERT INTO "read_states" ("userId", "conversationId", "lastReadSeq", "unreadMentions", "updatedAt")
    VALUES (${userId}, ${conversationId}, ${upTo},
      (SELECT count(*)::int FROM "message_mentions" m WHERE m."userId" = ${userId} AND m."conversationId" = ${conversationId} AND m."seq" > ${upTo}), now())
    ON CONFLICT ("userId", "conversationId")
    DO UPDATE SET
      "unreadMentions" = GREATEST("read_states"."unreadMentions" - (
        SELECT count(*)::int FROM "message_mentions" m
        WHERE m."userId" = ${userId} AND m."conversationId" = ${conversationId}
          AND m."seq" > "read_states"."lastReadSeq" AND m."seq" <= EXCLUDED."lastReadSeq"), 0),
      "lastReadSeq" = GREATEST("read_states"."lastReadSeq", EXCLUDED."lastReadSeq"),
      "updatedAt" = now()`;
  return (await getConversation(prisma, { userId, conversationId }))!;
}
