import { AppError } from "@/lib/errors/app-error";
import type { MessageDto, ReactionSummary } from "@/lib/conversations/message-dto";
import { MAX_DISTINCT_REACTIONS } from "@/lib/reactions/emoji-catalog";
import { assertWritable, lockMessage, nextChangeSeq, readMessage } from "./changed-message";
import type { MessageChangeDeps } from "./edit-message";

export interface ReactionUpdate {
  conversationId: string;
  messageId: string;
  changeSeq: number;
  reactions: ReactionSummary[];
  /**
   * The message as it is now, reactions and all. Clients keep this whole copy: a copy given only
   * the new reactions and change number would pass for current while holding text from before
   * an edit it missed (disconnected), and no catch-up would ever replace it.
   */
  message: MessageDto;
}

/**
 * Adds (`reacted: true`) or removes the person's emoji on a message; doing what is already done
 * changes nothing and announces nothing. The emoji was checked against the catalogue already.
 */
export async function reactToMessage(
  deps: MessageChangeDeps,
  { userId, messageId, emoji, reacted }: { userId: string; messageId: string; emoji: string; reacted: boolean },
): Promise<ReactionUpdate> {
  const { update, changed } = await deps.prisma.$transaction(async (tx) => {
    const message = await lockMessage(tx, { messageId, userId });
    if (message.deletedAt) throw new AppError("conflict", "This message was deleted, so it can't take reactions.");
    assertWritable(message);
    const mine = { messageId_userId_emoji: { messageId, userId, emoji } };
    const exists = (await tx.messageReaction.findUnique({ where: mine, select: { id: true } })) !== null;
    if (reacted && !exists) {
      const distinct = await tx.messageReaction.findMany({ where: { messageId }, distinct: ["emoji"], select: { emoji: true } });
      if (!distinct.some((row) => row.emoji === emoji) && distinct.length >= MAX_DISTINCT_REACTIONS) {
        throw new AppError("conflict", `This message already has ${MAX_DISTINCT_REACTIONS} different reactions, the most one message can have. React with one of those.`);
      }
      await tx.messageReaction.create({ data: { messageId, userId, emoji } });
    } else if (!reacted && exists) {
      await tx.messageReaction.delete({ where: mine });
    }
    const changed = reacted !== exists;
    const changeSeq = changed ? await nextChangeSeq(tx, message.conversationId) : (await tx.message.findUniqueOrThrow({ where: { id: messageId }, select: { changeSeq: true } })).changeSeq;
    if (changed) await tx.message.update({ where: { id: messageId }, data: { changeSeq } });
    const current = await readMessage(tx, messageId);
    return { changed, update: { conversationId: message.conversationId, messageId, changeSeq, reactions: current.reactions, message: current } };
  });
  if (changed) deps.publisher.messageUpdated(update.message);
  return update;
}
