import type { Prisma } from "@/lib/db/open-database";

/**
 * Every new account joins the default (oldest) project as a member and the project's public
 * channels (private ones are joined by invitation, archived ones not at all), so a person who
 * signs up can start talking at once.
 */
export async function joinDefaultProject(prisma: Prisma, { userId }: { userId: string }): Promise<void> {
  const project = await prisma.project.findFirst({ orderBy: { createdAt: "asc" }, select: { id: true } });
  if (!project) return;
  const channels = await prisma.conversation.findMany({
    where: { projectId: project.id, key: "global", isPrivate: false, archivedAt: null },
    select: { id: true, lastSeq: true },
  });
  await prisma.$transaction([
    prisma.membership.upsert({
      where: { projectId_userId: { projectId: project.id, userId } },
      create: { projectId: project.id, userId },
      update: {},
    }),
    prisma.participant.createMany({
      data: channels.map((channel) => ({ conversationId: channel.id, userId })),
      skipDuplicates: true,
    }),
    // A newcomer starts with the channels' history read rather than hundreds of unread messages.
    prisma.readState.createMany({
      data: channels.map((channel) => ({ userId, conversationId: channel.id, lastReadSeq: channel.lastSeq })),
      skipDuplicates: true,
    }),
  ]);
}
