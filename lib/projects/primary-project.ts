import type { Prisma } from "@/lib/db/open-database";

/** Chorus shows one project at a time: the first the user joined. Null when they belong to none. */
export async function findPrimaryProject(prisma: Prisma, { userId }: { userId: string }): Promise<{ id: string; name: string } | null> {
  const membership = await prisma.membership.findFirst({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { project: { select: { id: true, name: true } } },
  });
  return membership?.project ?? null;
}
