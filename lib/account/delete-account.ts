import { randomUUID } from "node:crypto";
import { isAPIError } from "better-auth/api";
import { z } from "zod";
import type { Auth } from "@/lib/auth/create-auth";
import { expectedAuthError } from "@/lib/auth/sign-in-out";
import { MAX_PASSWORD_LENGTH } from "@/lib/auth/password-policy";
import type { BlobStore } from "@/lib/attachments/blob-store";
import { deleteAvatarBlob, replaceAvatarImage } from "@/lib/avatars/avatar-image";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { assertAnotherAdminRemains, deleteSessionsOf } from "@/lib/people/admin-guard";

export const DELETED_USER_NAME = "Deleted user";
const WRONG_PASSWORD = "That is not your password.";

export const deleteAccountSchema = z.object({
  password: z.string({ error: "Enter your password to delete your account." }).min(1, "Enter your password to delete your account.").max(MAX_PASSWORD_LENGTH, WRONG_PASSWORD),
});

export interface DeleteAccountDeps {
  auth: Auth;
  prisma: Prisma;
  /** Where their avatar is: deleted once the account is. */
  store: BlobStore;
  /** Ends a deleted session's live connections on every node. */
  endSession(sessionId: string): void;
}

/**
 * Deletes the signed-in person's account, proven by their password (throttled as sign-in is).
 * The row stays, so their messages stay where they were, under "Deleted user"; in one
 * transaction it loses what identified them (name, email, handle, avatar) and the account
 * loses its password, sessions, API tokens, project memberships and what agents remembered of
 * them, and their browsers' push subscriptions. Their connections end everywhere, and their picture's blob is deleted, after the commit.
 * The last admin cannot leave this way.
 */
export async function deleteAccount({ auth, prisma, store, endSession }: DeleteAccountDeps, { userId, password, headers }: { userId: string; password: string; headers: Headers }): Promise<void> {
  try {
    await auth.api.verifyPassword({ body: { password }, headers });
  } catch (error) {
    if (isAPIError(error) && error.body?.code === "INVALID_PASSWORD") throw new AppError("bad_request", WRONG_PASSWORD, { password: WRONG_PASSWORD });
    throw expectedAuthError(error) ?? error;
  }
  const { sessionIds, picture } = await prisma.$transaction(async (tx) => {
    await assertAnotherAdminRemains(tx, userId, "You are the only admin: make someone else an admin before deleting your account.");
    // Their row locked from here: an avatar upload finishing meanwhile waits, then finds the account gone.
    const { previous: picture } = await replaceAvatarImage(tx, { userId, key: null });
    const marker = randomUUID().slice(0, 8);
    await tx.user.update({
      where: { id: userId },
      data: { name: DELETED_USER_NAME, email: `deleted-${userId}@deleted.invalid`, handle: `deleted-${marker}`, avatarColor: null, role: "member", deletedAt: new Date() },
    });
    const sessionIds = await deleteSessionsOf(tx, userId);
    await tx.account.deleteMany({ where: { userId } });
    await tx.apiToken.deleteMany({ where: { userId } });
    await tx.membership.deleteMany({ where: { userId } });
    await tx.episode.deleteMany({ where: { userId } });
    await tx.pushSubscription.deleteMany({ where: { userId } });
    return { sessionIds, picture };
  });
  sessionIds.forEach(endSession);
  await deleteAvatarBlob(store, picture);
}
