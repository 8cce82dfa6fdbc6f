import type { Transaction } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";

/**
 * Refuses, with `refusal`, a change that would leave no active admin: `userId` is about to stop
 * being one (demoted, deactivated, deleted). The admins' rows are locked in one order first, so
 * two such changes at the same moment are counted one after the other and cannot both pass.
 */
export async function assertAnotherAdminRemains(tx: Transaction, userId: string, refusal: string): Promise<void> {
  const admins = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "users" WHERE "role" = 'admin' AND "deletedAt" IS NULL AND "deactivatedAt" IS NULL ORDER BY "id" FOR UPDATE`;
  if (admins.some((admin) => admin.id === userId) && admins.length === 1) throw new AppError("conflict", refusal);
}

/** Deletes every session of the person and returns their ids, so their live connections can be ended after the commit. */
export async function deleteSessionsOf(tx: Transaction, userId: string): Promise<string[]> {
  const sessions = await tx.session.findMany({ where: { userId }, select: { id: true } });
  await tx.session.deleteMany({ where: { userId } });
  return sessions.map((session) => session.id);
}
