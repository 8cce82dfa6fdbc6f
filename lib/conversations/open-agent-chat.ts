import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { assertProjectMember } from "@/lib/projects/assert-member";
import { participantsScope } from "./conversation-scope";
import { findOrCreateConversation } from "./find-or-create-conversation";

/** A person's private chat with one agent of their project (agent_dm): one thread per pair. */
export async function openAgentChat(
  prisma: Prisma,
  { userId, projectId, agentId }: { userId: string; projectId: string; agentId: string },
) {
  await assertProjectMember(prisma, { userId, projectId });
  const agent = await prisma.agent.findFirst({ where: { id: agentId, projectId }, select: { enabled: true, displayName: true } });
  if (!agent) throw new AppError("not_found", "That agent is not part of this project.");
  if (!agent.enabled) throw new AppError("bad_request", `${agent.displayName} is disabled by an admin.`);
  const parties = [{ userId }, { agentId }];
  return findOrCreateConversation(prisma, {
    projectId,
    type: "agent_dm",
    key: "direct_message",
    scope: participantsScope(parties),
    title: "",
    parties,
  });
}
