import type { BlobStore } from "@/lib/attachments/blob-store";
import type { Prisma, Transaction } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";
import { avatarOf, isAvatarKey, type PersonAvatar } from "./avatar-rules";

/**
 * Points a person's row at another avatar blob (or none), in one statement that locks the row:
 * of two changes at once, the second replaces (and so deletes) the first's blob. Returns how the
 * person now looks and the key replaced, whose blob the caller deletes once this has committed.
 */
export async function replaceAvatarImage(prisma: Prisma | Transaction, { userId, key }: { userId: string; key: string | null }): Promise<{ avatar: PersonAvatar; previous: string | null }> {
  const [row] = await prisma.$queryRaw<{ image: string | null; avatarColor: string | null; previous: string | null }[]>`
    UPDATE "users" u SET "image" = ${key}, "updatedAt" = now()
    FROM (SELECT "id", "image" FROM "users" WHERE "id" = ${userId} AND "deletedAt" IS NULL FOR UPDATE) previous
    WHERE u."id" = previous."id"
    RETURNING u."image", u."avatarColor", previous."image" AS "previous"`;
  if (!row) throw new AppError("not_found", "Your account no longer exists.");
  return { avatar: avatarOf({ id: userId, ...row }), previous: row.previous };
}

/** A replaced avatar's blob, after the change committed: one that cannot be deleted is logged, never thrown (nothing serves it any more). */
export async function deleteAvatarBlob(store: BlobStore, key: string | null): Promise<void> {
  if (!isAvatarKey(key)) return;
  await store.delete(key).catch((error: unknown) => log.error("a replaced avatar's blob could not be deleted; it is served to no one", { key, error }));
}
