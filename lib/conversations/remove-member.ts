import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { changeMembership } from "./change-membership";
import { archivedRefusal, assertManageable, type Manager } from "./conversation-permissions";
import { loadManagedConversation } from "./managed-conversation";

/**
 * Takes a person or an agent out of a channel (admins and its creator), or a person out of it by
 * their own choice (leaving). The notice tells those who remain; the person's sockets leave the
 * room on every node before it is sent, and their tabs drop the conversation.
 */
export async function removeMember(
  { prisma, publisher }: { prisma: Prisma; publisher: RealtimePublisher },
  { actor, conversationId, memberId }: { actor: Manager; conversationId: string; memberId: string },
): Promise<{ removed: "user" | "agent"; left: boolean }> {
  const conversation = await loadManagedConversation(prisma, { userId: actor.userId, conversationId });
  const leaving = memberId === actor.userId;
  assertManageable(conversation, actor, leaving ? "leave" : "remove_member");
  if (!leaving && conversation.archivedAt) throw archivedRefusal();

  const rows = await prisma.participant.findMany({
    where: { conversationId, OR: [{ userId: { in: [memberId, actor.userId] } }, { agentId: memberId }] },
    select: { userId: true, agentId: true, user: { select: { name: true } }, agent: { select: { displayName: true, handle: true } } },
  });
  const member = rows.find((row) => row.userId === memberId || row.agentId === memberId);
  const actorName = rows.find((row) => row.userId === actor.userId)?.user?.name ?? "Someone";
  if (!member) throw new AppError("not_found", "That person or agent is not in this conversation (they may have left already).");
  if (leaving && conversation.isPrivate && (await prisma.participant.count({ where: { conversationId, userId: { not: null } } })) === 1) {
    throw new AppError("conflict", `You are the last person in #${conversation.title}, a private channel: add someone first, or archive it instead.`);
  }

  const memberName = member.agent ? `${member.agent.displayName} (@${member.agent.handle})` : (member.user?.name ?? "Someone");
  const notice = leaving ? `${actorName} left the conversation.` : `${actorName} removed ${memberName} from the conversation.`;
  const party = member.userId ? { userId: member.userId } : { agentId: memberId };
  const removed = await changeMembership(prisma, { conversationId, member: party, change: "leave", notice });
  // Removed by someone else at the same moment: nothing left to do, and they are told so.
  if (!removed) throw new AppError("not_found", "That person or agent is not in this conversation (they may have left already).");

  if (member.userId) publisher.conversationRemoved(member.userId, { conversationId, removedBy: leaving ? null : actorName });
  publisher.messageCreated(removed.message, { participantUserIds: removed.participantUserIds, mentionedUserIds: [] });
  return { removed: member.userId ? "user" : "agent", left: leaving };
}
