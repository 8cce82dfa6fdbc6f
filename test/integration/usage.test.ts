import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agentConfigSchema } from "@/lib/agents/agent-settings";
import { getAgent, updateAgent } from "@/lib/agents/manage-agents";
import { persistAgentReply } from "@/lib/agents/persist-agent-reply";
import type { SessionUser } from "@/lib/auth/session-user";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import type { Ack } from "@/lib/realtime/events";
import { startAgents } from "@/lib/runtime/runtime";
import { agentMonthlyCap, capReachedText, projectMonthlyCaps } from "@/lib/usage/monthly-cap";
import { insertDispatchUsage } from "@/lib/usage/record-usage";
import { readUsage } from "@/lib/usage/read-usage";
import { FakeOpenAI } from "../support/fake-openai";
import { createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, TestApp, type ClientSocket, type TestUser } from "../support/test-app";
import { until } from "../support/until";

/** Usage as the agents' turns store it (real worker, real sockets, the offline model and a fake OpenAI), read back per day, agent and person. */
describe("usage", () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let ann: TestUser;
  let bob: TestUser;
  let admin: SessionUser;
  let projectId: string;
  let channelId: string;
  const sockets = new Map<string, ClientSocket>();
  const agents: Record<"toby" | "owl" | "sage", string> = { toby: "", owl: "", sage: "" };

  beforeAll(async () => {
    fake = await FakeOpenAI.start();
    app = await TestApp.start({ env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL } });
    projectId = (await createProjectWithChannel(app.prisma)).project.id;
    ann = await app.signUp("Ann");
    bob = await app.signUp("Bob");
    await app.prisma.user.update({ where: { id: ann.id }, data: { role: "admin" } });
    admin = { id: ann.id, name: ann.name, email: ann.email, role: "admin" };
    const agent = (handle: string, data: { provider: "openai" | "offline"; model: string; inputUsdPerMillion?: number; outputUsdPerMillion?: number }) =>
      app.prisma.agent.create({ data: { projectId, handle, displayName: handle[0]!.toUpperCase() + handle.slice(1), color: "#0ea5e9", systemPrompt: `You are ${handle}.`, ...data } });
    agents.toby = (await agent("toby", { provider: "openai", model: "gpt-4o-mini", inputUsdPerMillion: 2, outputUsdPerMillion: 8 })).id;
    agents.owl = (await agent("owl", { provider: "offline", model: "offline" })).id;
    agents.sage = (await agent("sage", { provider: "offline", model: "offline" })).id;
    channelId = (await createChannel(app.prisma, { userId: ann.id, projectId, name: "usage", agentIds: Object.values(agents) })).id;
    startAgents(app.runtime, { leaseMs: 5_000, pollMs: 100, offlineChunkDelayMs: 0 });
    for (const user of [ann, bob]) {
      const socket = await app.connect(user);
      await emitWithAck(socket, "conversation:join", { conversationId: channelId });
      sockets.set(user.id, socket);
    }
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  beforeEach(async () => {
    fake.reset();
    await app.prisma.agent.updateMany({ where: { projectId }, data: { monthlyTokenCap: null } });
  });

  const ask = async (user: TestUser, content: string) => {
    await app.prisma.rateBucket.deleteMany();
    const ack = await emitWithAck<Ack<MessageDto>>(sockets.get(user.id)!, "message:send", { conversationId: channelId, clientId: randomUUID(), content });
    if ("error" in ack) throw new Error(ack.error.message);
    return ack.data;
  };
  /** The reply a turn wrote for the question. */
  const replyTo = async (question: MessageDto) => {
    await until(async () => (await app.prisma.dispatch.findFirst({ where: { messageId: question.id } }))?.replyMessageId != null, "the agent's reply");
    const dispatch = await app.prisma.dispatch.findFirstOrThrow({ where: { messageId: question.id } });
    const reply = await app.prisma.message.findUniqueOrThrow({ where: { id: dispatch.replyMessageId! } });
    return { dispatch, reply, metadata: reply.metadata as MessageMetadata };
  };
  const records = () => app.prisma.usageRecord.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });
  const storedReplies = async () =>
    (await app.prisma.message.findMany({ where: { conversationId: channelId, role: "assistant" } }))
      .map((message) => message.metadata as MessageMetadata)
      .filter((metadata) => metadata.usage && metadata.dispatchId);
  const sum = <T,>(items: T[], value: (item: T) => number) => items.reduce((total, item) => total + value(item), 0);

  it("records each answered turn once, with its asker, and reads back sums per agent, person and day equal to the stored usage", async () => {
    fake.reply({ content: "One two three." }, { content: "Four five." }, { content: "Six." });
    const turns = [
      await replyTo(await ask(ann, "@toby how are we doing?")),
      await replyTo(await ask(ann, "@owl what is on the list?")),
      await replyTo(await ask(bob, "@toby and the budget?")),
      await replyTo(await ask(bob, "@toby and the dates?")),
    ];
    const rows = await records();
    expect(rows).toHaveLength(4);
    for (const [index, asker] of [ann, ann, bob, bob].entries()) {
      const { dispatch, metadata } = turns[index]!;
      expect(metadata.usage!.inputTokens).toBeGreaterThan(0);
      expect(rows.find((row) => row.turnId === dispatch.id)).toMatchObject({
        kind: "turn",
        agentId: dispatch.agentId,
        userId: asker.id,
        conversationId: channelId,
        provider: metadata.provider,
        model: metadata.model,
        inputTokens: metadata.usage!.inputTokens,
        outputTokens: metadata.usage!.outputTokens,
      });
    }

    const stored = await storedReplies();
    const byAgent = await readUsage(app.prisma, { actor: admin, filters: { groupBy: "agent" } });
    const tobys = stored.filter((metadata) => metadata.agentId === agents.toby);
    expect(byAgent.rows.find((row) => row.key === agents.toby)).toEqual({
      key: agents.toby,
      label: "Toby",
      inputTokens: sum(tobys, (metadata) => metadata.usage!.inputTokens),
      outputTokens: sum(tobys, (metadata) => metadata.usage!.outputTokens),
      turns: 3,
      costUsd: expect.closeTo((sum(tobys, (metadata) => metadata.usage!.inputTokens) * 2 + sum(tobys, (metadata) => metadata.usage!.outputTokens) * 8) / 1e6, 12),
    });
    // The offline model has no price: it costs nothing.
    expect(byAgent.rows.find((row) => row.key === agents.owl)).toMatchObject({ label: "Owl", turns: 1, costUsd: 0 });
    expect(byAgent.totals).toMatchObject({ inputTokens: sum(stored, (metadata) => metadata.usage!.inputTokens), outputTokens: sum(stored, (metadata) => metadata.usage!.outputTokens), turns: 4 });

    const byPerson = await readUsage(app.prisma, { actor: admin, filters: { groupBy: "person" } });
    expect(byPerson.rows.map((row) => [row.label, row.turns])).toEqual(expect.arrayContaining([["Ann", 2], ["Bob", 2]]));
    expect(sum(byPerson.rows, (row) => row.inputTokens)).toBe(byAgent.totals.inputTokens);

    const today = new Date().toISOString().slice(0, 10);
    const byDay = await readUsage(app.prisma, { actor: admin, filters: { groupBy: "day" } });
    expect(byDay.rows).toEqual([expect.objectContaining({ key: today, label: today, turns: 4, inputTokens: byAgent.totals.inputTokens, outputTokens: byAgent.totals.outputTokens })]);
    expect(byDay.totals.costUsd).toBeCloseTo(byAgent.totals.costUsd, 12);
  });

  it("filters by agent, by person and by day range", async () => {
    const only = (filters: Parameters<typeof readUsage>[1]["filters"]) => readUsage(app.prisma, { actor: admin, filters });
    const bobsToby = await only({ groupBy: "person", agentId: agents.toby, userId: bob.id });
    expect(bobsToby.rows.map((row) => [row.label, row.turns])).toEqual([["Bob", 2]]);
    const owlsDays = await only({ groupBy: "day", agentId: agents.owl });
    expect(owlsDays.totals.turns).toBe(1);
    expect(await only({ groupBy: "day", from: "2020-01-01", to: "2020-01-31" })).toMatchObject({ from: "2020-01-01", to: "2020-01-31", rows: [], totals: { inputTokens: 0, turns: 0 } });
    // Another project's admin sees none of it.
    const other = await app.prisma.user.create({ data: { id: randomUUID(), name: "Olga", email: `olga-${randomUUID()}@example.com`, handle: `olga${Date.now() % 100_000}`, role: "admin" } });
    const otherProject = await app.prisma.project.create({ data: { slug: `o-${randomUUID()}`, name: "Other" } });
    await app.prisma.membership.create({ data: { userId: other.id, projectId: otherProject.id } });
    expect((await readUsage(app.prisma, { actor: { id: other.id, name: other.name, email: other.email, role: "admin" }, filters: { groupBy: "day" } })).rows).toEqual([]);
  });

  it("counts a turn once however often its usage is written: a retried insert and a late reply of a lost attempt add nothing", async () => {
    fake.reply({ content: "Counted once." });
    const { dispatch, metadata } = await replyTo(await ask(ann, "@toby once?"));
    const before = await readUsage(app.prisma, { actor: admin, filters: { groupBy: "agent" } });
    await app.prisma.$executeRaw(insertDispatchUsage(dispatch.id, { provider: "openai", model: "gpt-4o-mini", inputTokens: 999, outputTokens: 999 }));
    const late = await persistAgentReply(app.prisma, {
      dispatchId: dispatch.id,
      attempt: dispatch.attempt,
      conversationId: channelId,
      agent: { id: agents.toby, handle: "toby", displayName: "Toby", color: "#0ea5e9" },
      content: "A second reply",
      metadata: { ...metadata, usage: { inputTokens: 500, outputTokens: 500 } },
      outcome: "done",
      model: "gpt-4o-mini",
    });
    expect(late).toBeNull();
    expect(await app.prisma.usageRecord.count({ where: { turnId: dispatch.id } })).toBe(1);
    expect(await readUsage(app.prisma, { actor: admin, filters: { groupBy: "agent" } })).toEqual(before);
  });

  it("warns from 80 % of the monthly cap and, at 100 %, answers with an attributed reply instead of calling the model", async () => {
    const used = (await agentMonthlyCapOf(agents.toby, 1)).used;
    expect(used).toBeGreaterThan(0);
    // 82 %: still answers, and admins see the warning.
    const nearly = Math.ceil(used / 0.82);
    await app.prisma.agent.update({ where: { id: agents.toby }, data: { monthlyTokenCap: nearly } });
    expect((await projectMonthlyCaps(app.prisma, projectId)).get(agents.toby)).toMatchObject({ cap: nearly, used, warn: true, reached: false });
    fake.reply({ content: "Still here." });
    const answered = await replyTo(await ask(ann, "@toby still there?"));
    expect(answered.reply.content).toBe("Still here.");

    const spent = (await agentMonthlyCapOf(agents.toby, 1)).used;
    await app.prisma.agent.update({ where: { id: agents.toby }, data: { monthlyTokenCap: spent } });
    const calls = fake.requests.length;
    const records = await app.prisma.usageRecord.count();
    const { dispatch, reply, metadata } = await replyTo(await ask(bob, "@toby one more?"));
    expect(reply.content).toBe(capReachedText("Toby", spent));
    expect(reply.authorAgentId).toBe(agents.toby);
    expect(metadata).toMatchObject({ agentId: agents.toby, agentDisplayName: "Toby", error: "monthly_cap", replyToMessageId: dispatch.messageId });
    expect(metadata.usage).toBeUndefined();
    expect(dispatch.status).toBe("failed");
    expect(fake.requests.length).toBe(calls);
    expect(await app.prisma.usageRecord.count()).toBe(records);
    // Other agents are not held by Toby's cap.
    expect((await replyTo(await ask(bob, "@owl are you capped?"))).metadata.error).toBeUndefined();
  });

  it("records a panel's model calls, asked by the question's author, and a capped agent sits the panel out", async () => {
    const question = await ask(ann, "@panel @owl @sage what is our release day?");
    await until(async () => (await app.prisma.panel.findUnique({ where: { questionMessageId: question.id } }))?.status === "finished", "the panel to finish", 20_000);
    const panel = await app.prisma.panel.findUniqueOrThrow({ where: { questionMessageId: question.id }, include: { turns: true } });
    const rows = await app.prisma.usageRecord.findMany({ where: { kind: "panel", turnId: { in: panel.turns.map((turn) => turn.id) } } });
    // Offline votes call no model: only the turns that did are counted, each as much as the turn says it spent.
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      expect(row).toMatchObject({ userId: ann.id, conversationId: channelId, provider: "offline", model: "offline" });
      expect(row.inputTokens + row.outputTokens).toBe(panel.turns.find((turn) => turn.id === row.turnId)!.tokens);
    }

    await app.prisma.agent.update({ where: { id: agents.sage }, data: { monthlyTokenCap: 1 } });
    const capped = await ask(ann, "@panel @owl @sage and the next one?");
    await until(async () => (await app.prisma.panel.findUnique({ where: { questionMessageId: capped.id } }))?.status === "finished", "the second panel to finish", 20_000);
    const second = await app.prisma.panel.findUniqueOrThrow({ where: { questionMessageId: capped.id }, include: { turns: true } });
    expect(second.turns.filter((turn) => turn.agentId === agents.sage)).toEqual([expect.objectContaining({ status: "failed", tokens: 0, error: capReachedText("Sage", 1) })]);
    expect(await app.prisma.usageRecord.count({ where: { agentId: agents.sage, turnId: { in: second.turns.map((turn) => turn.id) } } })).toBe(0);
  });

  it("the migration's backfill rebuilds the same records from the replies' stored usage", async () => {
    const key = (row: { turnId: string; agentId: string | null; userId: string | null; inputTokens: number; outputTokens: number; provider: string; model: string }) =>
      `${row.turnId} ${row.agentId} ${row.userId} ${row.inputTokens} ${row.outputTokens} ${row.provider} ${row.model}`;
    const live = (await app.prisma.usageRecord.findMany({ where: { kind: "turn" } })).map(key).sort();
    expect(live.length).toBeGreaterThan(0);
    const migration = readFileSync(new URL("../../prisma/migrations/20261129030000_usage_records/migration.sql", import.meta.url), "utf8");
    const backfill = migration.slice(migration.indexOf('INSERT INTO "usage_records"'));
    await app.prisma.usageRecord.deleteMany({ where: { kind: "turn" } });
    await app.prisma.$executeRawUnsafe(backfill);
    expect((await app.prisma.usageRecord.findMany({ where: { kind: "turn" } })).map(key).sort()).toEqual(live);
  });

  it("refuses a cap of zero, a negative or a fractional cap on its field, and saves nothing", async () => {
    const form = { handle: "toby", displayName: "Toby", color: "#0ea5e9", systemPrompt: "You are toby.", provider: "openai", model: "gpt-4o-mini", temperature: "0.7", maxOutputTokens: "512", historyWindow: "50" };
    const refusal = (monthlyTokenCap: string) => agentConfigSchema.safeParse({ ...form, monthlyTokenCap }).error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(refusal("0")).toEqual([["monthlyTokenCap", "Monthly token cap must be more than 0 tokens: leave it empty for no cap."]]);
    expect(refusal("-5")).toEqual([["monthlyTokenCap", "Monthly token cap must be more than 0 tokens: leave it empty for no cap."]]);
    expect(refusal("1.5")).toEqual([["monthlyTokenCap", "Monthly token cap must be a whole number of tokens."]]);
    expect(refusal("lots")).toEqual([["monthlyTokenCap", "Monthly token cap must be a number of tokens, or empty for no cap."]]);
    expect(agentConfigSchema.safeParse({ ...form, inputUsdPerMillion: "-1" }).error?.issues[0]).toMatchObject({ path: ["inputUsdPerMillion"], message: "Input price must be at least 0." });

    const before = await getAgent(app.prisma, { actor: admin, agentId: agents.toby });
    // Written past the form, the database refuses it as well: the row is unchanged.
    await expect(app.prisma.agent.update({ where: { id: agents.toby }, data: { monthlyTokenCap: 0, displayName: "Half" } })).rejects.toThrow();
    expect(await getAgent(app.prisma, { actor: admin, agentId: agents.toby })).toEqual(before);

    const saved = await updateAgent(app.prisma, { actor: admin, agentId: agents.toby, config: agentConfigSchema.parse({ ...form, monthlyTokenCap: "1000000", inputUsdPerMillion: "0.15", outputUsdPerMillion: "" }) });
    expect(saved).toMatchObject({ monthlyTokenCap: 1_000_000, inputUsdPerMillion: 0.15, outputUsdPerMillion: null });
    const cleared = await updateAgent(app.prisma, { actor: admin, agentId: agents.toby, config: agentConfigSchema.parse({ ...form, monthlyTokenCap: "" }) });
    expect(cleared.monthlyTokenCap).toBeNull();
  });

  /** The agent's month so far, under a temporary cap (a cap is what makes the sum readable). */
  async function agentMonthlyCapOf(agentId: string, cap: number) {
    await app.prisma.agent.update({ where: { id: agentId }, data: { monthlyTokenCap: cap } });
    const state = await agentMonthlyCap(app.prisma, agentId);
    await app.prisma.agent.update({ where: { id: agentId }, data: { monthlyTokenCap: null } });
    return state!;
  }
});
