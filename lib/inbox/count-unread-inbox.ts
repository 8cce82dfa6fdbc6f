import type { Prisma } from "@/lib/db/open-database";
import { myConversations } from "./list-inbox";

/**
 * How many of a person's "Mentions and replies" they have not read yet (after their read
 * position in each conversation): the sidebar's count. The same rules as listInbox, one statement.
 */
export async function countUnreadInbox(prisma: Prisma, { userId }: { userId: string }): Promise<number> {
  const [row] = await prisma.$queryRaw<{ count: number }[]>`
    WITH ${myConversations(userId)}
    SELECT count(*)::int AS "count" FROM (
      SELECT mm."messageId" AS "id"
      FROM mine
      JOIN "message_mentions" mm ON mm."userId" = ${userId} AND mm."conversationId" = mine."conversationId" AND mm."seq" > mine."lastReadSeq"
      JOIN "messages" m ON m."id" = mm."messageId"
      WHERE m."deletedAt" IS NULL AND m."authorUserId" IS DISTINCT FROM ${userId}
      UNION
      SELECT m."id"
      FROM "messages" m
      JOIN mine ON mine."conversationId" = m."conversationId"
      JOIN "conversations" c ON c."id" = m."conversationId" AND c."type" = 'group'
      WHERE m."askedByUserId" = ${userId} AND m."deletedAt" IS NULL AND m."seq" > mine."lastReadSeq"
    ) unread`;
  return row?.count ?? 0;
}
