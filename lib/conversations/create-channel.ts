import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { assertProjectMember } from "@/lib/projects/assert-member";
import { channelScope } from "./conversation-scope";
import { findOrCreateConversation } from "./find-or-create-conversation";

/**
 * A project-wide channel (group, key global) with the agents chosen: every member of the project
 * takes part, or, in a private channel, only its creator until they add others. Its creator may
 * manage it, as admins may. Channel names are unique in a project, private ones included.
 */
export async function createChannel(
  prisma: Prisma,
  { userId, projectId, name, agentIds = [], isPrivate = false }: { userId: string; projectId: string; name: string; agentIds?: string[]; isPrivate?: boolean },
) {
  await assertProjectMember(prisma, { userId, projectId });
  const agents = await prisma.agent.findMany({ where: { projectId, id: { in: agentIds }, enabled: true }, select: { id: true } });
  if (agents.length !== new Set(agentIds).size) throw new AppError("bad_request", "Some of those agents are not available in this project.");
  const members = isPrivate ? [{ userId }] : await prisma.membership.findMany({ where: { projectId }, select: { userId: true } });
  const result = await findOrCreateConversation(prisma, {
    projectId,
    type: "group",
    key: "global",
    scope: channelScope(name),
    title: name,
    parties: [...members.map((member) => ({ userId: member.userId })), ...agents.map((agent) => ({ agentId: agent.id }))],
    createdByUserId: userId,
    isPrivate,
  });
  if (!result.created) throw new AppError("conflict", `A channel named #${name} already exists.`, { name: `#${name} already exists.` });
  return { id: result.id, participantUserIds: members.map((member) => member.userId) };
}
