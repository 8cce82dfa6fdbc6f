import { z } from "zod";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { addAgentToConversation } from "./add-agent-to-conversation";
import { changeMembership } from "./change-membership";
import { archivedRefusal, assertManageable, type Manager } from "./conversation-permissions";
import { joinChannel } from "./join-channel";
import { loadManagedConversation } from "./managed-conversation";

const memberId = (what: string) => z.string({ error: `Choose ${what}.` }).trim().min(1, `Choose ${what}.`).max(100, `That ${what} id is not valid.`);

/** POST /api/conversations/{id}/members and the settings dialog: a person or an agent. */
export const newMemberSchema = z.union([z.object({ userId: memberId("a person") }).strict(), z.object({ agentId: memberId("an agent") }).strict()], {
  error: 'Say who to add: {"userId": "…"} or {"agentId": "…"}.',
});

export type NewMember = z.infer<typeof newMemberSchema>;

/**
 * Brings a person of the project (or an agent) into a channel, with a notice everyone reads; the
 * person's sidebar lists it at once. Adding oneself is joining, which a private channel refuses.
 */
export async function addMember(
  deps: { prisma: Prisma; publisher: RealtimePublisher },
  { actor, conversationId, member }: { actor: Manager; conversationId: string; member: NewMember },
): Promise<{ added: "user" | "agent" }> {
  const { prisma, publisher } = deps;
  if ("agentId" in member) {
    const added = await addAgentToConversation(prisma, { userId: actor.userId, conversationId, agentId: member.agentId });
    publisher.messageCreated(added.message, { participantUserIds: added.participantUserIds, mentionedUserIds: [] });
    return { added: "agent" };
  }
  if (member.userId === actor.userId) {
    await joinChannel(deps, { userId: actor.userId, conversationId });
    return { added: "user" };
  }

  const conversation = await loadManagedConversation(prisma, { userId: actor.userId, conversationId });
  assertManageable(conversation, actor, "add_member");
  if (conversation.archivedAt) throw archivedRefusal();
  const [adder, person] = await Promise.all([
    prisma.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { name: true } }),
    prisma.user.findFirst({ where: { id: member.userId, memberships: { some: { projectId: conversation.projectId } } }, select: { name: true } }),
  ]);
  if (!person) throw new AppError("not_found", "That person is not a member of this project.");

  const notice = `${adder.name} added ${person.name} to the conversation.`;
  const added = await changeMembership(prisma, { conversationId, member: { userId: member.userId }, change: "join", notice });
  if (!added) throw new AppError("conflict", `${person.name} is already in this conversation.`);
  publisher.messageCreated(added.message, { participantUserIds: added.participantUserIds, mentionedUserIds: [] });
  publisher.conversationCreated(conversationId, [member.userId]);
  return { added: "user" };
}
