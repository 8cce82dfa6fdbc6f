import type { Prisma } from "@/lib/db/open-database";
import { assertParticipant } from "./assert-participant";
import { messageInclude, toMessageDto, type MessageDto } from "./message-dto";

export const MESSAGE_PAGE_SIZE = 50;

export interface MessagePage {
  /** Newest first. */
  messages: MessageDto[];
  /** Pass as `beforeSeq` to load the next (older) page; null when there is none. */
  nextBeforeSeq: number | null;
}

export async function listMessages(
  prisma: Prisma,
  options: { userId: string; conversationId: string; beforeSeq?: number; limit?: number },
): Promise<MessagePage> {
  await assertParticipant(prisma, options);
  const limit = options.limit ?? MESSAGE_PAGE_SIZE;
  const rows = await prisma.message.findMany({
    where: {
      conversationId: options.conversationId,
      ...(options.beforeSeq !== undefined ? { seq: { lt: options.beforeSeq } } : {}),
    },
    orderBy: { seq: "desc" },
    take: limit + 1,
    include: messageInclude,
  });
  const page = rows.slice(0, limit).map(toMessageDto);
  return { messages: page, nextBeforeSeq: rows.length > limit ? (page.at(-1)?.seq ?? null) : null };
}

export const SYNC_LIMIT = 500;

/** Everything after `afterSeq`, oldest first: what a reconnecting client missed. */
export async function listMessagesSince(
  prisma: Prisma,
  options: { userId: string; conversationId: string; afterSeq: number },
): Promise<{ messages: MessageDto[]; complete: boolean }> {
  await assertParticipant(prisma, options);
  const rows = await prisma.message.findMany({
    where: { conversationId: options.conversationId, seq: { gt: options.afterSeq } },
    orderBy: { seq: "asc" },
    take: SYNC_LIMIT + 1,
    include: messageInclude,
  });
  return { messages: rows.slice(0, SYNC_LIMIT).map(toMessageDto), complete: rows.length <= SYNC_LIMIT };
}
