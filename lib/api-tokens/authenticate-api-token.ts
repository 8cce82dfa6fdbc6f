import type { SessionUser, UserRole } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { DEACTIVATED } from "@/lib/people/sign-up-gate";
import { hashToken, TOKEN_PREFIX } from "./token-secret";

/** "Last used" is kept to the minute: a busy bot does not write on every request. */
const LAST_USED_PRECISION_MS = 60_000;

/** The user an `Authorization: Bearer chorus_…` token acts for; unknown or revoked tokens are refused. */
export async function authenticateApiToken(prisma: Prisma, token: string): Promise<SessionUser> {
  const refused = new AppError("unauthorized", "This API token is not valid: it was revoked or mistyped. Create a new one in Settings → API tokens.");
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) throw refused;
  const row = await prisma.apiToken.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, revokedAt: true, lastUsedAt: true, user: { select: { id: true, name: true, email: true, role: true, deactivatedAt: true } } },
  });
  if (!row || row.revokedAt) throw refused;
  if (row.user.deactivatedAt) throw new AppError("forbidden", DEACTIVATED);
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_PRECISION_MS) {
    await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  const { id, name, email, role } = row.user;
  return { id, name, email, role: role as UserRole };
}
