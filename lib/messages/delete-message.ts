import { deleteMessageFiles } from "@/lib/attachments/delete-message-files";
import type { BlobStore } from "@/lib/attachments/blob-store";
import type { SessionUser } from "@/lib/auth/session-user";
import { AppError } from "@/lib/errors/app-error";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { lockMessage, nextChangeSeq, readMessage } from "./changed-message";
import type { MessageChangeDeps } from "./edit-message";

/**
 * Leaves a tombstone: the text, its earlier versions, its reactions and its mentions go; the row
 * stays so the conversation's seqs keep no gap. Authors delete their own messages, admins anyone's
 * (the tombstone says an admin did). Turns waiting to answer it end; agents' later turns skip it;
 * its files are deleted.
 * Deleting a deleted message returns its tombstone.
 */
export async function deleteMessage(
  deps: MessageChangeDeps & { stopTurn?: (dispatchId: string) => void; attachmentStore?: BlobStore },
  { user, messageId }: { user: SessionUser; messageId: string },
): Promise<MessageDto> {
  const running = await deps.prisma.$transaction(async (tx) => {
    const message = await lockMessage(tx, { messageId, userId: user.id });
    if (message.deletedAt) return null;
    if (message.authorUserId !== user.id && user.role !== "admin") {
      throw new AppError("forbidden", message.authorUserId ? "You can only delete your own messages (admins can delete anyone's)." : "Only admins can delete agents' and Chorus's messages.");
    }
    const changeSeq = await nextChangeSeq(tx, message.conversationId);
    await tx.message.update({
      where: { id: messageId },
      data: { content: "", tokenCount: 0, deletedAt: new Date(), deletedByUserId: user.id, changeSeq, version: 1, versionCount: 1 },
    });
    await tx.messageVersion.deleteMany({ where: { messageId } });
    await tx.messageReaction.deleteMany({ where: { messageId } });
    // Unread mention badges counted it: those not read yet go down.
    await tx.$executeRaw`
      UPDATE "read_states" r SET "unreadMentions" = GREATEST(r."unreadMentions" - 1, 0)
      FROM "message_mentions" mm
      WHERE mm."messageId" = ${messageId} AND mm."userId" = r."userId" AND r."conversationId" = mm."conversationId" AND r."lastReadSeq" < mm."seq"`;
    await tx.messageMention.deleteMany({ where: { messageId } });
    // Nobody will read an answer to a deleted question: waiting turns end, running ones are stopped.
    await tx.dispatch.updateMany({ where: { messageId, status: "pending" }, data: { status: "done", lastError: "its message was deleted" } });
    return tx.dispatch.findMany({ where: { messageId, status: "running" }, select: { id: true } });
  });
  for (const dispatch of running ?? []) deps.stopTurn?.(dispatch.id);
  // After the tombstone: nobody can be served them any more (the retention sweep removes any left).
  if (running && deps.attachmentStore) await deleteMessageFiles(deps.prisma, deps.attachmentStore, messageId);
  const tombstone = await readMessage(deps.prisma, messageId);
  if (running) deps.publisher.messageDeleted(tombstone);
  return tombstone;
}
