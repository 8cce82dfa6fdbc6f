import type { Prisma } from "@/lib/db/open-database";
import { findOrCreateConversation } from "./find-or-create-conversation";
import { agentChatSpec, createFreshAgentChat } from "./new-agent-chat";

/**
 * A person's chat with one agent of their project (agent_dm), as the directory opens it: their
 * most recent chat with it that is not archived, else a new one. The pair's first chat has the
 * pair's own scope, so two tabs opening it at once still share one thread.
 */
export async function openAgentChat(
  prisma: Prisma,
  { userId, projectId, agentId }: { userId: string; projectId: string; agentId: string },
): Promise<{ id: string; created: boolean }> {
  const spec = await agentChatSpec(prisma, { userId, projectId, agentId });
  const latest = await prisma.conversation.findFirst({
    where: { projectId, type: "agent_dm", archivedAt: null, AND: [{ participants: { some: { userId } } }, { participants: { some: { agentId } } }] },
    orderBy: { updatedAt: "desc" },
    select: { id: true },
  });
  if (latest) return { id: latest.id, created: false };
  const first = await findOrCreateConversation(prisma, spec);
  if (first.created) return first;
  // The pair's first chat exists: unarchived, another tab has just made it; archived, a new one starts.
  const existing = await prisma.conversation.findUniqueOrThrow({ where: { id: first.id }, select: { archivedAt: true } });
  return existing.archivedAt ? createFreshAgentChat(prisma, spec) : first;
}
