import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/open-database";
import { PROVIDER_WAIT } from "@/lib/dispatch/turn-queue";
import { readTurnLoad, type TurnLimitSettings } from "@/lib/dispatch/read-turn-load";
import { createProjectWithChannel } from "../support/fixtures";
import { createTestDatabase } from "../support/test-database";

const limits: TurnLimitSettings = {
  PROVIDER_MAX_CONCURRENT: 16,
  PROVIDER_RPM: 60,
  PROVIDER_TPM: 0,
  AGENT_TURNS_PER_NODE: 64,
  MAX_QUEUED_TURNS_PER_CONVERSATION: 20,
  MAX_QUEUED_TURNS_PER_PERSON: 10,
};
const secondsFromNow = (seconds: number) => new Date(Date.now() + seconds * 1_000);

/** The admin's "Agent turns" page reads this: every state of a turn lands in its provider's count. */
describe("turn load per provider", () => {
  let db: Database;
  let conversationId: string;
  const agents: Record<"openai" | "offline", string> = { openai: "", offline: "" };
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { project, channel } = await createProjectWithChannel(db.prisma);
    conversationId = channel.id;
    for (const provider of ["openai", "offline"] as const) {
      agents[provider] = (await db.prisma.agent.create({ data: { projectId: project.id, handle: `${provider}-agent`, displayName: provider, color: "#0ea5e9", systemPrompt: "x", provider, model: "gpt-4o-mini" } })).id;
    }
  });
  afterAll(() => db.close());

  const dispatch = async (provider: "openai" | "offline", data: { status: "pending" | "running" | "done" | "failed"; createdAt?: Date; leaseUntil?: Date; runAfter?: Date; lastError?: string }) => {
    const message = await db.prisma.message.create({ data: { conversationId, seq: ++seq, role: "user", content: `question ${seq}` } });
    await db.prisma.dispatch.create({ data: { messageId: message.id, agentId: agents[provider], conversationId, ...data } });
  };

  it("shows every kind of provider with nothing to do and the limits (nothing else of the env), and refuses anyone but an admin", async () => {
    // The whole env is passed in the app; only the limits come back (the page is sent to the browser).
    const load = await readTurnLoad(db.prisma, { actor: { role: "admin" }, env: { ...limits, OPENAI_API_KEY: "sk-secret" } as typeof limits });
    expect(load.providers).toEqual([
      { provider: "openai", running: 0, queued: 0, waitingProvider: 0, retrying: 0, oldestWaitingMs: null, minute: { requests: 0, tokens: 0 } },
      { provider: "offline", running: 0, queued: 0, waitingProvider: 0, retrying: 0, oldestWaitingMs: null, minute: { requests: 0, tokens: 0 } },
      { provider: "custom", running: 0, queued: 0, waitingProvider: 0, retrying: 0, oldestWaitingMs: null, minute: { requests: 0, tokens: 0 } },
    ]);
    expect(load.limits).toEqual(limits);
    for (const role of ["member", "debug"] as const) {
      await expect(readTurnLoad(db.prisma, { actor: { role }, env: limits })).rejects.toMatchObject({ code: "forbidden" });
    }
  });

  it("counts running, queued, waiting for the provider and retrying turns per provider, with the oldest wait and this minute's use", async () => {
    await dispatch("openai", { status: "running", leaseUntil: secondsFromNow(30) });
    await dispatch("openai", { status: "running", leaseUntil: secondsFromNow(30) });
    // Its node died: nobody runs it until another node takes it.
    await dispatch("openai", { status: "running", leaseUntil: secondsFromNow(-5) });
    await dispatch("openai", { status: "pending", createdAt: secondsFromNow(-90) });
    await dispatch("openai", { status: "pending", runAfter: secondsFromNow(-1), lastError: `${PROVIDER_WAIT}it answered 429 (too many requests)` });
    await dispatch("openai", { status: "pending", runAfter: secondsFromNow(20), lastError: `${PROVIDER_WAIT}it answered 429 (too many requests)` });
    await dispatch("openai", { status: "pending", runAfter: secondsFromNow(20), lastError: "the model failed" });
    await dispatch("openai", { status: "done", createdAt: secondsFromNow(-600) });
    await dispatch("offline", { status: "running", leaseUntil: secondsFromNow(30) });
    await dispatch("offline", { status: "pending", createdAt: secondsFromNow(-10) });
    await dispatch("offline", { status: "failed", createdAt: secondsFromNow(-600) });
    await db.prisma.$executeRaw`INSERT INTO "provider_usage" ("provider", "window", "requests", "tokens") VALUES ('openai', date_trunc('minute', now()), 12, 3400)`;
    await db.prisma.$executeRaw`INSERT INTO "provider_usage" ("provider", "window", "requests", "tokens") VALUES ('openai', date_trunc('minute', now()) - interval '1 minute', 50, 9000)`;

    const [openai, offline] = (await readTurnLoad(db.prisma, { actor: { role: "admin" }, env: limits })).providers;
    expect(openai).toMatchObject({ provider: "openai", running: 2, queued: 2, waitingProvider: 1, retrying: 1, minute: { requests: 12, tokens: 3400 } });
    expect(openai!.oldestWaitingMs).toBeGreaterThanOrEqual(89_000);
    expect(openai!.oldestWaitingMs).toBeLessThan(120_000);
    expect(offline).toMatchObject({ provider: "offline", running: 1, queued: 1, waitingProvider: 0, retrying: 0, minute: { requests: 0, tokens: 0 } });
    expect(offline!.oldestWaitingMs).toBeGreaterThanOrEqual(9_000);
    expect(offline!.oldestWaitingMs).toBeLessThan(40_000);
  });
});
