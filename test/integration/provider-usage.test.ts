import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/open-database";
import { withRateLimits } from "@/lib/llm/provider-usage";
import type { CompletionRequest, LlmProvider, StreamEvent } from "@/lib/llm/types";
import { createTestDatabase } from "../support/test-database";

const request: CompletionRequest = { model: "gpt-4o-mini", temperature: 0, maxOutputTokens: 50, messages: [{ role: "user", content: "hello" }] };

async function collect(events: AsyncIterable<StreamEvent>) {
  const all: StreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** The per-minute limits count every call to the provider, whoever makes it, on a real database. */
describe("provider per-minute limits", () => {
  let db: Database;
  const calls: CompletionRequest[] = [];
  const provider: LlmProvider = {
    name: "openai",
    async *stream(made) {
      calls.push(made);
      yield { type: "delta", text: "ok" };
    },
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());

  it("lets calls through within the minute, then a caller that waits it out itself is told how long; another waits, and Stop ends the wait", async () => {
    const limited = withRateLimits(provider, { prisma: db.prisma, limits: { requestsPerMinute: 1, tokensPerMinute: 0 } });
    expect(await collect(limited.stream(request))).toEqual([{ type: "delta", text: "ok" }]);
    await expect(collect(limited.stream({ ...request, deferRateLimit: true }))).rejects.toMatchObject({ kind: "rate_limit", retryAfterMs: expect.any(Number) });
    const stop = new AbortController();
    const waiting = collect(limited.stream({ ...request, signal: stop.signal }));
    setTimeout(() => stop.abort(), 100);
    await expect(waiting).rejects.toMatchObject({ kind: "cancelled" });
    expect(calls).toHaveLength(1);
  });

  it("counts tokens as the prompt and the longest reply, and no limits means no counting at all", async () => {
    await db.prisma.providerUsage.deleteMany();
    const byTokens = withRateLimits({ ...provider, name: "offline" }, { prisma: db.prisma, limits: { requestsPerMinute: 0, tokensPerMinute: 60 } });
    await collect(byTokens.stream(request));
    await expect(collect(byTokens.stream({ ...request, deferRateLimit: true }))).rejects.toMatchObject({ kind: "rate_limit" });
    expect(await db.prisma.providerUsage.findMany({ select: { provider: true, requests: true, tokens: true } })).toEqual([{ provider: "offline", requests: 1, tokens: 55 }]);
    expect(withRateLimits(provider, { prisma: db.prisma, limits: { requestsPerMinute: 0, tokensPerMinute: 0 } })).toBe(provider);
  });
});
