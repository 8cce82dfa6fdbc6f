import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/open-database";
import { readPanel } from "@/lib/panels/read-panel";
import { pruneOldRecords, type RetentionPolicy } from "@/lib/retention/prune-old-records";
import { startRetentionSweep } from "@/lib/retention/retention-sweep";
import { createProjectWithChannel } from "../support/fixtures";
import { createTestDatabase } from "../support/test-database";
import { until } from "../support/until";

const policy: RetentionPolicy = { snapshotDays: 30, jobDays: 14 };
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** The retention sweep on a real migrated database: what goes, what stays, and that it can run anywhere, any number of times. */
describe("retention", () => {
  let db: Database;
  let conversationId: string;
  let agentId: string;
  let userId: string;
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { project, channel } = await createProjectWithChannel(db.prisma);
    conversationId = channel.id;
    agentId = (await db.prisma.agent.create({ data: { projectId: project.id, handle: "toby", displayName: "Toby", color: "#0ea5e9", systemPrompt: "x", model: "offline" } })).id;
    userId = randomUUID();
    await db.prisma.user.create({ data: { id: userId, name: "Ann", email: `ann.${userId}@example.test`, handle: `ann-${userId.slice(0, 8)}` } });
    await db.prisma.participant.create({ data: { conversationId, userId } });
  });
  afterAll(() => db.close());

  const message = async () => (await db.prisma.message.create({ data: { conversationId, seq: ++seq, role: "user", content: `question ${seq}` } })).id;
  const dispatch = async (status: "pending" | "running" | "done" | "failed", createdAt: Date) =>
    (await db.prisma.dispatch.create({ data: { messageId: await message(), agentId, conversationId, status, createdAt } })).id;
  const snapshot = async (createdAt: Date) => {
    const turnId = randomUUID();
    await db.prisma.contextSnapshot.create({ data: { turnId, conversationId, agentId, answeringMessageId: randomUUID(), mode: "direct", usedTokens: 1, maxTokens: 10, snapshot: {}, createdAt } });
    return turnId;
  };
  const throttle = async (windowStartedAt: Date, blockedUntil: Date | null) => {
    const key = `address:${randomUUID()}`;
    await db.prisma.signInThrottle.create({ data: { key, attempts: 30, windowStartedAt, blockedUntil } });
    return key;
  };
  /** A panel with one answer, one vote and two turns started `startedAt`. */
  const panel = async (status: "running" | "finished", startedAt: Date) => {
    const id = randomUUID();
    await db.prisma.panel.create({ data: { id, conversationId, questionMessageId: await message(), agentIds: [agentId], status, maxRounds: 3, tokenCap: 1_000, deadline: startedAt } });
    const [answering, voting] = [randomUUID(), randomUUID()];
    await db.prisma.panelTurn.createMany({ data: [answering, voting].map((turnId, index) => ({ id: turnId, panelId: id, agentId, round: index + 1, status: index ? "voted" : "answered", startedAt })) });
    const answerId = randomUUID();
    await db.prisma.panelAnswer.create({ data: { id: answerId, panelId: id, agentId, turnId: answering, content: "Call it Aurora.", createdAt: startedAt } });
    await db.prisma.panelVote.create({ data: { id: randomUUID(), panelId: id, voterAgentId: agentId, answerId, reason: "it is short", turnId: voting, createdAt: new Date(startedAt.getTime() + 60_000) } });
    return id;
  };
  const sessionEnd = async (status: "pending" | "done", createdAt: Date) =>
    (await db.prisma.sessionEnd.create({ data: { id: randomUUID(), conversationId, fromSeq: 0, toSeq: ++seq, status, createdAt } })).id;
  const ids = async <Row extends Record<string, unknown>>(rows: Promise<Row[]>, key: keyof Row) => new Set((await rows).map((row) => row[key]));

  it("deletes old snapshots, finished dispatches, finished panels' turns and spent throttle rows; keeps everything else", async () => {
    const snapshots = { old: await snapshot(daysAgo(31)), recent: await snapshot(daysAgo(29)) };
    const dispatches = {
      done: await dispatch("done", daysAgo(15)),
      failed: await dispatch("failed", daysAgo(20)),
      // Unfinished work is never pruned, however old.
      pending: await dispatch("pending", daysAgo(40)),
      running: await dispatch("running", daysAgo(40)),
      recent: await dispatch("done", daysAgo(13)),
    };
    const throttles = {
      spent: await throttle(daysAgo(2), daysAgo(2)),
      neverBlocked: await throttle(daysAgo(3), null),
      // An old window still blocked: the block is what counts.
      blocked: await throttle(daysAgo(3), new Date(Date.now() + 60_000)),
      recentlyBlocked: await throttle(daysAgo(3), minutesAgo(10)),
      current: await throttle(minutesAgo(5), null),
    };
    const panels = { finished: await panel("finished", daysAgo(15)), running: await panel("running", daysAgo(15)), recent: await panel("finished", daysAgo(1)) };
    await db.prisma.providerUsage.createMany({ data: [{ provider: "openai", window: daysAgo(2), requests: 3, tokens: 900 }, { provider: "openai", window: minutesAgo(1), requests: 1, tokens: 300 }] });
    const sessionEnds = { done: await sessionEnd("done", daysAgo(15)), pending: await sessionEnd("pending", daysAgo(15)), recent: await sessionEnd("done", daysAgo(2)) };

    // Small batches: every table takes several statements.
    const counts = await pruneOldRecords(db.prisma, policy, { batchSize: 1 });

    expect(counts).toEqual({ contextSnapshots: 1, dispatches: 2, panelTurns: 2, sessionEnds: 1, providerUsage: 1, signInThrottles: 2 });
    expect(await ids(db.prisma.contextSnapshot.findMany({ where: { turnId: { in: Object.values(snapshots) } } }), "turnId")).toEqual(new Set([snapshots.recent]));
    expect(await ids(db.prisma.dispatch.findMany({ where: { id: { in: Object.values(dispatches) } } }), "id")).toEqual(new Set([dispatches.pending, dispatches.running, dispatches.recent]));
    expect(await ids(db.prisma.signInThrottle.findMany({ where: { key: { in: Object.values(throttles) } } }), "key")).toEqual(
      new Set([throttles.blocked, throttles.recentlyBlocked, throttles.current]),
    );
    expect(await db.prisma.providerUsage.count()).toBe(1);
    expect(await ids(db.prisma.sessionEnd.findMany({ where: { id: { in: Object.values(sessionEnds) } } }), "id")).toEqual(new Set([sessionEnds.pending, sessionEnds.recent]));
    expect(await ids(db.prisma.panelTurn.findMany({ where: { panelId: { in: Object.values(panels) } } }), "panelId")).toEqual(new Set([panels.running, panels.recent]));
    // The finished panel keeps its row, answers and votes: "Show the panel" still shows them.
    const shown = await readPanel(db.prisma, { userId, panelId: panels.finished });
    expect(shown).toMatchObject({ status: "finished", agents: [{ id: agentId, state: "voted", answer: { content: "Call it Aurora." } }], votes: [{ voterId: agentId, reason: "it is short", valid: true }] });

    // Again: nothing more to do.
    expect(await pruneOldRecords(db.prisma, policy)).toEqual({ contextSnapshots: 0, dispatches: 0, panelTurns: 0, sessionEnds: 0, providerUsage: 0, signInThrottles: 0 });
  });

  it("keeps records forever when their age is 0", async () => {
    const old = { snapshot: await snapshot(daysAgo(400)), dispatch: await dispatch("done", daysAgo(400)), panel: await panel("finished", daysAgo(400)) };
    const counts = await pruneOldRecords(db.prisma, { snapshotDays: 0, jobDays: 0 });
    expect(counts).toMatchObject({ contextSnapshots: 0, dispatches: 0, panelTurns: 0 });
    expect(await db.prisma.contextSnapshot.count({ where: { turnId: old.snapshot } })).toBe(1);
    expect(await db.prisma.dispatch.count({ where: { id: old.dispatch } })).toBe(1);
    expect(await db.prisma.panelTurn.count({ where: { panelId: old.panel } })).toBe(2);
    await pruneOldRecords(db.prisma, policy);
  });

  it("two sweeps at once (two nodes) delete each row once, between them", async () => {
    for (let index = 0; index < 12; index++) await snapshot(daysAgo(60));
    const [first, second] = await Promise.all([pruneOldRecords(db.prisma, policy, { batchSize: 2 }), pruneOldRecords(db.prisma, policy, { batchSize: 2 })]);
    expect(first.contextSnapshots + second.contextSnapshots).toBe(12);
  });

  it("the background sweep runs soon after start, and stops", async () => {
    const old = await snapshot(daysAgo(45));
    const sweep = startRetentionSweep({ prisma: db.prisma, policy, firstRunMs: 10 });
    await until(async () => (await db.prisma.contextSnapshot.count({ where: { turnId: old } })) === 0, "the old snapshot to be deleted");
    await sweep.stop();
  });
});
