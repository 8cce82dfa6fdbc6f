import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { assertParticipant } from "./assert-participant";

/**
 * The conversation a participant means to manage, with what the rules need. Someone outside it
 * learns nothing about it (not even that it is a fork).
 */
export async function loadManagedConversation(prisma: Prisma, { userId, conversationId }: { userId: string; conversationId: string }) {
  await assertParticipant(prisma, { userId, conversationId });
  const conversation = await prisma.conversation.findUnique({
    where: { id: conversationId },
    select: { id: true, projectId: true, type: true, key: true, title: true, topic: true, archivedAt: true, isPrivate: true, createdByUserId: true },
  });
  if (!conversation) throw new AppError("not_found", "This conversation no longer exists.");
  return conversation;
}

/** The people taking part, whose headers and sidebars hear of a change. */
export async function participantUserIds(prisma: Prisma, conversationId: string): Promise<string[]> {
  const rows = await prisma.participant.findMany({ where: { conversationId, userId: { not: null } }, select: { userId: true } });
  return rows.flatMap((row) => (row.userId ? [row.userId] : []));
}
