import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import type { BlobStore } from "./blob-store";

/** Removes rows' blobs from the store; one that cannot be deleted is logged by its key, never thrown. */
export async function deleteBlobs(store: BlobStore, rows: { storageKey: string; thumbnailKey: string | null }[]): Promise<void> {
  const keys = rows.flatMap((row) => [row.storageKey, ...(row.thumbnailKey ? [row.thumbnailKey] : [])]);
  await Promise.all(keys.map((key) => store.delete(key).catch((error: unknown) => log.error("an attachment's blob could not be deleted; it is served to no one", { key, error }))));
}

/**
 * Files nobody can see any more: uploads never sent with a message, older than `unsentHours`, and
 * the files of deleted messages (deleting a message removes them at once; this catches any left).
 * Their rows go first, then their blobs (a blob whose row is gone is never served; one the store
 * fails to delete is logged by its key). Safe on several nodes at once: each batch takes its rows
 * with SKIP LOCKED.
 */
export async function sweepDiscardedAttachments(prisma: Prisma, store: BlobStore, { unsentHours, batchSize = 200, shouldStop = () => false }: { unsentHours: number; batchSize?: number; shouldStop?: () => boolean }): Promise<number> {
  let swept = 0;
  for (;;) {
    const rows = await prisma.$queryRaw<{ storageKey: string; thumbnailKey: string | null }[]>`
      DELETE FROM "attachments" WHERE "id" IN (
        SELECT "id" FROM "attachments"
        WHERE ("messageId" IS NULL AND "createdAt" < now() - ${unsentHours} * interval '1 hour')
           OR "messageId" IN (SELECT "id" FROM "messages" WHERE "deletedAt" IS NOT NULL)
        LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)
      RETURNING "storageKey", "thumbnailKey"`;
    await deleteBlobs(store, rows);
    swept += rows.length;
    if (rows.length < batchSize || shouldStop()) return swept;
  }
}
