import type { Prisma } from "@/lib/db/open-database";
import { countContent, countTokens } from "./token-counter";
import { LlmError, type CompletionRequest, type LlmProvider, type StreamEvent } from "./types";

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

/** A call's tokens as the minute counts them: its messages (about 4 tokens of framing each) and its longest reply. */
function callTokens(request: CompletionRequest): number {
  return request.messages.reduce((sum, message) => sum + 4 + countContent(message.content, (text) => countTokens(text, request.model)), request.maxOutputTokens);
}

/**
 * The provider with its per-minute limits counted before every call, whoever makes it (agent
 * turns, panels, summaries, episodes). Past the limits a call waits for the next minute, or, for
 * a caller that waits it out itself (`deferRateLimit`), fails at once as rate-limited with the wait.
 */
export function withRateLimits(provider: LlmProvider, { prisma, limits }: { prisma: Prisma; limits: ProviderRateLimits }): LlmProvider {
  if (limits.requestsPerMinute <= 0 && limits.tokensPerMinute <= 0) return provider;
  return {
    name: provider.name,
    async *stream(request: CompletionRequest): AsyncIterable<StreamEvent> {
      const tokens = limits.tokensPerMinute > 0 ? callTokens(request) : 0;
      for (;;) {
        const waitMs = await reserveProviderCall(prisma, { provider: provider.name, tokens, limits });
        if (waitMs === null) break;
        if (request.deferRateLimit) throw new LlmError("The model provider's requests or tokens per minute are used up.", "rate_limit", waitMs);
        await waitFor(waitMs, request.signal);
      }
      yield* provider.stream(request);
    },
  };
}

function waitFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancel = () => {
      clearTimeout(timer);
      reject(new LlmError("Stopped.", "cancelled"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", cancel);
      resolve();
    }, ms);
    if (signal?.aborted) cancel();
    else signal?.addEventListener("abort", cancel, { once: true });
  });
}
