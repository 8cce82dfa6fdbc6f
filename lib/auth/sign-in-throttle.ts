import type { Prisma } from "@/lib/db/open-database";

/** How many attempts a key gets in a window before each further one must wait. */
export const THROTTLE_WINDOW_S = 15 * 60;
export const MAX_BLOCK_S = 15 * 60;
const FREE_ATTEMPTS = { account: 5, address: 20 } as const;

export type ThrottleKind = keyof typeof FREE_ATTEMPTS;
export interface ThrottleKey {
  kind: ThrottleKind;
  value: string;
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterS: number };

/**
 * Slows down guessing, shared by every node (it lives in the database) and by every entry point
 * (the sign-in form and the auth API both go through better-auth's hooks). Each attempt is
 * counted before the password is checked, so a burst of parallel guesses is counted too; past
 * the free attempts, each attempt makes the next one wait longer (2 s, 4 s, … up to 15 minutes).
 * Keys are per account and per client address: one account's wrong attempts never lock out
 * another, and a request without a known address is throttled by account only.
 */
export async function takeAttempt(prisma: Prisma, keys: ThrottleKey[]): Promise<ThrottleVerdict> {
  let verdict: ThrottleVerdict = { allowed: true };
  for (const key of keys) {
    const [row] = await prisma.$queryRaw<{ attempts: number; blockedS: number | null }[]>`
      INSERT INTO "sign_in_throttles" AS t ("key", "attempts", "windowStartedAt")
      VALUES (${storageKey(key)}, 1, now())
      ON CONFLICT ("key") DO UPDATE SET
        "attempts" = CASE
          WHEN t."blockedUntil" > now() THEN t."attempts"
          WHEN t."windowStartedAt" < now() - ${THROTTLE_WINDOW_S} * interval '1 second' THEN 1
          ELSE t."attempts" + 1 END,
        "windowStartedAt" = CASE
          WHEN (t."blockedUntil" IS NULL OR t."blockedUntil" <= now()) AND t."windowStartedAt" < now() - ${THROTTLE_WINDOW_S} * interval '1 second' THEN now()
          ELSE t."windowStartedAt" END
      RETURNING "attempts", EXTRACT(EPOCH FROM ("blockedUntil" - now()))::float8 AS "blockedS"`;
    if (!row) continue;
    if (row.blockedS !== null && row.blockedS > 0) {
      verdict = { allowed: false, retryAfterS: Math.max(verdict.allowed ? 0 : verdict.retryAfterS, Math.ceil(row.blockedS)) };
      continue;
    }
    const over = row.attempts - FREE_ATTEMPTS[key.kind];
    if (over > 0) {
      // This attempt goes ahead; the next one on this key waits.
      await prisma.$executeRaw`
        UPDATE "sign_in_throttles" SET "blockedUntil" = now() + ${blockSeconds(over)} * interval '1 second'
        WHERE "key" = ${storageKey(key)}`;
    }
  }
  return verdict;
}

/** A right password: the account starts afresh, and the address gets its attempt back. */
export async function forgiveAttempt(prisma: Prisma, { account, address }: { account: string; address?: string }): Promise<void> {
  await prisma.$executeRaw`DELETE FROM "sign_in_throttles" WHERE "key" = ${storageKey({ kind: "account", value: account })}`;
  if (address) {
    await prisma.$executeRaw`
      UPDATE "sign_in_throttles" SET "attempts" = GREATEST("attempts" - 1, 0), "blockedUntil" = NULL
      WHERE "key" = ${storageKey({ kind: "address", value: address })}`;
  }
}

export function blockSeconds(over: number): number {
  return Math.min(2 ** Math.min(over, 20), MAX_BLOCK_S);
}

function storageKey({ kind, value }: ThrottleKey): string {
  return `${kind}:${value.toLowerCase()}`;
}

/** "Try again in 8 seconds" / "in 3 minutes". */
export function retryAfterText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}
