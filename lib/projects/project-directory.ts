import type { Prisma } from "@/lib/db/open-database";

export interface ProjectDirectory {
  project: { id: string; name: string };
  members: { id: string; name: string; handle: string }[];
  agents: { id: string; handle: string; displayName: string; color: string; description: string }[];
}

/**
 * The people and agents of the user's project, for starting DMs and agent chats and for
 * @mention completion. Chorus shows one project at a time: the user's first.
 */
export async function getProjectDirectory(prisma: Prisma, { userId }: { userId: string }): Promise<ProjectDirectory | null> {
  const membership = await prisma.membership.findFirst({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { project: { select: { id: true, name: true } } },
  });
  if (!membership) return null;
  const projectId = membership.project.id;
  const [members, agents] = await Promise.all([
    prisma.user.findMany({
      where: { memberships: { some: { projectId } } },
      orderBy: { name: "asc" },
      select: { id: true, name: true, handle: true },
    }),
    prisma.agent.findMany({
      where: { projectId, enabled: true },
      orderBy: { displayName: "asc" },
      select: { id: true, handle: true, displayName: true, color: true, description: true },
    }),
  ]);
  return { project: membership.project, members, agents };
}
