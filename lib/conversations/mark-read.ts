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
  await prisma.$executeRaw`
    INSERT INTO "read_states" ("userId", "conversationId", "lastReadSeq", "updatedAt")
    VALUES (${userId}, ${conversationId}, ${upTo}, now())
    ON CONFLICT ("userId", "conversationId")
    DO UPDATE SET "lastReadSeq" = GREATEST("read_states"."lastReadSeq", EXCLUDED."lastReadSeq"), "updatedAt" = now()`;
  return (await getConversation(prisma, { userId, conversationId }))!;
}
