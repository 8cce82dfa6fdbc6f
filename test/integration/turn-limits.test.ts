import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { openAgentChat } from "@/lib/conversations/open-agent-chat";
import type { QueuedTurn } from "@/lib/dispatch/queued-turn";
import type { Ack } from "@/lib/realtime/events";
import { startAgents } from "@/lib/runtime/runtime";
import { FakeOpenAI, type ChatRequest } from "../support/fake-openai";
import { createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, TestApp, type ClientSocket, type TestUser } from "../support/test-app";
import { until } from "../support/until";

const HANDLES = ["toby", "ada", "sage", "aria"];
const agentOf = (request: ChatRequest) => /^You are (\w+)\./.exec(request.messages[0]?.content ?? "")?.[1];
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");

/** A project with four agents of the OpenAI-compatible provider (answered by the fake server), people and their sockets. */
async function world(env: Record<string, string>) {
  const fake = await FakeOpenAI.start();
  const app = await TestApp.start({ env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL, ...env } });
  const { project } = await createProjectWithChannel(app.prisma);
  const agents: Record<string, string> = {};
  for (const handle of HANDLES) {
    agents[handle] = (await app.prisma.agent.create({ data: { projectId: project.id, handle, displayName: handle[0]!.toUpperCase() + handle.slice(1), color: "#0ea5e9", systemPrompt: `You are ${handle}.`, provider: "openai", model: "gpt-4o-mini" } })).id;
  }
  startAgents(app.runtime, { pollMs: 100 });
  const received: MessageDto[] = [];
  const queued: QueuedTurn[] = [];
  const people = new Map<string, { user: TestUser; socket: ClientSocket }>();
  const person = async (name: string) => {
    if (!people.has(name)) {
      const user = await app.signUp(name);
      const socket = await app.connect(user);
      socket.on("message:created", (message) => received.push(message));
      socket.on("turn:queued", (turn) => queued.push(turn));
      people.set(name, { user, socket });
    }
    return people.get(name)!;
  };
  const channel = async (name: string, owner: string) => {
    const { id } = await createChannel(app.prisma, { userId: (await person(owner)).user.id, projectId: project.id, name, agentIds: Object.values(agents) });
    return id;
  };
  const post = async (name: string, conversationId: string, content: string) => {
    const { socket } = await person(name);
    await emitWithAck(socket, "conversation:join", { conversationId });
    return emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId, clientId: randomUUID(), content });
  };
  const ask = async (name: string, conversationId: string, content: string) => {
    const ack = await post(name, conversationId, content);
    if ("error" in ack) throw new Error(ack.error.message);
    return ack.data;
  };
  // Every person's socket hears the room: each message once.
  const repliesTo = (question: MessageDto) => [...new Map(received.filter((message) => message.metadata.replyToMessageId === question.id).map((message) => [message.id, message])).values()];
  return { fake, app, project, agents, received, queued, person, channel, post, ask, repliesTo, close: async () => (await app.close(), await fake.close()) };
}

type World = Awaited<ReturnType<typeof world>>;

describe("agent turns at load: in flight, fair, within the provider's limits", () => {
  let current: World | null = null;
  afterEach(async () => {
    await current?.close();
    current = null;
  });

  it("starts every independent turn when it is asked: eight turns in two rooms run at once", async () => {
    const w = (current = await world({}));
    w.fake.respondWith(() => ({ content: words(12), delayMs: 150 }));
    const [one, two] = [await w.channel("one", "ann"), await w.channel("two", "ann")];
    const mention = HANDLES.map((handle) => `@${handle}`).join(" ");
    const questions = await Promise.all([w.ask("ann", one, `${mention} first room`), w.ask("bob", two, `${mention} second room`)]);
    await until(() => questions.every((question) => w.repliesTo(question).length === 4), "eight replies", 20_000);
    // A reply takes ~2 s: all eight were with the model together (a node used to run four at a time).
    expect(w.fake.maxInFlight).toBe(8);
    expect(w.queued).toEqual([]);
  });

  it("keeps the provider's concurrency across the node, answers every turn once and in order, and tells the room who is queued", async () => {
    const w = (current = await world({ PROVIDER_MAX_CONCURRENT: "2" }));
    w.fake.respondWith((request) => ({ content: `${agentOf(request)} says ${words(6)}`, delayMs: 60 }));
    const room = await w.channel("busy", "ann");
    const first = await w.ask("ann", room, "@toby @ada @sage @aria one");
    const second = await w.ask("ann", room, "@toby @ada two");
    await until(() => w.repliesTo(first).length === 4 && w.repliesTo(second).length === 2, "every reply", 30_000);
    expect(w.fake.maxInFlight).toBe(2);
    // Exactly once each, and Toby answered "one" before "two".
    expect(w.repliesTo(first).map((reply) => reply.author.kind === "agent" && reply.author.handle).sort()).toEqual(["ada", "aria", "sage", "toby"]);
    const tobyOrder = w.received.filter((message) => message.author.kind === "agent" && message.author.handle === "toby").map((message) => message.metadata.replyToMessageId);
    expect(tobyOrder).toEqual([first.id, second.id]);
    expect(await w.app.prisma.dispatch.count({ where: { status: { not: "done" } } })).toBe(0);
    // The turns that waited were announced, with their places in line.
    expect(w.queued.length).toBeGreaterThan(0);
    expect(w.queued.every((turn) => turn.state === "queued" && turn.conversationId === room)).toBe(true);
  });

  it("is fair across rooms: a person alone in a chat with an agent is not behind a channel's backlog", async () => {
    const w = (current = await world({ PROVIDER_MAX_CONCURRENT: "1", MAX_QUEUED_TURNS_PER_PERSON: "50" }));
    w.fake.respondWith((request) => ({ content: `${agentOf(request)} answers`, delayMs: 80 }));
    const room = await w.channel("backlog", "ann");
    const backlog: MessageDto[] = [];
    for (const text of ["a", "b", "c"]) backlog.push(await w.ask("ann", room, `@toby @ada @sage @aria ${text}`));
    const { id: chat } = await openAgentChat(w.app.prisma, { userId: (await w.person("cat")).user.id, projectId: w.project.id, agentId: w.agents.sage! });
    const alone = await w.ask("cat", chat, "just one question");
    await until(() => w.repliesTo(alone).length === 1 && backlog.every((question) => w.repliesTo(question).length === 4), "every reply", 40_000);
    // The model saw Cat's question while most of the channel's twelve turns still waited.
    const order = w.fake.requests.map((request) => request.messages.at(-1)!.content);
    expect(order.indexOf("just one question")).toBeLessThan(4);
  });

  it("waits out a provider answering 429 (holding no slot) and answers every turn once, in order, none given up", async () => {
    const w = (current = await world({}));
    const limitedUntil = Date.now() + 1_500;
    w.fake.respondWith((request) => (Date.now() < limitedUntil ? { error: 429, retryAfterSeconds: 1 } : { content: `${agentOf(request)} is back` }));
    const room = await w.channel("limited", "ann");
    const questions = [await w.ask("ann", room, "@toby @ada first"), await w.ask("ann", room, "@toby second")];
    await until(() => w.queued.some((turn) => turn.state === "waiting_provider"), "the room to be told they wait for the provider");
    await until(() => questions.every((question, index) => w.repliesTo(question).length === (index === 0 ? 2 : 1)), "every reply", 30_000);
    const replies = questions.flatMap((question) => w.repliesTo(question));
    expect(replies.every((reply) => reply.content.endsWith("is back") && !reply.metadata.error)).toBe(true);
    const tobyOrder = w.received.filter((message) => message.author.kind === "agent" && message.author.handle === "toby").map((message) => message.metadata.replyToMessageId);
    expect(tobyOrder).toEqual(questions.map((question) => question.id));
    expect(await w.app.prisma.dispatch.count({ where: { OR: [{ status: "failed" }, { failures: { gt: 0 } }] } })).toBe(0);
  });

  it("counts the provider's requests per minute across nodes: past the limit a turn waits for the next minute, holding no slot, and the room is told", async () => {
    const w = (current = await world({ PROVIDER_RPM: "1" }));
    w.fake.respondWith((request) => ({ content: `${agentOf(request)} answers` }));
    const room = await w.channel("per-minute", "ann");
    const question = await w.ask("ann", room, "@toby @ada both of you");
    await until(() => w.repliesTo(question).length === 1, "the one reply this minute allows");
    await until(() => w.queued.some((turn) => turn.state === "waiting_provider"), "the other turn to wait for the provider");
    const waiting = w.queued.find((turn) => turn.state === "waiting_provider")!;
    expect(waiting.retryInMs).toBeGreaterThan(0);
    expect(waiting.retryInMs).toBeLessThanOrEqual(72_000);
    expect(await w.app.prisma.dispatch.findUniqueOrThrow({ where: { id: waiting.dispatchId } })).toMatchObject({ status: "pending", failures: 0, leaseUntil: null });
    expect(w.fake.requests).toHaveLength(1);
    expect(await w.app.prisma.providerUsage.findMany({ select: { provider: true, requests: true } })).toEqual([{ provider: "openai", requests: 1 }]);
  });

  it("a provider that hangs times its turns out with an attributed error while the offline model's turns flow", async () => {
    const w = (current = await world({ PROVIDER_TIMEOUT_MS: "800" }));
    w.fake.respondWith(() => ({ error: "timeout" }));
    await w.app.prisma.agent.update({ where: { id: w.agents.sage! }, data: { provider: "offline", model: "offline" } });
    const room = await w.channel("hang", "ann");
    const question = await w.ask("ann", room, "@toby @sage are you there?");
    await until(() => w.repliesTo(question).length === 2, "both replies", 20_000);
    const byHandle = Object.fromEntries(w.repliesTo(question).map((reply) => [reply.author.kind === "agent" ? reply.author.handle : "", reply]));
    expect(byHandle.toby).toMatchObject({ content: "Toby could not answer: The model did not answer in time. Try again.", metadata: { error: "timeout" } });
    expect(byHandle.sage!.content).toContain("(offline model)");
  });

  it("refuses a question past the backlog limits with the reason, and stops a queued turn before it starts", async () => {
    const w = (current = await world({ PROVIDER_MAX_CONCURRENT: "1", MAX_QUEUED_TURNS_PER_PERSON: "3", MAX_QUEUED_TURNS_PER_CONVERSATION: "5" }));
    w.fake.respondWith((request) => ({ content: `${agentOf(request)} ${words(20)}`, delayMs: 100 }));
    const room = await w.channel("pressure", "ann");
    const asked = await w.ask("ann", room, "@toby @ada @sage three at once");
    // Ann has three turns open: a fourth is refused, nothing is written.
    const before = await w.app.prisma.message.count({ where: { conversationId: room } });
    expect(await w.post("ann", room, "@aria and one more")).toMatchObject({ error: { code: "rate_limited", message: "You already have 3 questions waiting for agents. Wait for some answers, then send this again." } });
    expect(await w.app.prisma.message.count({ where: { conversationId: room } })).toBe(before);
    // A plain message (no agent asked) is never refused for the backlog.
    expect(await w.post("ann", room, "just saying")).toMatchObject({ data: { content: "just saying" } });
    // Bob may still ask, until the room's own limit (5 open turns) is reached.
    expect(await w.post("bob", room, "@aria @toby please")).toMatchObject({ data: {} });
    expect(await w.post("bob", room, "@sage too")).toMatchObject({ error: { code: "rate_limited", message: "Agents already have 5 questions waiting in this conversation. Wait for some answers, then send this again." } });

    // Ann stops one of her queued turns: it ends at once, and the model never hears it.
    const { socket } = await w.person("ann");
    const waiting = await emitWithAck<Ack<QueuedTurn[]>>(socket, "turns:queued", { conversationId: room });
    const stopped = (waiting as { data: QueuedTurn[] }).data.filter((turn) => turn.replyToMessageId === asked.id).at(-1)!;
    expect(stopped).toMatchObject({ state: "queued", ahead: expect.any(Number) });
    expect(await emitWithAck(socket, "agent:stop", { dispatchId: stopped.dispatchId })).toEqual({ data: null });
    await until(() => w.received.some((message) => message.metadata.dispatchId === stopped.dispatchId), "the stopped reply");
    expect(w.received.find((message) => message.metadata.dispatchId === stopped.dispatchId)).toMatchObject({ content: "(stopped before answering)", metadata: { stopped: true } });
    await until(() => w.repliesTo(asked).length === 3, "the other replies", 30_000);
    expect(w.fake.requests.filter((request) => agentOf(request) === stopped.agent.handle && request.messages.at(-1)!.content.includes("three at once"))).toEqual([]);
  });
});
