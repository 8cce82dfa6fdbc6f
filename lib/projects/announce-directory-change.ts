import type { Prisma } from "@/lib/db/open-database";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { findPrimaryProject } from "./primary-project";

/** An agent was added, changed or disabled: every member's sidebar reloads the directory at once. */
export async function announceDirectoryChange(prisma: Prisma, publisher: RealtimePublisher, { actorId }: { actorId: string }): Promise<void> {
  const project = await findPrimaryProject(prisma, { userId: actorId });
  if (!project) return;
  const members = await prisma.membership.findMany({ where: { projectId: project.id }, select: { userId: true } });
  publisher.directoryChanged(members.map((member) => member.userId));
}
