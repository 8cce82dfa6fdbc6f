import { z } from "zod";
import type { UserRole } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { assertAnotherAdminRemains, deleteSessionsOf } from "./admin-guard";

export const ROLES = ["member", "admin", "debug"] as const satisfies readonly UserRole[];

const personId = z.string({ error: "Choose a person." }).min(1, "Choose a person.").max(100, "Choose a person.");
export const changeRoleSchema = z.object({ userId: personId, role: z.enum(ROLES, { error: "Choose member, admin or debug." }) });
export const personSchema = z.object({ userId: personId });

export interface PersonRow {
  id: string;
  name: string;
  email: string;
  role: UserRole;
  joinedAt: string;
  lastSeenAt: string | null;
  deactivatedAt: string | null;
}

export interface PeopleDeps {
  prisma: Prisma;
  /** Ends a deleted session's live connections on every node. */
  endSession(sessionId: string): void;
}

/** Everyone with an account (deleted accounts are gone from the list), admins first, then by name. */
export async function listPeople(prisma: Prisma, { userId }: { userId?: string } = {}): Promise<PersonRow[]> {
  const rows = await prisma.user.findMany({
    where: { deletedAt: null, ...(userId ? { id: userId } : {}) },
    orderBy: [{ role: "asc" }, { name: "asc" }],
    select: { id: true, name: true, email: true, role: true, createdAt: true, lastSeenAt: true, deactivatedAt: true },
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    joinedAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
  }));
}

/** A new role, effective on the person's next request; the last active admin keeps theirs. */
export async function changeRole(prisma: Prisma, { userId, role }: z.infer<typeof changeRoleSchema>): Promise<PersonRow> {
  await prisma.$transaction(async (tx) => {
    await findPerson(tx, userId);
    if (role !== "admin") await assertAnotherAdminRemains(tx, userId, "This is the only admin: make someone else an admin first.");
    await tx.user.update({ where: { id: userId }, data: { role } });
  });
  return personRow(prisma, userId);
}

/**
 * Deactivates an account at once: its sessions end (and with them its live connections on every
 * node, after the commit), sign-in and its API tokens are refused while it stays deactivated. The
 * person's messages, memberships and everything else stay, for reactivation.
 */
export async function deactivatePerson({ prisma, endSession }: PeopleDeps, { userId, actorId }: { userId: string; actorId: string }): Promise<PersonRow> {
  if (userId === actorId) throw new AppError("bad_request", "You cannot deactivate your own account. Another admin can.");
  const sessionIds = await prisma.$transaction(async (tx) => {
    const person = await findPerson(tx, userId);
    if (person.deactivatedAt) return [];
    await assertAnotherAdminRemains(tx, userId, "This is the only admin: make someone else an admin first.");
    await tx.user.update({ where: { id: userId }, data: { deactivatedAt: new Date() } });
    return deleteSessionsOf(tx, userId);
  });
  sessionIds.forEach(endSession);
  return personRow(prisma, userId);
}

/** Lets a deactivated person sign in again. */
export async function reactivatePerson(prisma: Prisma, { userId }: { userId: string }): Promise<PersonRow> {
  await findPerson(prisma, userId);
  await prisma.user.update({ where: { id: userId }, data: { deactivatedAt: null } });
  return personRow(prisma, userId);
}

async function findPerson(prisma: Pick<Prisma, "user">, userId: string) {
  const person = await prisma.user.findFirst({ where: { id: userId, deletedAt: null }, select: { deactivatedAt: true } });
  if (!person) throw new AppError("not_found", "This person no longer has an account. Reload the list.");
  return person;
}

async function personRow(prisma: Prisma, userId: string): Promise<PersonRow> {
  const row = (await listPeople(prisma, { userId }))[0];
  if (!row) throw new AppError("not_found", "This person no longer has an account. Reload the list.");
  return row;
}
