import type { Prisma, Transaction } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { toAttachmentDto, type AttachmentDto } from "./attachment-dto";

export interface AttachmentsToSend {
  userId: string;
  conversationId: string;
  attachmentIds: string[];
}

/**
 * Why these files cannot be sent with a message here, checked before it is posted: too many, or
 * one that is gone (swept, or never uploaded), someone else's, of another conversation, or sent
 * already.
 */
export async function checkAttachmentsToSend(prisma: Prisma, { userId, conversationId, attachmentIds }: AttachmentsToSend, perMessage: number): Promise<void> {
  if (attachmentIds.length > perMessage) throw new AppError("bad_request", `At most ${perMessage} files can be sent with one message; this one has ${attachmentIds.length}.`);
  const rows = await prisma.attachment.findMany({ where: { id: { in: attachmentIds } }, select: { id: true, name: true, uploaderUserId: true, conversationId: true, messageId: true } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const id of attachmentIds) {
    const row = byId.get(id);
    if (!row || row.uploaderUserId !== userId) throw new AppError("bad_request", "One of the files is not one you uploaded here, or it was removed (files not sent within a day are). Attach it again.");
    if (row.conversationId !== conversationId) throw new AppError("bad_request", `${row.name} was uploaded in another conversation: attach it here again.`);
    if (row.messageId !== null) throw new AppError("conflict", `${row.name} was already sent with another message: attach it again to send it twice.`);
  }
}

/**
 * Gives the files to the message being posted, in the order given, inside the post's transaction.
 * A file taken meanwhile (the same upload sent from two tabs) fails the whole post.
 */
export async function attachToMessage(tx: Transaction, { userId, conversationId, attachmentIds }: AttachmentsToSend, messageId: string): Promise<AttachmentDto[]> {
  const bound = await tx.$executeRaw`
    UPDATE "attachments" a SET "messageId" = ${messageId}, "position" = ids.position
    FROM unnest(${attachmentIds}::text[]) WITH ORDINALITY AS ids(id, position)
    WHERE a."id" = ids.id AND a."uploaderUserId" = ${userId} AND a."conversationId" = ${conversationId} AND a."messageId" IS NULL`;
  if (bound !== attachmentIds.length) throw new AppError("conflict", "One of the files was sent with another message just now: attach it again to send it twice.");
  const rows = await tx.attachment.findMany({ where: { messageId }, orderBy: { position: "asc" } });
  return rows.map(toAttachmentDto);
}
