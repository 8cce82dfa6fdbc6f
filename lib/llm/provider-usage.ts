import type { Prisma } from "@/lib/db/open-database";

/** A provider's per-minute limits across every node (0: no limit). */
export interface ProviderRateLimits {
  requestsPerMinute: number;
  tokensPerMinute: number;
}

/**
 * Counts one call of `tokens` (its prompt and longest reply) against the provider's current
 * minute, in one statement shared by every node, unless that would pass the limits. Returns null
 * when the call may go, else how long to wait for the next minute. A single call larger than the
 * whole token limit goes alone in an empty minute rather than never.
 */
export async function reserveProviderCall(prisma: Prisma, { provider, tokens, limits }: { provider: string; tokens: number; limits: ProviderRateLimits }): Promise<number | null> {
  const { requestsPerMinute: rpm, tokensPerMinute: tpm } = limits;
  if (rpm <= 0 && tpm <= 0) return null;
  const [row] = await prisma.$queryRaw<{ counted: boolean; waitMs: number }[]>`
    WITH counted AS (
      INSERT INTO "provider_usage" ("provider", "window", "requests", "tokens")
      VALUES (${provider}, date_trunc('minute', now()), 1, ${tokens})
      ON CONFLICT ("provider", "window") DO UPDATE SET "requests" = "provider_usage"."requests" + 1, "tokens" = "provider_usage"."tokens" + EXCLUDED."tokens"
      WHERE (${rpm} <= 0 OR "provider_usage"."requests" + 1 <= ${rpm}) AND (${tpm} <= 0 OR "provider_usage"."tokens" + EXCLUDED."tokens" <= ${tpm})
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM counted) AS "counted",
           ceil(extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now()) * 1000)::int AS "waitMs"`;
  return row!.counted ? null : row!.waitMs;
}
