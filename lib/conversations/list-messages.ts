import type { Prisma } from "@/lib/db/open-database";
import { assertParticipant } from "./assert-participant";
import type { SyncResult } from "@/lib/realtime/events";
import { messageInclude, toMessageDto, type MessageDto } from "./message-dto";
import { withSourceStates } from "./source-states";

export const MESSAGE_PAGE_SIZE = 50;

export interface MessagePage {
  /** Newest first. */
  messages: MessageDto[];
  /** Pass as `beforeSeq` to load the next (older) page; null when there is none. */
  nextBeforeSeq: number | null;
  /**
   * The conversation's change number when the page was read (read first): every message of the
   * page shows at least the changes up to it, so a client catches up on changes from there.
   */
  lastChangeSeq: number;
}

export async function listMessages(
  prisma: Prisma,
  options: { userId: string; conversationId: string; beforeSeq?: number; limit?: number; aroundSeq?: number },
): Promise<MessagePage> {
  await assertParticipant(prisma, options);
  const limit = options.limit ?? MESSAGE_PAGE_SIZE;
  const lastChangeSeq = await changeSeqOf(prisma, options.conversationId);
  // Around a message: up to half a page after it (the newer ones follow by catch-up), the rest before.
  const beforeSeq = options.aroundSeq !== undefined ? options.aroundSeq + Math.floor(limit / 2) + 1 : options.beforeSeq;
  const rows = await prisma.message.findMany({
    where: {
      conversationId: options.conversationId,
      ...(beforeSeq !== undefined ? { seq: { lt: beforeSeq } } : {}),
    },
    orderBy: { seq: "desc" },
    take: limit + 1,
    include: messageInclude,
  });
  const page = await withSourceStates(prisma, rows.slice(0, limit).map(toMessageDto));
  return { messages: page, nextBeforeSeq: rows.length > limit ? (page.at(-1)?.seq ?? null) : null, lastChangeSeq };
}

export const SYNC_LIMIT = 500;

/**
 * Everything after `afterSeq`, oldest first: what a reconnecting client missed; with
 * `afterChangeSeq`, also the messages changed since (edits, deletions, reactions, versions).
 */
export async function listMessagesSince(
  prisma: Prisma,
  options: { userId: string; conversationId: string; afterSeq: number; afterChangeSeq?: number },
): Promise<SyncResult> {
  await assertParticipant(prisma, options);
  const lastChangeSeq = options.afterChangeSeq === undefined ? 0 : await changeSeqOf(prisma, options.conversationId);
  const rows = await prisma.message.findMany({
    where: { conversationId: options.conversationId, seq: { gt: options.afterSeq } },
    orderBy: { seq: "asc" },
    take: SYNC_LIMIT + 1,
    include: messageInclude,
  });
  const result: SyncResult = { messages: await withSourceStates(prisma, rows.slice(0, SYNC_LIMIT).map(toMessageDto)), complete: rows.length <= SYNC_LIMIT };
  if (options.afterChangeSeq !== undefined) result.changes = await listChangesSince(prisma, { ...options, afterChangeSeq: options.afterChangeSeq, lastChangeSeq });
  return result;
}

async function listChangesSince(
  prisma: Prisma,
  { conversationId, afterChangeSeq, afterSeq, lastChangeSeq }: { conversationId: string; afterChangeSeq: number; afterSeq: number; lastChangeSeq: number },
): Promise<NonNullable<SyncResult["changes"]>> {
  // Messages after afterSeq come whole in `messages`; changes matter for those held already.
  const rows = await prisma.message.findMany({
    where: { conversationId, changeSeq: { gt: afterChangeSeq }, seq: { lte: afterSeq } },
    orderBy: { changeSeq: "asc" },
    take: SYNC_LIMIT + 1,
    include: messageInclude,
  });
  const messages = await withSourceStates(prisma, rows.slice(0, SYNC_LIMIT).map(toMessageDto));
  const complete = rows.length <= SYNC_LIMIT;
  return { messages, complete, lastChangeSeq: complete ? Math.max(lastChangeSeq, afterChangeSeq) : messages.at(-1)!.changeSeq };
}

async function changeSeqOf(prisma: Prisma, conversationId: string): Promise<number> {
  const conversation = await prisma.conversation.findUnique({ where: { id: conversationId }, select: { lastChangeSeq: true } });
  return conversation?.lastChangeSeq ?? 0;
}
