import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { assertParticipant } from "./assert-participant";
import { changeMembership, type MembershipChanged } from "./change-membership";
import { archivedRefusal } from "./conversation-permissions";

/**
 * Brings an agent of the project into a group conversation, so @mentions of it are answered.
 * The join and the "X added @agent" notice are one statement: everyone sees who changed the
 * room, and a second add of the same agent writes nothing.
 */
export async function addAgentToConversation(
  prisma: Prisma,
  { userId, conversationId, agentId }: { userId: string; conversationId: string; agentId: string },
): Promise<MembershipChanged> {
  await assertParticipant(prisma, { userId, conversationId });
  const [conversation, agent, adder] = await Promise.all([
    prisma.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { type: true, projectId: true, archivedAt: true } }),
    prisma.agent.findUnique({ where: { id: agentId }, select: { projectId: true, handle: true, displayName: true, enabled: true } }),
    prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { name: true } }),
  ]);
  if (conversation.type !== "group") {
    throw new AppError("bad_request", "Agents can only be added to group conversations. Open a chat with the agent instead.");
  }
  if (conversation.archivedAt) throw archivedRefusal();
  if (!agent || agent.projectId !== conversation.projectId) throw new AppError("not_found", "That agent is not part of this project.");
  if (!agent.enabled) throw new AppError("bad_request", `${agent.displayName} is disabled by an admin.`);

  const notice = `${adder.name} added ${agent.displayName} (@${agent.handle}) to the conversation.`;
  const added = await changeMembership(prisma, { conversationId, member: { agentId }, change: "join", notice });
  if (!added) throw new AppError("conflict", `${agent.displayName} is already in this conversation.`);
  return added;
}
