import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ContextSnapshot } from "@/lib/context/types";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { openAgentChat } from "@/lib/conversations/open-agent-chat";
import { claimJob } from "@/lib/jobs/job-table";
import { HeldLease } from "@/lib/jobs/lease";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { EPISODE_INSTRUCTION } from "@/lib/llm/instructions";
import { countTokens } from "@/lib/llm/token-counter";
import { requestSessionEnd, sessionEndTable, writeEpisodes, type ClaimedSessionEnd } from "@/lib/memory/end-session";
import { embedderFor } from "@/lib/memory/memory-runtime";
import { deleteMyEpisode, listMyEpisodes } from "@/lib/memory/my-episodes";
import { readSessionEnd, type SessionEndView } from "@/lib/memory/session-end-view";
import type { Ack } from "@/lib/realtime/events";
import { providerRegistryFor, startAgents, startMemory } from "@/lib/runtime/runtime";
import { FakeOpenAI, type ChatRequest } from "../support/fake-openai";
import { createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, TestApp, type ClientSocket, type TestUser } from "../support/test-app";
import { until } from "../support/until";

/** The fake model's episode: a summary line, then every transcript line it was given as a fact (so a test sees exactly what it was sent). */
function episodeReply(request: ChatRequest) {
  const last = request.messages.at(-1)?.content ?? "";
  if (!last.startsWith(EPISODE_INSTRUCTION)) return undefined;
  const lines = last.slice(EPISODE_INSTRUCTION.length).split("\n").filter(Boolean);
  return { content: [`A session of ${lines.length} lines.`, ...lines.map((line) => `- ${line}`)].join("\n") };
}

/** Session ends (issue 17): recorded first, written by a retried job, per person, within the model's budget. */
describe("session ends: episodes at least once, per person, bounded", () => {
  let app: TestApp;
  let fake: FakeOpenAI;
  let projectId: string;
  let ann: TestUser;
  let ben: TestUser;
  let cat: TestUser;
  let adaId: string;
  const sockets = new Map<string, ClientSocket>();
  const received: MessageDto[] = [];
  const updates: SessionEndView[] = [];

  const socketOf = async (user: TestUser) => {
    if (!sockets.has(user.id)) {
      const socket = await app.connect(user);
      socket.on("message:created", (message) => received.push(message));
      socket.on("memory:session-end", (view) => updates.push(view));
      sockets.set(user.id, socket);
    }
    return sockets.get(user.id)!;
  };
  /** Posts and, when an agent is asked, waits for its reply. */
  const say = async (user: TestUser, conversationId: string, content: string, answered = true) => {
    await app.prisma.rateBucket.deleteMany();
    const socket = await socketOf(user);
    await emitWithAck(socket, "conversation:join", { conversationId });
    const ack = await emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId, clientId: randomUUID(), content });
    const question = (ack as { data: MessageDto }).data;
    if (answered) await until(() => received.some((message) => message.metadata.replyToMessageId === question.id), "the reply", 15_000);
    return question;
  };
  const endSession = async (conversationId: string, requestedBy: TestUser | null) => {
    const id = (await requestSessionEnd(app.prisma, { conversationId, requestedBy: requestedBy?.id ?? null }))!;
    app.runtime.sessionEnds!.wake([id]);
    return id;
  };
  const done = (id: string) => until(async () => (await app.prisma.sessionEnd.findUnique({ where: { id } }))?.status === "done", "the episodes to be written", 20_000);
  const episodesOf = (userId: string | null) => app.prisma.episode.findMany({ where: { agentId: adaId, userId } });
  const mentions4512 = (episode: { summary: string; facts: string[] }) => `${episode.summary} ${episode.facts.join(" ")}`.includes("4512");

  beforeAll(async () => {
    fake = await FakeOpenAI.start();
    app = await TestApp.start({ env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL, EMBEDDINGS_DIMENSIONS: "8", EMBEDDINGS_MODEL: "fake-embedding" } });
    projectId = (await createProjectWithChannel(app.prisma)).project.id;
    [ann, ben, cat] = [await app.signUp("Ann"), await app.signUp("Ben"), await app.signUp("Cat")];
    // Jobs run only when woken, so a test can claim one itself.
    await startMemory(app.runtime, embedderFor(app.runtime.env), { pollMs: 60_000 });
    startAgents(app.runtime, { leaseMs: 10_000, pollMs: 100 });
    adaId = (await app.prisma.agent.create({ data: { projectId, handle: "ada", displayName: "Ada", color: "#0ea5e9", systemPrompt: "You are Ada.", provider: "openai", model: "gpt-4o-mini" } })).id;
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
    fake.respondWith(episodeReply);
  });

  it("in a channel, each person's memory holds only what they said and what was said to them; the channel's summary stays in the channel", async () => {
    const { id: channelId } = await createChannel(app.prisma, { userId: ann.id, projectId, name: "lockers", agentIds: [adaId] });
    await say(ann, channelId, "@ada my locker code is 4512, keep it safe");
    await say(ben, channelId, "@ada hello there, what can you do?");
    await say(cat, channelId, "anyone up for lunch?", false);
    const sessionEndId = await endSession(channelId, ben);
    await done(sessionEndId);

    const [annsEpisodes, bensEpisodes, catsEpisodes, channelEpisodes] = await Promise.all([episodesOf(ann.id), episodesOf(ben.id), episodesOf(cat.id), episodesOf(null)]);
    expect(annsEpisodes).toHaveLength(1);
    expect(mentions4512(annsEpisodes[0]!)).toBe(true);
    expect(bensEpisodes).toHaveLength(1);
    expect(mentions4512(bensEpisodes[0]!)).toBe(false);
    expect(bensEpisodes[0]!.facts.join(" ")).toContain("hello there");
    // Cat never dealt with Ada: Ada keeps nothing about her.
    expect(catsEpisodes).toHaveLength(0);
    expect(channelEpisodes).toHaveLength(1);
    expect(channelEpisodes[0]).toMatchObject({ conversationId: channelId, sessionEndId });
    // No model call for Ben was given Ann's words.
    const episodeCalls = fake.requests.filter((request) => request.messages.at(-1)!.content.startsWith(EPISODE_INSTRUCTION));
    expect(episodeCalls).toHaveLength(3);

    // What Ada remembers, as Ben sees it, and as Ben's session end told him.
    expect((await listMyEpisodes(app.prisma, { userId: ben.id, agentId: adaId })).some(mentions4512)).toBe(false);
    const view = (await readSessionEnd(app.prisma, { id: sessionEndId, userId: ben.id }))!;
    expect(view).toMatchObject({ status: "done", kept: [{ agentName: "Ada" }] });
    expect(mentions4512(view.kept[0]!)).toBe(false);
    await until(() => updates.some((update) => update.id === sessionEndId && update.status === "done"), "Ben's tabs to be told");
    expect(await readSessionEnd(app.prisma, { id: sessionEndId, userId: ann.id })).toBeNull();

    // Ben's private chat with Ada never recalls Ann's code; in the channel, its own summary is recalled.
    const { id: chatId } = await openAgentChat(app.prisma, { userId: ben.id, projectId, agentId: adaId });
    const inChat = await say(ben, chatId, "what was that locker code again?");
    const chatSnapshot = (await app.prisma.contextSnapshot.findFirstOrThrow({ where: { answeringMessageId: inChat.id } })).snapshot as unknown as ContextSnapshot;
    const recalled = chatSnapshot.sections.find((section) => section.kind === "episodes")!.items;
    expect(recalled.map((item) => item.id)).not.toContain(annsEpisodes[0]!.id);
    expect(recalled.map((item) => item.id)).not.toContain(channelEpisodes[0]!.id);
    expect(JSON.stringify(chatSnapshot.messages)).not.toContain("4512");
    const inChannel = await say(ben, channelId, "@ada what did we talk about here?");
    const channelSnapshot = (await app.prisma.contextSnapshot.findFirstOrThrow({ where: { answeringMessageId: inChannel.id } })).snapshot as unknown as ContextSnapshot;
    expect(channelSnapshot.sections.find((section) => section.kind === "episodes")!.items.map((item) => item.id)).toContain(channelEpisodes[0]!.id);

    // Each person forgets only their own.
    await expect(deleteMyEpisode(app.prisma, { userId: ben.id, episodeId: annsEpisodes[0]!.id })).rejects.toMatchObject({ code: "not_found" });
    await deleteMyEpisode(app.prisma, { userId: ann.id, episodeId: annsEpisodes[0]!.id });
    expect(await episodesOf(ann.id)).toHaveLength(0);
  });

  it("a session ended while the model is down keeps its job and writes the episodes once the model is back", async () => {
    const { id: chatId } = await openAgentChat(app.prisma, { userId: ann.id, projectId, agentId: adaId });
    await say(ann, chatId, "The launch moved to 3 March.");
    fake.failAll(500);
    const sessionEndId = await endSession(chatId, ann);
    await until(async () => (await app.prisma.sessionEnd.findUniqueOrThrow({ where: { id: sessionEndId } })).failures >= 1, "a failed attempt", 20_000);
    expect(await app.prisma.sessionEnd.findUniqueOrThrow({ where: { id: sessionEndId } })).toMatchObject({ status: "pending", episodes: 0 });
    expect(await app.prisma.episode.count({ where: { sessionEndId } })).toBe(0);
    expect(await readSessionEnd(app.prisma, { id: sessionEndId, userId: ann.id })).toMatchObject({ status: "pending", retrying: true });

    fake.reset();
    fake.respondWith(episodeReply);
    // The worker polls for retries; this test's polls are rare, so it is woken as a poll would.
    await until(async () => {
      app.runtime.sessionEnds!.wake();
      return (await app.prisma.sessionEnd.findUniqueOrThrow({ where: { id: sessionEndId } })).status === "done";
    }, "the retry to write the episodes", 30_000);
    const episodes = await app.prisma.episode.findMany({ where: { sessionEndId } });
    expect(episodes).toHaveLength(1);
    expect(episodes[0]!.facts.join(" ")).toContain("3 March");
  });

  it("summarises a session too long for the agent's budget in pieces (or its latest part), says which, and never sends more than the budget", async () => {
    const budget = 600;
    const brief = await app.prisma.agent.create({
      data: { projectId, handle: `brief${Date.now()}`, displayName: "Brief", color: "#0ea5e9", systemPrompt: "Brief.", provider: "openai", model: "gpt-4o-mini", contextSettings: { maxWorkingMemoryTokens: budget } },
    });
    const { id: chatId } = await openAgentChat(app.prisma, { userId: ann.id, projectId, agentId: brief.id });
    for (let i = 0; i < 4; i++) await say(ann, chatId, `Part ${i}: ${"the migration plan covers the database, the queues and the caches in order. ".repeat(15)}`);
    const sessionEndId = await endSession(chatId, ann);
    await done(sessionEndId);
    const [episode] = await app.prisma.episode.findMany({ where: { sessionEndId } });
    expect(episode!.coverage).toMatch(/^(pieces:\d+|latest:\d+\/\d+)$/);
    const calls = fake.requests.filter((request) => request.messages.at(-1)!.content.startsWith(EPISODE_INSTRUCTION) && request.model === "gpt-4o-mini");
    expect(calls.length).toBeGreaterThan(1);
    for (const call of calls.slice(-3)) expect(countTokens(call.messages.at(-1)!.content, "gpt-4o-mini") + (call.max_tokens ?? 0)).toBeLessThanOrEqual(budget);
  });

  it("the idle sweep ends every quiet session: one conversation's failing model does not hold up the others", async () => {
    const broken = await app.prisma.agent.create({ data: { projectId, handle: `broken${Date.now()}`, displayName: "Broken", color: "#0ea5e9", systemPrompt: "Broken.", provider: "openai", model: "broken-model" } });
    const { id: quiet } = await openAgentChat(app.prisma, { userId: cat.id, projectId, agentId: adaId });
    const { id: failing } = await openAgentChat(app.prisma, { userId: cat.id, projectId, agentId: broken.id });
    await say(cat, quiet, "I prefer tea to coffee.");
    await say(cat, failing, "Remember my desk is 42.");
    fake.respondWith((request) => (request.model === "broken-model" && request.messages.at(-1)!.content.startsWith(EPISODE_INSTRUCTION) ? { error: 500 } : episodeReply(request)));
    await app.prisma.$executeRaw`UPDATE "conversations" SET "updatedAt" = now() - interval '2 hours' WHERE "id" IN (${quiet}, ${failing})`;
    const sweep = (await import("@/lib/memory/idle-session-sweep")).startIdleSessionSweep({
      prisma: app.prisma,
      idleMinutes: 30,
      everyMs: 100,
      onQueued: (ids) => app.runtime.sessionEnds!.wake(ids),
    });
    try {
      await until(async () => (await app.prisma.sessionEnd.findFirst({ where: { conversationId: quiet } }))?.status === "done", "the quiet session's episodes", 20_000);
      await until(async () => ((await app.prisma.sessionEnd.findFirst({ where: { conversationId: failing } }))?.failures ?? 0) >= 1, "the failing one to be retried");
    } finally {
      await sweep.stop();
    }
    expect(await app.prisma.sessionEnd.count({ where: { conversationId: { in: [quiet, failing] } } })).toBe(2);
    expect(await app.prisma.episode.count({ where: { conversationId: quiet, userId: cat.id } })).toBe(1);
  });

  it("an attempt that lost its lease writes nothing; the attempt holding it writes the episodes once", async () => {
    const { id: chatId } = await openAgentChat(app.prisma, { userId: ben.id, projectId, agentId: adaId });
    await say(ben, chatId, "My badge number is 7781.");
    const id = (await requestSessionEnd(app.prisma, { conversationId: chatId, requestedBy: ben.id }))!;
    const claim = () => claimJob<ClaimedSessionEnd>(app.prisma, sessionEndTable, { leaseMs: 60_000, filter: sql`d."id" = ${id}`, order: sql`d."createdAt"` });
    const stale = (await claim())!;
    // Its node stalls: the lease runs out and another node claims the job.
    await app.prisma.sessionEnd.update({ where: { id }, data: { leaseUntil: new Date(Date.now() - 1) } });
    const current = (await claim())!;
    expect(current).toMatchObject({ attempt: stale.attempt + 1, failures: 1 });
    const deps = { prisma: app.prisma, embedder: app.runtime.memory!.embedder, providerFor: providerRegistryFor(app.runtime), onUpdate: () => undefined };

    const staleLease = new HeldLease("session end", id, stale.attempt, Date.now() + 60_000);
    await writeEpisodes(deps, stale, staleLease);
    expect(staleLease.held()).toBe(false);
    expect(await app.prisma.episode.count({ where: { sessionEndId: id } })).toBe(0);

    await writeEpisodes(deps, current, new HeldLease("session end", id, current.attempt, Date.now() + 60_000));
    expect(await app.prisma.sessionEnd.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "done", episodes: 1, attempt: current.attempt });
    expect(await app.prisma.episode.count({ where: { sessionEndId: id } })).toBe(1);
  });
});
