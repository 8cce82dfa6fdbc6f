import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as listTurnsRoute } from "@/app/api/conversations/[conversationId]/turns/route";
import { GET as turnContextRoute } from "@/app/api/turns/[turnId]/context/route";
import { countPrompt } from "@/lib/context/message-costs";
import type { ContextSnapshot } from "@/lib/context/types";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { counterFor } from "@/lib/llm/token-counter";
import type { Ack } from "@/lib/realtime/events";
import { startAgents } from "@/lib/runtime/runtime";
import type { Prisma } from "@/lib/generated/prisma/client";
import { FakeOpenAI } from "../support/fake-openai";
import { createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, TestApp, type ClientSocket, type TestUser } from "../support/test-app";
import { until } from "../support/until";

/** Turns assemble their context by the contract, store it, and show it to those allowed. */
describe("agent turns and their context", () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let debugAnn: TestUser;
  let memberBob: TestUser;
  let adminCarol: TestUser;
  let projectId: string;
  let socket: ClientSocket;
  const statements: string[] = [];

  beforeAll(async () => {
    fake = await FakeOpenAI.start();
    app = await TestApp.start({ env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL }, onQuery: (statement) => statements.push(statement) });
    projectId = (await createProjectWithChannel(app.prisma)).project.id;
    debugAnn = await app.signUp("Ann");
    memberBob = await app.signUp("Bob");
    adminCarol = await app.signUp("Carol");
    await app.prisma.user.update({ where: { id: debugAnn.id }, data: { role: "debug" } });
    await app.prisma.user.update({ where: { id: adminCarol.id }, data: { role: "admin" } });
    startAgents(app.runtime, { leaseMs: 5_000, pollMs: 100 });
    socket = await app.connect(debugAnn);
    socket.on("message:created", (message) => received.push(message));
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  afterEach(() => fake.reset());

  let roomCount = 0;
  /** A room with a fresh agent of these context settings, everyone in it. */
  const room = async (contextSettings: Prisma.InputJsonObject, options: { systemPrompt?: string; historyWindow?: number } = {}) => {
    const handle = `agent${++roomCount}`;
    const agent = await app.prisma.agent.create({
      data: { projectId, handle, displayName: `Agent ${roomCount}`, color: "#0ea5e9", systemPrompt: options.systemPrompt ?? "You are helpful.", provider: "openai", model: "gpt-4o-mini", historyWindow: options.historyWindow ?? 50, contextSettings },
    });
    const channel = await createChannel(app.prisma, { userId: debugAnn.id, projectId, name: `room-${roomCount}`, agentIds: [agent.id] });
    await emitWithAck(socket, "conversation:join", { conversationId: channel.id });
    return { agent, conversationId: channel.id };
  };
  const send = async (conversationId: string, content: string) => {
    // These tests post faster than a person may (20 per 10 s): the allowance is not what they test.
    await app.prisma.rateBucket.deleteMany();
    const ack = await emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId, clientId: randomUUID(), content });
    if ("error" in ack) throw new Error(ack.error.message);
    return ack.data;
  };
  /** Every message the socket receives: a fast reply can arrive before the send's own answer. */
  const received: MessageDto[] = [];
  const ask = async (conversationId: string, content: string) => {
    const question = await send(conversationId, content);
    await until(() => received.some((message) => message.metadata.replyToMessageId === question.id), "the agent's reply");
    return { question, reply: received.find((message) => message.metadata.replyToMessageId === question.id)! };
  };
  const contextOf = async (turnId: string, user: TestUser | null) => {
    const response = await turnContextRoute(new Request(`${app.url}/api/turns/${turnId}/context`, { headers: user ? { cookie: user.cookie } : {} }), { params: Promise.resolve({ turnId }) });
    return { status: response.status, body: (await response.json()) as { data: ContextSnapshot } };
  };
  const words = (count: number, prefix = "w") => Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(" ");

  it("stores the exact messages sent to the model, counted as OpenAI counts them, with the reply's id, and lists the turn", async () => {
    const { agent, conversationId } = await room({ maxWorkingMemoryTokens: 8000 });
    await send(conversationId, "just chatting, no mention");
    fake.reply({ content: "Hello there." });
    statements.length = 0;
    const { question, reply } = await ask(conversationId, `@${agent.handle} hello`);
    // Written once, while the answer streamed: an answer without tool steps adds nothing to it after.
    expect(statements.filter((statement) => statement.includes(`INSERT INTO "context_snapshots"`))).toHaveLength(1);

    const { status, body } = await contextOf(reply.metadata.dispatchId!, debugAnn);
    expect(status).toBe(200);
    const snapshot = body.data;
    expect(snapshot).toMatchObject({ turnId: reply.metadata.dispatchId, conversationId, answeringMessageId: question.id, replyMessageId: reply.id, mode: "direct", strategy: "fifo", agent: { id: agent.id, handle: agent.handle, model: "gpt-4o-mini" } });
    expect(snapshot.messages).toEqual(fake.requests.at(-1)!.messages);
    expect(snapshot.messages.at(-2)).toEqual({ role: "user", content: "just chatting, no mention", name: expect.stringMatching(/^ann/) });
    expect(snapshot.budget.usedTokens).toBe(countPrompt(snapshot.messages, counterFor("gpt-4o-mini")));
    // The one model call.
    expect(snapshot.calls).toEqual([{ usedTokens: snapshot.budget.usedTokens }]);
    expect(snapshot.sections.map((section) => section.kind)).toEqual(["system", "procedure", "knowledge", "episodes", "summary", "history", "current"]);
    expect(Object.keys(snapshot.retrieval)).toEqual(["episodic", "semantic", "procedural"]);

    const listed = await listTurnsRoute(new Request(`${app.url}/api/conversations/${conversationId}/turns`, { headers: { cookie: debugAnn.cookie } }), { params: Promise.resolve({ conversationId }) });
    expect((await listed.json()).data).toEqual([
      { turnId: reply.metadata.dispatchId, agent: { id: agent.id, handle: agent.handle }, answeringMessageId: question.id, replyMessageId: reply.id, mode: "direct", usedTokens: snapshot.budget.usedTokens, maxTokens: 8000, createdAt: expect.any(String) },
    ]);
  });

  it("shows a turn to debug and admin participants only; others learn nothing about turns they may not see", async () => {
    const { agent, conversationId } = await room({});
    const { reply } = await ask(conversationId, `@${agent.handle} anything`);
    const turnId = reply.metadata.dispatchId!;
    expect((await contextOf(turnId, debugAnn)).status).toBe(200);
    expect((await contextOf(turnId, adminCarol)).status).toBe(200);
    expect((await contextOf(turnId, memberBob)).status).toBe(403);
    expect((await contextOf(turnId, null)).status).toBe(401);
    const unknown = await contextOf(randomUUID(), debugAnn);
    expect(unknown.status).toBe(404);

    // A debug user of another project gets the same answer for this turn as for one that does not exist.
    const other = await createProjectWithChannel(app.prisma, "elsewhere");
    const eve = await app.signUp("Eve");
    await app.prisma.membership.deleteMany({ where: { userId: eve.id } });
    await app.prisma.participant.deleteMany({ where: { userId: eve.id } });
    await app.prisma.membership.create({ data: { projectId: other.project.id, userId: eve.id } });
    await app.prisma.user.update({ where: { id: eve.id }, data: { role: "debug" } });
    const outsider = await contextOf(turnId, eve);
    expect(outsider).toEqual({ status: 404, body: unknown.body });
  });

  it("Summarize asks the agent's provider for a summary of the oldest messages, caches it, and later extends it with only the newly pruned ones", async () => {
    const { agent, conversationId } = await room({ pruningStrategy: "summarize", maxWorkingMemoryTokens: 400, summarizeFraction: 0.3, summaryMaxTokens: 50, minHistoryMessages: 0 });
    for (let i = 0; i < 10; i++) await send(conversationId, `message ${i}: ${words(20)}`);
    fake.reply({ content: "First summary." }, { content: "Answer one." });
    const first = await ask(conversationId, `@${agent.handle} what happened?`);

    const summaryRequest = fake.requests.find((request) => request.messages[0]!.content.startsWith("Summarize this conversation history concisely:"))!;
    expect(summaryRequest.max_tokens).toBe(50);
    const prompt = summaryRequest.messages[0]!.content;
    // The oldest ⌊10 × 0.3⌋ = 3 messages, each labelled with its author.
    expect(prompt.split("\n").slice(1)).toEqual([0, 1, 2].map((i) => expect.stringMatching(new RegExp(`^ann[\\w.]*: message ${i}: `))));
    const cached = await app.prisma.conversationSummary.findUniqueOrThrow({ where: { conversationId_agentId: { conversationId, agentId: agent.id } } });
    expect(cached).toMatchObject({ text: "First summary.", fromSeq: 1, toSeq: 3 });
    const firstSnapshot = (await contextOf(first.reply.metadata.dispatchId!, debugAnn)).body.data;
    expect(firstSnapshot.messages[1]).toEqual({ role: "system", content: "[Earlier conversation summary]: First summary." });
    expect(firstSnapshot.sections.find((section) => section.kind === "summary")!.items[0]).toMatchObject({ included: true, source: "seq 1–3" });

    // More messages push more history out: the new summary is the old one plus only what is newly pruned.
    fake.requests.length = 0;
    for (let i = 10; i < 14; i++) await send(conversationId, `message ${i}: ${words(20)}`);
    fake.reply({ content: "Second summary." }, { content: "Answer two." });
    const second = await ask(conversationId, `@${agent.handle} and now?`);
    const extension = fake.requests.find((request) => request.messages[0]!.content.startsWith("Summarize this conversation history concisely:"))!.messages[0]!.content;
    expect(extension).toContain("[Earlier conversation summary]: First summary.");
    expect(extension).not.toMatch(/message [0-2]: /);
    expect(extension).toMatch(/message 3: /);
    const extended = await app.prisma.conversationSummary.findUniqueOrThrow({ where: { conversationId_agentId: { conversationId, agentId: agent.id } } });
    expect(extended.fromSeq).toBe(1);
    expect(extended.toSeq).toBeGreaterThan(3);
    const secondSnapshot = (await contextOf(second.reply.metadata.dispatchId!, debugAnn)).body.data;
    expect(secondSnapshot.sections.find((section) => section.kind === "summary")!.items[0]!.source).toBe(`seq 1–${extended.toSeq}`);
    expect(secondSnapshot.budget.usedTokens).toBeLessThanOrEqual(400);
  });

  it("falls back to FIFO when the summary call fails, answers anyway, and the snapshot says why", async () => {
    const { agent, conversationId } = await room({ pruningStrategy: "summarize", maxWorkingMemoryTokens: 300, minHistoryMessages: 0 });
    for (let i = 0; i < 8; i++) await send(conversationId, `message ${i}: ${words(20)}`);
    fake.reply({ error: 401 }, { content: "Still here." });
    const { reply } = await ask(conversationId, `@${agent.handle} hello?`);
    expect(reply.content).toBe("Still here.");
    const snapshot = (await contextOf(reply.metadata.dispatchId!, debugAnn)).body.data;
    expect(snapshot.sections.find((section) => section.kind === "summary")!.items[0]).toMatchObject({ included: false, reason: expect.stringMatching(/^summary_failed: .*; fell back to FIFO$/) });
    expect(snapshot.sections.find((section) => section.kind === "history")!.items.some((item) => item.reason === "pruned_fifo")).toBe(true);
  });

  it("answers with a clear attributed error, without calling the model, when the instructions and the message alone overflow", async () => {
    const { agent, conversationId } = await room({ maxWorkingMemoryTokens: 256 });
    const before = fake.requests.length;
    const { reply } = await ask(conversationId, `@${agent.handle} ${words(400)}`);
    expect(fake.requests.length).toBe(before);
    expect(reply).toMatchObject({ author: { kind: "agent", id: agent.id }, metadata: { error: "budget" } });
    expect(reply.content).toMatch(/could not answer: its instructions and this message need [\d,]+ tokens, more than its working memory budget of 256/);
    const snapshot = (await contextOf(reply.metadata.dispatchId!, debugAnn)).body.data;
    expect(snapshot).toMatchObject({ error: "budget", messages: [], budget: { usedTokens: 0, maxTokens: 256 } });
  });
});
