import type { Prisma } from "@/lib/db/open-database";
import type { BlobStore } from "./blob-store";
import { deleteBlobs } from "./sweep-discarded-attachments";

/** A deleted message's files: their rows, then their bytes. */
export async function deleteMessageFiles(prisma: Prisma, store: BlobStore, messageId: string): Promise<void> {
  const rows = await prisma.$queryRaw<{ storageKey: string; thumbnailKey: string | null }[]>`
    DELETE FROM "attachments" WHERE "messageId" = ${messageId} RETURNING "storageKey", "thumbnailKey"`;
  await deleteBlobs(store, rows);
}
