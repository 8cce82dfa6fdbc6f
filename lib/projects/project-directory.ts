import { avatarOf, type PersonAvatar } from "@/lib/avatars/avatar-rules";
import type { Prisma } from "@/lib/db/open-database";
import { findPrimaryProject } from "./primary-project";

export interface ProjectDirectory {
  project: { id: string; name: string };
  members: ({ id: string; name: string; handle: string } & PersonAvatar)[];
  agents: { id: string; handle: string; displayName: string; color: string; description: string }[];
}

/**
 * The people and agents of the user's project, for starting DMs and agent chats and for
 * @mention completion, in the user's primary project.
 */
export async function getProjectDirectory(prisma: Prisma, { userId }: { userId: string }): Promise<ProjectDirectory | null> {
  const project = await findPrimaryProject(prisma, { userId });
  if (!project) return null;
  const projectId = project.id;
  const [members, agents] = await Promise.all([
    prisma.user.findMany({
      // Deactivated people cannot read or answer: they are not offered for DMs or @mentions.
      where: { memberships: { some: { projectId } }, deactivatedAt: null },
      orderBy: { name: "asc" },
      select: { id: true, name: true, handle: true, image: true, avatarColor: true },
    }),
    prisma.agent.findMany({
      where: { projectId, enabled: true },
      orderBy: { displayName: "asc" },
      select: { id: true, handle: true, displayName: true, color: true, description: true },
    }),
  ]);
  return { project, members: members.map(({ image, avatarColor, ...member }) => ({ ...member, ...avatarOf({ ...member, image, avatarColor }) })), agents };
}
