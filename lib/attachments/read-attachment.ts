import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import type { BlobStore } from "./blob-store";

export interface AttachmentFile {
  name: string;
  mediaType: string;
  bytes: Uint8Array;
}

/**
 * An attachment's bytes (or its thumbnail's) for a participant of its conversation; an upload not
 * yet sent, for its uploader only; a deleted message's, for no one. Anyone else is told it does
 * not exist.
 */
export async function readAttachment(prisma: Prisma, store: BlobStore, { userId, attachmentId, thumbnail = false }: { userId: string; attachmentId: string; thumbnail?: boolean }): Promise<AttachmentFile> {
  const notFound = new AppError("not_found", "That file does not exist, or you cannot see it.");
  const attachment = await prisma.attachment.findFirst({
    where: {
      id: attachmentId,
      conversation: { participants: { some: { userId } } },
      // Sent with a message still there, or not sent yet and the person's own upload.
      OR: [{ message: { deletedAt: null } }, { messageId: null, uploaderUserId: userId }],
    },
    select: { name: true, mediaType: true, storageKey: true, thumbnailKey: true },
  });
  const key = thumbnail ? attachment?.thumbnailKey : attachment?.storageKey;
  if (!attachment || !key) throw notFound;
  const bytes = await store.get(key);
  if (!bytes) throw notFound;
  return { name: attachment.name, mediaType: thumbnail ? "image/webp" : attachment.mediaType, bytes };
}
