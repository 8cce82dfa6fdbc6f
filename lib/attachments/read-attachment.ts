import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import type { AttachmentWhereInput } from "@/lib/generated/prisma/models";
import type { BlobStore } from "./blob-store";

export interface AttachmentFile {
  name: string;
  mediaType: string;
  bytes: Uint8Array;
}

/** What anyone who may not see a file is told, whether it exists or not. */
export const attachmentNotFound = () => new AppError("not_found", "That file does not exist, or you cannot see it.");

/**
 * The attachment, if the person may see it: a participant of its conversation; an upload not yet
 * sent, its uploader only; a deleted message's, no one. Every read of an attachment (its bytes,
 * thumbnail or text) goes through this one filter.
 */
export function visibleAttachment(userId: string, attachmentId: string): AttachmentWhereInput {
  return {
    id: attachmentId,
    conversation: { participants: { some: { userId } } },
    // Sent with a message still there, or not sent yet and the person's own upload.
    OR: [{ message: { deletedAt: null } }, { messageId: null, uploaderUserId: userId }],
  };
}

/** An attachment's bytes (or its thumbnail's) for those who may see it; anyone else is told it does not exist. */
export async function readAttachment(prisma: Prisma, store: BlobStore, { userId, attachmentId, thumbnail = false }: { userId: string; attachmentId: string; thumbnail?: boolean }): Promise<AttachmentFile> {
  const attachment = await prisma.attachment.findFirst({
    where: visibleAttachment(userId, attachmentId),
    select: { name: true, mediaType: true, storageKey: true, thumbnailKey: true },
  });
  const key = thumbnail ? attachment?.thumbnailKey : attachment?.storageKey;
  if (!attachment || !key) throw attachmentNotFound();
  const bytes = await store.get(key);
  if (!bytes) throw attachmentNotFound();
  return { name: attachment.name, mediaType: thumbnail ? "image/webp" : attachment.mediaType, bytes };
}
