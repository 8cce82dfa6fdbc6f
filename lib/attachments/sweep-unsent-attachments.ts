import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import type { BlobStore } from "./blob-store";

/**
 * Uploads never sent with a message, older than `unsentHours`: their rows, then their blobs (a
 * blob whose row is gone is never served; one the store fails to delete is logged by its key).
 * Safe on several nodes at once: each batch takes its rows with SKIP LOCKED.
 */
export async function sweepUnsentAttachments(prisma: Prisma, store: BlobStore, { unsentHours, batchSize = 200, shouldStop = () => false }: { unsentHours: number; batchSize?: number; shouldStop?: () => boolean }): Promise<number> {
  let swept = 0;
  for (;;) {
    const rows = await prisma.$queryRaw<{ storageKey: string; thumbnailKey: string | null }[]>`
      DELETE FROM "attachments" WHERE "id" IN (
        SELECT "id" FROM "attachments"
        WHERE "messageId" IS NULL AND "createdAt" < now() - ${unsentHours} * interval '1 hour'
        LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)
      RETURNING "storageKey", "thumbnailKey"`;
    const keys = rows.flatMap((row) => [row.storageKey, ...(row.thumbnailKey ? [row.thumbnailKey] : [])]);
    await Promise.all(keys.map((key) => store.delete(key).catch((error: unknown) => log.error("an abandoned upload's blob could not be deleted", { key, error }))));
    swept += rows.length;
    if (rows.length < batchSize || shouldStop()) return swept;
  }
}
