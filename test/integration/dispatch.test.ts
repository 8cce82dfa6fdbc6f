import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { postMessage } from "@/lib/conversations/post-message";
import { sendMessage } from "@/lib/conversations/send-message";
import { noopPublisher } from "@/lib/realtime/publisher";
import { loadTurnContext } from "@/lib/agents/load-turn-context";
import { claimNextDispatch } from "@/lib/dispatch/claim-dispatch";
import { startDispatchWorker } from "@/lib/dispatch/dispatch-worker";
import { startPanelWorker } from "@/lib/panels/panel-worker";
import { openAgentChat } from "@/lib/conversations/open-agent-chat";
import { openDirectMessage } from "@/lib/conversations/open-direct-message";
import { createChannel } from "@/lib/conversations/create-channel";
import { createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";
import { until } from "../support/until";
import { databaseMode } from "../support/database-mode";

/** Which messages make which agents act, and that each (message, agent) is dispatched once. */
describe("dispatch", () => {
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let projectId: string;
  let groupId: string;
  let agents: Record<"toby" | "ada" | "sage" | "off", string>;

  const post = (conversationId: string, content: string, user = alice, clientId = randomUUID()) =>
    postMessage(app.prisma, { userId: user.id, input: { conversationId, clientId, content } });
  const dispatchedFor = async (messageId: string) =>
    (await app.prisma.dispatch.findMany({ where: { messageId }, select: { agentId: true } })).map((row) => row.agentId).sort();

  beforeAll(async () => {
    app = await TestApp.start();
    projectId = (await createProjectWithChannel(app.prisma)).project.id;
    alice = await app.signUp("Alice");
    bob = await app.signUp("Bob");
    const make = (handle: string, enabled = true) =>
      app.prisma.agent.create({ data: { projectId, handle, displayName: handle, color: "#000000", systemPrompt: "Help.", model: "offline", enabled } });
    const [toby, ada, sage, off] = await Promise.all([make("toby"), make("ada"), make("sage"), make("off", false)]);
    agents = { toby: toby.id, ada: ada.id, sage: sage.id, off: off.id };
    // sage is in the project but not in this group
    groupId = (await createChannel(app.prisma, { userId: alice.id, projectId, name: "team", agentIds: [toby.id, ada.id] })).id;
    await app.prisma.participant.create({ data: { conversationId: groupId, agentId: off.id } });
  });
  afterAll(() => app.close());
  // Alice posts in every test: her rate bucket (20 posts in 10 s) starts full each time, whatever the machine's pace.
  beforeEach(async () => {
    await app.prisma.dispatch.deleteMany();
    await app.prisma.rateBucket.deleteMany();
  });

  it.each([
    ["@toby can you research this?", ["toby"]],
    ["@Toby and @ADA, please both look", ["ada", "toby"]],
    ["@toby @toby @toby", ["toby"]],
    ["Hey team, good morning!", []],
    ["`@toby` in code does not count", []],
    ["```\n@toby\n```", []],
    ["write to toby@example.com", []],
    ["@sage is not in this group", []],
    ["@off is disabled", []],
  ])("in a group, %j dispatches %j", async (content, handles) => {
    const { message, dispatchedAgentIds } = await post(groupId, content);
    const expected = handles.map((handle) => agents[handle as keyof typeof agents]).sort();
    expect(await dispatchedFor(message.id)).toEqual(expected);
    expect([...dispatchedAgentIds].sort()).toEqual(expected);
  });

  it("in an agent chat dispatches its agent for every message, mention or not", async () => {
    const { id } = await openAgentChat(app.prisma, { userId: alice.id, projectId, agentId: agents.sage });
    for (const content of ["hello", "@toby are you there?"]) {
      const { message } = await post(id, content);
      expect(await dispatchedFor(message.id)).toEqual([agents.sage]);
    }
  });

  it("in a DM between people dispatches nothing", async () => {
    const { id } = await openDirectMessage(app.prisma, { userId: alice.id, projectId, otherUserId: bob.id });
    const { message } = await post(id, "@toby hi");
    expect(await dispatchedFor(message.id)).toEqual([]);
  });

  it("writes one dispatch for 20 concurrent redeliveries of the same message", async () => {
    const clientId = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => post(groupId, "@toby once please", alice, clientId)));
    expect(new Set(results.map((result) => result.message.id)).size).toBe(1);
    expect(await app.prisma.dispatch.count()).toBe(1);
  });

  it("lets exactly one of 20 concurrent workers claim a dispatch", async () => {
    await post(groupId, "@ada claim me");
    const claims = await Promise.all(Array.from({ length: 20 }, () => claimNextDispatch(app.prisma, { leaseMs: 60_000 })));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it("twenty claims at once start no more turns than the provider's limit, on every node's database", async () => {
    // Ten openai agents, one question each: every dispatch could run but for the limit.
    const bots = await Promise.all(Array.from({ length: 10 }, (_, index) =>
      app.prisma.agent.create({ data: { projectId, handle: `limit${index}`, displayName: `Limit ${index}`, color: "#000000", systemPrompt: "Help.", provider: "openai", model: "gpt-4o-mini" } }),
    ));
    const { id } = await createChannel(app.prisma, { userId: alice.id, projectId, name: "limited", agentIds: bots.map((bot) => bot.id) });
    await post(id, bots.map((bot) => `@${bot.handle}`).join(" "));
    // On PostgreSQL the claims run on separate connections at the same moment, as two nodes' would.
    const claims = await Promise.all(Array.from({ length: 20 }, () => claimNextDispatch(app.prisma, { leaseMs: 60_000, providerLimit: 2, sharedDatabase: app.db.engine === "postgres" })));
    expect(claims.filter(Boolean)).toHaveLength(2);
  });

  it("holds a busy agent's next message until the current one is answered, then runs it", async () => {
    await post(groupId, "@toby first");
    await post(groupId, "@toby second");
    const first = await claimNextDispatch(app.prisma, { leaseMs: 60_000 });
    expect(await claimNextDispatch(app.prisma, { leaseMs: 60_000 })).toBeNull();
    await app.prisma.dispatch.update({ where: { id: first!.id }, data: { status: "done" } });
    const second = await claimNextDispatch(app.prisma, { leaseMs: 60_000 });
    expect(second).not.toBeNull();
    expect(second!.id).not.toBe(first!.id);
  });

  it("a claim comes with its turn's loading and its agent's monthly cap, as the turn would read them alone; a claim whose loading fails still stands, and the turn fails as a turn", async () => {
    await app.prisma.agent.update({ where: { id: agents.toby }, data: { monthlyTokenCap: 5_000 } });
    await app.prisma.usageRecord.create({ data: { projectId, kind: "turn", turnId: randomUUID(), agentId: agents.toby, provider: "openai", model: "gpt-4o-mini", inputTokens: 3_000, outputTokens: 1_000 } });
    const { message } = await post(groupId, "@toby what is new?");
    const claimed = (await claimNextDispatch(app.prisma, { leaseMs: 60_000 }))!;
    expect(claimed.turn).toBeTruthy();
    const alone = await loadTurnContext(app.prisma, { ...claimed, turn: undefined, monthlyUsage: undefined });
    expect(alone.current.id).toBe(message.id);
    expect(alone.monthlyCap).toMatchObject({ cap: 5_000, used: 4_000, percent: 80, warn: true, reached: false });
    expect(await loadTurnContext(app.prisma, claimed)).toEqual(alone);
    await app.prisma.agent.update({ where: { id: agents.toby }, data: { monthlyTokenCap: null } });
    await app.prisma.dispatch.update({ where: { id: claimed.id }, data: { status: "done" } });

    const { message: unreadable } = await post(groupId, "@toby and this?");
    // A flag the loading cannot read as a boolean.
    await app.prisma.$executeRaw`UPDATE "messages" SET "metadata" = jsonb_set("metadata", '{isToolResult}', '"perhaps"') WHERE "id" = ${unreadable.id}`;
    const next = (await claimNextDispatch(app.prisma, { leaseMs: 60_000 }))!;
    expect(next).toMatchObject({ messageId: unreadable.id, attempt: 1, turn: null });
    await expect(loadTurnContext(app.prisma, next)).rejects.toThrow(/boolean/);
  });

  // Only a shared PostgreSQL has a second connection to commit while a claim waits.
  it.runIf(databaseMode === "postgres")(
    "a claim that waited for another node's claim loads the message committed meanwhile, not what was there when it began",
    async () => {
      const waitingClaim = async () =>
        (await app.db.sql.query<{ waiting: number }>(`SELECT count(*)::int AS "waiting" FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`))[0]!.waiting > 0;
      const { id: roomId } = await createChannel(app.prisma, { userId: alice.id, projectId, name: "waiting", agentIds: [agents.toby] });
      const { claimed, message } = await app.db.sql.transaction(async (otherNode) => {
        // Another node's claim holds the provider-limit lock: this claim's statement begins, then waits.
        await otherNode.query(`SELECT pg_advisory_xact_lock(hashtext('chorus.provider-limit'))`);
        const claiming = claimNextDispatch(app.prisma, { leaseMs: 60_000, providerLimit: 2, sharedDatabase: true });
        await until(waitingClaim, "the claim to wait for the lock");
        const posted = await post(roomId, "@toby are you there?");
        return { claimed: claiming, message: posted.message };
      });
      const turn = (await claimed)!;
      expect(turn.messageId).toBe(message.id);
      expect((await loadTurnContext(app.prisma, turn)).current.id).toBe(message.id);
    },
  );

  it("a post claims the first turn it starts in its own statement, loaded as a claim would load it; an agent still busy is left to the worker", async () => {
    const claim = { leaseMs: 60_000, providerLimit: 0, sharedDatabase: app.db.engine === "postgres" };
    const { id: roomId } = await createChannel(app.prisma, { userId: alice.id, projectId, name: "claiming", agentIds: [agents.toby, agents.ada] });
    const ask = (content: string) => postMessage(app.prisma, { userId: alice.id, input: { conversationId: roomId, clientId: randomUUID(), content }, claim });

    const both = await ask("@toby and @ada, both of you please");
    const claimed = both.claimed!;
    expect(claimed).toMatchObject({ messageId: both.message.id, conversationId: roomId, attempt: 1, failures: 0, mode: "direct" });
    expect(both.dispatchIds).toContain(claimed.id);
    const rows = await app.prisma.dispatch.findMany({ where: { messageId: both.message.id } });
    expect(rows.map((row) => [row.agentId === claimed.agentId, row.status, row.leaseUntil !== null])).toEqual(
      expect.arrayContaining([
        [true, "running", true],
        [false, "pending", false],
      ]),
    );
    const loaded = await loadTurnContext(app.prisma, claimed);
    expect(loaded.current.id).toBe(both.message.id);
    expect(loaded).toEqual(await loadTurnContext(app.prisma, { ...claimed, turn: undefined, monthlyUsage: undefined }));

    // The claimed agent answers in order: its next question waits for this turn.
    const busy = claimed.agentId === agents.toby ? "toby" : "ada";
    const next = await ask(`@${busy} and one more thing`);
    expect(next.claimed).toBeNull();
    expect(await app.prisma.dispatch.findFirstOrThrow({ where: { messageId: next.message.id } })).toMatchObject({ status: "pending", attempt: 0 });
  });

  // CREATE OR REPLACE FUNCTION without ROWS would set 1,000 again: PostgreSQL then priced a post
  // that claims its turn above jit_above_cost and compiled each one by JIT first (300 ms a post).
  it("the functions a post that claims its turn runs are planned as returning one row", async () => {
    const declared = await app.prisma.$queryRaw<{ name: string; rows: number }[]>`
      SELECT "proname" AS "name", "prorows"::float8 AS "rows" FROM "pg_proc"
      WHERE "proname" IN ('chorus_post_message', 'chorus_post_unless_saved_panel', 'chorus_claim_dispatch') ORDER BY 1`;
    expect(declared).toEqual([
      { name: "chorus_claim_dispatch", rows: 1 },
      { name: "chorus_post_message", rows: 1 },
      { name: "chorus_post_unless_saved_panel", rows: 1 },
    ]);
  });

  it("a post runs the turn it claims on this node at once, in one of the node's places; a full node leaves the next one to the worker", async () => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const ran: string[] = [];
    const worker = startDispatchWorker({ prisma: app.prisma, runTurn: async (job) => {
        ran.push(job.id);
        await finished;
      }, giveUp: async () => undefined, concurrency: 1, pollMs: 60_000 });
    const send = (content: string) =>
      sendMessage({ prisma: app.prisma, publisher: noopPublisher, reserveTurn: () => worker.reserveTurn(), wakeDispatcher: (ids) => worker.wake(ids) }, { userId: alice.id, input: { conversationId: groupId, clientId: randomUUID(), content } });
    try {
      const first = await send("@toby first question");
      expect(ran).toEqual([first.claimed!.id]);
      // Its one place is taken: the next post claims nothing, and its turn waits until the first ends.
      expect(worker.reserveTurn()).toBeNull();
      const second = await send("@ada second question");
      expect(second.claimed).toBeNull();
      expect(ran).toHaveLength(1);
      finish();
      await until(() => ran.length === 2, "the second turn to run once the first ended");
      expect(ran[1]).toBe(second.dispatchIds[0]);
      expect(worker.reserveTurn()).toMatchObject({ leaseMs: 60_000, providerLimit: 0 });
    } finally {
      finish();
      await worker.stop();
    }
  });

  it("a turn woken while the node's last place is held for a post runs as soon as that place is given back", async () => {
    const ran: string[] = [];
    const worker = startDispatchWorker({ prisma: app.prisma, runTurn: async (job) => void ran.push(job.id), giveUp: async () => undefined, concurrency: 1, pollMs: 60_000 });
    try {
      const slot = worker.reserveTurn()!;
      const { dispatchIds } = await post(groupId, "@ada are you free?");
      worker.wake(dispatchIds);
      expect(ran).toEqual([]);
      slot.release();
      await until(() => ran.length === 1, "the woken turn to run once the place was given back");
      expect(ran).toEqual(dispatchIds);
    } finally {
      await worker.stop();
    }
  });

  it("a worker stopped while claiming gives the dispatch back at once instead of starting it", async () => {
    const { message } = await post(groupId, "@toby are you still there?");
    const ran: string[] = [];
    const worker = startDispatchWorker({ prisma: app.prisma, runTurn: async (job) => void ran.push(job.id), giveUp: async (job) => void ran.push(job.id), pollMs: 60_000 });
    // Its first sweep is claiming right now.
    await worker.stop();
    expect(ran).toEqual([]);
    // Released, not failed: the next claim is its first counted attempt's successor, with no failure recorded.
    expect(await app.prisma.dispatch.findFirstOrThrow({ where: { messageId: message.id } })).toMatchObject({ status: "pending", failures: 0, leaseUntil: null, leasedBy: null });
  });

  it("a panel worker stopped while claiming gives the panel back at once instead of coordinating it", async () => {
    const { panelId } = await post(groupId, "@panel @toby @ada which is it?");
    const coordinated: string[] = [];
    const worker = startPanelWorker({ prisma: app.prisma, coordinate: async (id) => void coordinated.push(id), giveUp: async (id) => void coordinated.push(id), pollMs: 60_000 });
    await worker.stop();
    expect(coordinated).toEqual([]);
    expect(await app.prisma.panel.findUniqueOrThrow({ where: { id: panelId! } })).toMatchObject({ status: "running", leaseUntil: null });
    await app.prisma.panel.deleteMany();
  });
});
