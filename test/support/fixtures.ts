import type { Prisma } from "@/lib/db/open-database";

/**
 * The smallest world a test needs: a project and a channel. Users who sign up afterwards join
 * the oldest project and its channels (joinDefaultProject).
 */
export async function createProjectWithChannel(prisma: Prisma, name = "general") {
  const project = await prisma.project.create({ data: { slug: `p-${crypto.randomUUID()}`, name: "Test project" } });
  const channel = await createChannel(prisma, { projectId: project.id, name });
  return { project, channel };
}

export async function createChannel(prisma: Prisma, { projectId, name, userIds = [] }: { projectId: string; name: string; userIds?: string[] }) {
  return prisma.conversation.create({
    data: {
      projectId,
      type: "group",
      key: "global",
      scope: `name:${name}`,
      title: name,
      participants: { create: userIds.map((userId) => ({ userId })) },
    },
  });
}

/** An offline agent in a project of its own: what ingestion tests index documents for. */
export async function createOfflineAgent(prisma: Prisma, handle = "reader") {
  const { project } = await createProjectWithChannel(prisma);
  return prisma.agent.create({ data: { projectId: project.id, handle, displayName: "Reader", color: "#0ea5e9", systemPrompt: "x", model: "offline" } });
}
