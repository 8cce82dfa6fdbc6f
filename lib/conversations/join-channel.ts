import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { assertProjectMember } from "@/lib/projects/assert-member";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { changeMembership } from "./change-membership";
import { archivedRefusal } from "./conversation-permissions";

/**
 * A member of the project joins one of its public channels (the channel browser, or adding
 * themself over the API). A private channel is joined by invitation only: asked by id, it answers
 * as if it did not exist. Joining twice changes nothing.
 */
export async function joinChannel(
  { prisma, publisher }: { prisma: Prisma; publisher: RealtimePublisher },
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<{ conversationId: string; joined: boolean }> {
  const [conversation, person] = await Promise.all([
    prisma.conversation.findUnique({ where: { id: conversationId }, select: { type: true, isPrivate: true, archivedAt: true, projectId: true } }),
    prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { name: true } }),
  ]);
  if (!conversation || conversation.type !== "group" || conversation.isPrivate) {
    throw new AppError("not_found", "That channel does not exist, or it is private: ask one of its members to add you.");
  }
  await assertProjectMember(prisma, { userId, projectId: conversation.projectId });
  if (conversation.archivedAt) throw archivedRefusal();

  const joined = await changeMembership(prisma, { conversationId, member: { userId }, change: "join", notice: `${person.name} joined the conversation.` });
  if (!joined) return { conversationId, joined: false };
  publisher.messageCreated(joined.message, { participantUserIds: joined.participantUserIds, mentionedUserIds: [] });
  // The joiner's other tabs list it too.
  publisher.conversationCreated(conversationId, [userId]);
  return { conversationId, joined: true };
}
