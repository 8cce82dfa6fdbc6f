import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";

/**
 * Reading and joining a conversation require being one of its participants; a forked context is
 * read by the participants of the conversation at the root of its chain (it has none of its own,
 * so nobody can post into it).
 */
export async function assertParticipant(prisma: Prisma, who: { userId: string; conversationId: string }): Promise<void> {
  if (!(await isParticipant(prisma, who))) {
    throw new AppError("forbidden", "You are not a participant of this conversation.");
  }
}

export async function isParticipant(prisma: Prisma, { userId, conversationId }: { userId: string; conversationId: string }): Promise<boolean> {
  const rows = await prisma.$queryRaw<unknown[]>`
    SELECT 1 FROM "conversations" c
    JOIN "participants" p ON p."conversationId" = COALESCE(c."rootConversationId", c."id") AND p."userId" = ${userId}
    WHERE c."id" = ${conversationId}`;
  return rows.length > 0;
}
