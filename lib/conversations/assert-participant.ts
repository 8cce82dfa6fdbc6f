import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";

/** Reading, posting and joining a conversation all require being one of its participants. */
export async function assertParticipant(
  prisma: Prisma,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<void> {
  const participant = await prisma.participant.findUnique({
    where: { conversationId_userId: { conversationId, userId } },
    select: { id: true },
  });
  if (!participant) {
    throw new AppError("forbidden", "You are not a participant of this conversation.");
  }
}
