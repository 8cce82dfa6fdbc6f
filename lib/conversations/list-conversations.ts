import type { Prisma } from "@/lib/db/open-database";

export interface ConversationSummary {
  id: string;
  title: string;
  type: "group" | "dm" | "agent_dm";
  key: "global" | "per_room" | "direct_message";
  lastSeq: number;
  projectId: string;
}

/** The conversations a user participates in, most recently active first. */
export async function listConversations(prisma: Prisma, { userId }: { userId: string }): Promise<ConversationSummary[]> {
  return prisma.conversation.findMany({
    where: { participants: { some: { userId } } },
    orderBy: { updatedAt: "desc" },
    select: { id: true, title: true, type: true, key: true, lastSeq: true, projectId: true },
  });
}

export async function getConversation(
  prisma: Prisma,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<ConversationSummary | null> {
  return prisma.conversation.findFirst({
    where: { id: conversationId, participants: { some: { userId } } },
    select: { id: true, title: true, type: true, key: true, lastSeq: true, projectId: true },
  });
}
