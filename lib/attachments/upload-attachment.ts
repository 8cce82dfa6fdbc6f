import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";
import { refineSingleLine } from "@/lib/validation/plain-text";
import { toAttachmentDto, type AttachmentDto } from "./attachment-dto";
import type { AttachmentLimits } from "./attachment-limits";
import { assertWithinQuota, insertWithinQuota } from "./attachment-quota";
import { formatBytes } from "./format-bytes";
import { attachmentText } from "./attachment-text";
import type { BlobStore } from "./blob-store";
import { prepareImage } from "./prepare-image";
import { sniffFile } from "./sniff-file";

export const attachmentName = z
  .string()
  .trim()
  .min(1, "The file needs a name.")
  .max(255, "File names can be at most 255 characters.")
  .refine((name) => !/[/\\]/.test(name), "File names cannot contain / or \\ (a path): send the file under its own name.")
  .superRefine(refineSingleLine("File names"));

export interface UploadAttachmentInput {
  userId: string;
  conversationId: string;
  name: string;
  bytes: Uint8Array;
}

/**
 * A file a person attaches in a conversation they can post in, kept until they send it with a
 * message (or swept as abandoned). Checked before anything is stored: the name, the size limit,
 * the person's quota, the type sniffed from the bytes; an image is stored upright without its
 * metadata, with a thumbnail; a text file's or a PDF's text is kept for agents. The quota is
 * checked again as the row is written (uploads finishing at once), and a refusal then removes the
 * blobs already written: a refusal leaves nothing behind.
 */
export async function uploadAttachment(prisma: Prisma, store: BlobStore, limits: AttachmentLimits, input: UploadAttachmentInput): Promise<AttachmentDto> {
  const parsedName = attachmentName.safeParse(input.name);
  if (!parsedName.success) throw new AppError("bad_request", parsedName.error.issues[0]!.message);
  const name = parsedName.data;
  await assertCanAttach(prisma, input);
  if (input.bytes.length > limits.maxBytes) throw new AppError("payload_too_large", `${name} is ${formatBytes(input.bytes.length)}; files can be at most ${formatBytes(limits.maxBytes)}.`);
  // Early, before the work of reading the file; insertWithinQuota is the check that holds.
  await assertWithinQuota(prisma, { userId: input.userId, adding: input.bytes.length, quotaBytes: limits.quotaBytes });

  const sniffed = await sniffFile(name, input.bytes, { maxChars: limits.keptChars });
  const { mediaType, kind } = sniffed;
  const image = kind === "image" ? await prepareImage(name, input.bytes, mediaType) : null;
  const text = await attachmentText(name, input.bytes, sniffed, limits);
  const bytes = image?.bytes ?? input.bytes;

  const id = randomUUID();
  const storageKey = id;
  const thumbnailKey = image ? `${id}-thumbnail` : null;
  const written: string[] = [];
  try {
    await store.put(storageKey, bytes, mediaType);
    written.push(storageKey);
    if (image && thumbnailKey) {
      await store.put(thumbnailKey, image.thumbnail, "image/webp");
      written.push(thumbnailKey);
    }
    const row = await insertWithinQuota(prisma, { userId: input.userId, adding: bytes.length, quotaBytes: limits.quotaBytes }, (tx) =>
      tx.attachment.create({
        data: { id, conversationId: input.conversationId, uploaderUserId: input.userId, name, mediaType, bytes: bytes.length, storageKey, thumbnailKey, width: image?.width ?? null, height: image?.height ?? null, text },
        // Not the text back: up to millions of characters the answer does not carry.
        select: { id: true, name: true, mediaType: true, bytes: true, width: true, height: true, thumbnailKey: true },
      }),
    );
    return toAttachmentDto(row);
  } catch (error) {
    await Promise.all(written.map((key) => store.delete(key).catch((cause: unknown) => log.error("attachment blob left behind", { key, error: cause }))));
    throw error;
  }
}

/** A conversation the person takes part in and may post in; anything else looks like nothing. */
async function assertCanAttach(prisma: Prisma, { userId, conversationId }: { userId: string; conversationId: string }): Promise<void> {
  const conversation = await prisma.conversation.findFirst({
    where: { id: conversationId, participants: { some: { userId } } },
    select: { archivedAt: true },
  });
  // Forks have no participants of their own: they are never found here.
  if (!conversation) throw new AppError("not_found", "That conversation does not exist, or you are not in it.");
  if (conversation.archivedAt) throw new AppError("conflict", "This conversation is archived, so it is read-only: unarchive it to attach files.");
}
