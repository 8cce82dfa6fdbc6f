import type { Prisma } from "@/lib/db/open-database";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { chatTitleFrom } from "./conversation-settings";
import type { MessageDto } from "./message-dto";

/**
 * An untitled agent chat is named after its first message (a person can rename it later), and
 * its person's sidebars and header follow. Asked only for a conversation's first message, so
 * posting into any other pays nothing; one statement that changes nothing elsewhere.
 */
export async function titleNewChat({ prisma, publisher }: { prisma: Prisma; publisher: RealtimePublisher }, message: MessageDto): Promise<void> {
  const title = chatTitleFrom(message.content);
  const [row] = await prisma.$queryRaw<{ topic: string | null; archived: boolean; participantUserIds: string[] }[]>`
    UPDATE "conversations" SET "title" = ${title}
    WHERE "id" = ${message.conversationId} AND "type" = 'agent_dm' AND "title" = ''
    RETURNING "topic", "archivedAt" IS NOT NULL AS "archived",
      ARRAY(SELECT "userId" FROM "participants" WHERE "conversationId" = ${message.conversationId} AND "userId" IS NOT NULL) AS "participantUserIds"`;
  if (row) publisher.conversationUpdated({ conversationId: message.conversationId, title, topic: row.topic, archived: row.archived }, row.participantUserIds);
}
