import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";

export async function assertProjectMember(prisma: Prisma, { userId, projectId }: { userId: string; projectId: string }): Promise<void> {
  const membership = await prisma.membership.findUnique({ where: { projectId_userId: { projectId, userId } }, select: { role: true } });
  if (!membership) throw new AppError("forbidden", "You are not a member of this project.");
}
