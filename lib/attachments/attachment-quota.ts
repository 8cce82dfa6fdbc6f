import type { Prisma, Transaction } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { formatBytes } from "./format-bytes";

/** Refused (413, with what to do) when `adding` more bytes would take the person past their quota. */
export async function assertWithinQuota(db: Prisma | Transaction, { userId, adding, quotaBytes }: { userId: string; adding: number; quotaBytes: number }): Promise<void> {
  const used = (await db.attachment.aggregate({ where: { uploaderUserId: userId }, _sum: { bytes: true } }))._sum.bytes ?? 0;
  if (used + adding > quotaBytes) {
    throw new AppError("payload_too_large", `Your files take ${formatBytes(used)} of your ${formatBytes(quotaBytes)}; this one (${formatBytes(adding)}) does not fit. Delete messages with files you no longer need.`);
  }
}

/**
 * Runs `insert` only if `adding` bytes still fit the person's quota, checked and inserted as one
 * step: the person's uploads take a transaction-scoped advisory lock in turn, so two finishing at
 * once cannot both count the quota before either is written (on PostgreSQL; PGlite runs one
 * transaction at a time anyway). Other people's uploads do not wait.
 */
export function insertWithinQuota<T>(prisma: Prisma, quota: { userId: string; adding: number; quotaBytes: number }, insert: (tx: Transaction) => Promise<T>): Promise<T> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('chorus.attachment-quota'), hashtext(${quota.userId}))`;
    await assertWithinQuota(tx, quota);
    return insert(tx);
  });
}
