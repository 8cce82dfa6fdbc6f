import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { assertProjectMember } from "@/lib/projects/assert-member";
import { participantsScope } from "./conversation-scope";
import { findOrCreateConversation, type ConversationSpec } from "./find-or-create-conversation";

/**
 * What a person's chat with an agent of their project is made of, once both may take part. Its
 * scope is the pair's: the first chat of a pair has it as it is.
 */
export async function agentChatSpec(prisma: Prisma, { userId, projectId, agentId }: { userId: string; projectId: string; agentId: string }): Promise<ConversationSpec> {
  await assertProjectMember(prisma, { userId, projectId });
  const agent = await prisma.agent.findFirst({ where: { id: agentId, projectId }, select: { enabled: true, displayName: true } });
  if (!agent) throw new AppError("not_found", "That agent is not part of this project.");
  if (!agent.enabled) throw new AppError("bad_request", `${agent.displayName} is disabled by an admin.`);
  const parties = [{ userId }, { agentId }];
  // Untitled until its first message names it (sendMessage).
  return { projectId, type: "agent_dm", key: "direct_message", scope: participantsScope(parties), title: "", parties, createdByUserId: userId };
}

/** Another chat with the same agent ("New chat"): a scope of its own, an empty history. */
export async function newAgentChat(prisma: Prisma, options: { userId: string; projectId: string; agentId: string }) {
  return createFreshAgentChat(prisma, await agentChatSpec(prisma, options));
}

export function createFreshAgentChat(prisma: Prisma, spec: ConversationSpec) {
  return findOrCreateConversation(prisma, { ...spec, scope: `${spec.scope}:${randomUUID()}` });
}
