import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { hashToken } from "@/lib/api-tokens/token-secret";
import type { UserRole } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { ROLES } from "./manage-people";

export const INVITE_LIFETIMES_DAYS = [1, 7, 30] as const;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Invites stay listed until this long after their expiry, so an admin sees who came in through which. */
const LISTED_AFTER_END_MS = 30 * DAY_MS;

export const createInviteSchema = z.object({
  role: z.enum(ROLES, { error: "Choose member, admin or debug." }),
  expiresInDays: z.coerce.number().refine((days) => (INVITE_LIFETIMES_DAYS as readonly number[]).includes(days), "Choose 1, 7 or 30 days."),
});
export const revokeInviteSchema = z.object({ inviteId: z.string().min(1, "Choose an invite.").max(100, "Choose an invite.") });
/** The secret as a link carries it: refused here before any lookup when it cannot be one. */
export const inviteTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, "This invite link is not valid: check you copied all of it.");

export type InviteStatus = "pending" | "used" | "expired" | "revoked";

export interface InviteRow {
  id: string;
  role: UserRole;
  status: InviteStatus;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  usedBy: string | null;
}

/** A new invite link's secret, returned once; only its hash is stored. */
export async function createInvite(prisma: Prisma, { actorId, role, expiresInDays }: { actorId: string } & z.infer<typeof createInviteSchema>): Promise<{ invite: InviteRow; token: string }> {
  const token = randomBytes(24).toString("base64url");
  const row = await prisma.invite.create({
    data: { id: randomUUID(), tokenHash: hashToken(token), role, createdById: actorId, expiresAt: new Date(Date.now() + expiresInDays * DAY_MS) },
    select: inviteColumns,
  });
  return { invite: inviteRow(row), token };
}

export async function listInvites(prisma: Prisma): Promise<InviteRow[]> {
  const rows = await prisma.invite.findMany({
    where: { expiresAt: { gt: new Date(Date.now() - LISTED_AFTER_END_MS) } },
    orderBy: { createdAt: "desc" },
    select: inviteColumns,
  });
  return rows.map(inviteRow);
}

/** A revoked link no longer signs anyone up; one already used stays as it was. */
export async function revokeInvite(prisma: Prisma, { inviteId }: { inviteId: string }): Promise<InviteRow> {
  const { count } = await prisma.invite.updateMany({ where: { id: inviteId, usedAt: null, revokedAt: null }, data: { revokedAt: new Date() } });
  const row = await prisma.invite.findUnique({ where: { id: inviteId }, select: inviteColumns });
  if (!row) throw new AppError("not_found", "This invite no longer exists. Reload the list.");
  if (count === 0 && row.usedAt) throw new AppError("conflict", "This invite was already used; deactivate the person instead if they should not be here.");
  return inviteRow(row);
}

/** What the sign-up page says about a link before the form is filled in: its role, or why it cannot be used. */
export async function readInvite(prisma: Prisma, token: string): Promise<{ role: UserRole; expiresAt: string }> {
  const row = await prisma.invite.findUnique({ where: { tokenHash: hashToken(parseToken(token)) }, select: inviteColumns });
  const status = row ? statusOf(row) : null;
  if (!row || status !== "pending") throw refusal(status);
  return { role: row.role, expiresAt: row.expiresAt.toISOString() };
}

/**
 * Claims the invite for a sign-up by `email`, once: a conditional update, so two sign-ups with
 * one link at the same moment cannot both have it. The same email may claim it again (its first
 * attempt may have failed after the claim, e.g. on a handle taken a moment before).
 */
export async function claimInvite(prisma: Prisma, { token, email }: { token: string; email: string }): Promise<UserRole> {
  const tokenHash = hashToken(parseToken(token));
  const claimed = await prisma.$queryRaw<{ role: UserRole }[]>`
    UPDATE "invites" SET "usedAt" = now(), "usedByEmail" = ${email}
    WHERE "tokenHash" = ${tokenHash} AND "revokedAt" IS NULL AND "expiresAt" > now()
      AND ("usedAt" IS NULL OR ("usedByEmail" = ${email} AND "usedById" IS NULL))
    RETURNING "role"::text AS "role"`;
  if (claimed[0]) return claimed[0].role;
  const row = await prisma.invite.findUnique({ where: { tokenHash }, select: inviteColumns });
  throw refusal(row ? statusOf(row) : null);
}

/** The account the claimed invite created, for the admin's list. */
export async function recordInviteUse(prisma: Prisma, { token, userId, email }: { token: string; userId: string; email: string }): Promise<void> {
  await prisma.invite.updateMany({ where: { tokenHash: hashToken(token), usedByEmail: email, usedById: null }, data: { usedById: userId } });
}

const inviteColumns = {
  id: true,
  role: true,
  createdAt: true,
  expiresAt: true,
  usedAt: true,
  usedByEmail: true,
  revokedAt: true,
  createdBy: { select: { name: true } },
  usedBy: { select: { name: true } },
} as const;

interface InviteRecord {
  id: string;
  role: UserRole;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  usedByEmail: string | null;
  revokedAt: Date | null;
  createdBy: { name: string };
  usedBy: { name: string } | null;
}

function statusOf(row: Pick<InviteRecord, "usedAt" | "revokedAt" | "expiresAt">): InviteStatus {
  if (row.usedAt) return "used";
  if (row.revokedAt) return "revoked";
  return row.expiresAt.getTime() <= Date.now() ? "expired" : "pending";
}

function inviteRow(row: InviteRecord): InviteRow {
  return {
    id: row.id,
    role: row.role,
    status: statusOf(row),
    createdBy: row.createdBy.name,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    usedBy: row.usedBy?.name ?? row.usedByEmail,
  };
}

function parseToken(token: string): string {
  const parsed = inviteTokenSchema.safeParse(token);
  if (!parsed.success) throw refusal(null);
  return parsed.data;
}

const refusals: Record<Exclude<InviteStatus, "pending"> | "unknown", string> = {
  used: "This invite link was already used. Ask an admin for a new one.",
  expired: "This invite link has expired. Ask an admin for a new one.",
  revoked: "This invite link was withdrawn by an admin. Ask an admin for a new one.",
  unknown: "This invite link is not valid: check you copied all of it, or ask an admin for a new one.",
};

function refusal(status: InviteStatus | null): AppError {
  const message = refusals[status === null || status === "pending" ? "unknown" : status];
  return new AppError("bad_request", message, { invite: message });
}
