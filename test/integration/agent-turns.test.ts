import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { Ack, MessageDelta, TypingEvent } from "@/lib/realtime/events";
import { startAgents, stopAgents } from "@/lib/runtime/runtime";
import { FakeOpenAI } from "../support/fake-openai";
import { createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, TestApp, type ClientSocket, type TestUser } from "../support/test-app";

/** Agents answering through the real worker and the real openai SDK against a fake server. */
describe("agent turns", () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let channelId: string;
  let tobyId: string;

  beforeAll(async () => {
    fake = await FakeOpenAI.start();
    app = await TestApp.start({ env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL } });
    const { project } = await createProjectWithChannel(app.prisma);
    alice = await app.signUp("Alice");
    bob = await app.signUp("Bob");
    tobyId = (await app.prisma.agent.create({
      data: { projectId: project.id, handle: "toby", displayName: "Toby", color: "#0ea5e9", systemPrompt: "You are Toby.", provider: "openai", model: "gpt-4o-mini", historyWindow: 3 },
    })).id;
    channelId = (await createChannel(app.prisma, { userId: alice.id, projectId: project.id, name: "team", agentIds: [tobyId] })).id;
    startAgents(app.runtime, { leaseMs: 1_000, pollMs: 100 });
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  afterEach(async () => {
    fake.reset();
    await app.prisma.dispatch.deleteMany();
  });

  const joined = async (user: TestUser) => {
    const socket = await app.connect(user);
    await emitWithAck(socket, "conversation:join", { conversationId: channelId });
    return socket;
  };
  const send = (socket: ClientSocket, content: string) =>
    emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId: channelId, clientId: randomUUID(), content }).then((ack) => (ack as { data: MessageDto }).data);
  const replyFrom = (socket: ClientSocket, agentId: string) =>
    new Promise<MessageDto>((resolve) => {
      const onMessage = (message: MessageDto) => {
        if (message.author.kind !== "agent" || message.author.id !== agentId) return;
        socket.off("message:created", onMessage);
        resolve(message);
      };
      socket.on("message:created", onMessage);
    });
  const record = <T>(socket: ClientSocket, event: "message:delta" | "typing") => {
    const seen: T[] = [];
    socket.on(event, (payload: unknown) => seen.push(payload as T));
    return seen;
  };

  it("streams the reply to every participant in order and persists it once with attribution", async () => {
    fake.reply({ chunks: ["Let ", "me ", "check ", "that."] });
    const [aliceSocket, bobSocket] = [await joined(alice), await joined(bob)];
    const deltas = [record<MessageDelta>(aliceSocket, "message:delta"), record<MessageDelta>(bobSocket, "message:delta")];
    const typing = record<TypingEvent>(bobSocket, "typing");
    const aliceReply = replyFrom(aliceSocket, tobyId);
    const bobReply = replyFrom(bobSocket, tobyId);

    const question = await send(aliceSocket, "@toby what is the status?");
    const [forAlice, forBob] = await Promise.all([aliceReply, bobReply]);

    expect(forAlice).toEqual(forBob);
    expect(forAlice).toMatchObject({
      content: "Let me check that.",
      role: "assistant",
      author: { kind: "agent", id: tobyId, displayName: "Toby", handle: "toby" },
      metadata: { agentId: tobyId, agentDisplayName: "Toby", model: "gpt-4o-mini", provider: "openai", usage: { inputTokens: expect.any(Number), outputTokens: 4 } },
    });
    // Stored replies say which message they answer, like the streamed deltas.
    expect(forAlice.metadata.replyToMessageId).toBe(question.id);
    expect(deltas[0]!.every((delta) => delta.replyToMessageId === question.id)).toBe(true);
    const stored = await app.prisma.message.findUniqueOrThrow({ where: { id: forAlice.id } });
    expect(stored.metadata).toMatchObject({ replyToMessageId: question.id });
    expect(forAlice.seq).toBeGreaterThan(question.seq);
    for (const seen of deltas) expect(seen.map((delta) => delta.text)).toEqual(["Let ", "me ", "check ", "that."]);
    expect(deltas[1]!.map((delta) => delta.index)).toEqual([0, 1, 2, 3]);
    expect(typing.filter((event) => event.actor.kind === "agent").map((event) => event.typing)).toEqual([true, false]);
    expect(await app.prisma.message.count({ where: { authorAgentId: tobyId, metadata: { path: ["dispatchId"], equals: forAlice.metadata.dispatchId } } })).toBe(1);
    expect(fake.requests.at(-1)!.messages[0]).toEqual({ role: "system", content: "You are Toby." });
  });

  it("sees only its history window", async () => {
    const socket = await joined(alice);
    for (const text of ["one", "two", "three"]) await send(socket, text);
    const reply = replyFrom(socket, tobyId);
    await send(socket, "@toby summarise");
    await reply;
    const seen = fake.requests.at(-1)!.messages.map((message) => message.content);
    expect(seen).toEqual(["You are Toby.", "two", "three", "@toby summarise"]);
  });

  it.each([
    [401, /refused the API key/],
    [500, /internal error/],
    ["malformed", /could not be read/],
  ] as const)("turns an LLM failure (%s) into a message from the agent, clears typing and keeps the question", async (error, reason) => {
    fake.failAll(error);
    const socket = await joined(alice);
    const typing = record<TypingEvent>(socket, "typing");
    const reply = replyFrom(socket, tobyId);
    const question = await send(socket, "@toby fail please");
    const failure = await reply;
    expect(failure.content).toMatch(new RegExp(`^Toby could not answer: .*${reason.source}`));
    expect(failure.metadata).toMatchObject({ agentId: tobyId, error: expect.any(String) });
    expect(typing.filter((event) => event.actor.kind === "agent").at(-1)).toMatchObject({ typing: false });
    expect(await app.prisma.message.findUnique({ where: { id: question.id } })).not.toBeNull();
    expect(await app.prisma.dispatch.findFirst({ where: { messageId: question.id } })).toMatchObject({ status: "failed" });
  });

  it("stops mid-stream when the person who asked presses Stop, keeping what had arrived; others may not stop it", async () => {
    fake.reply({ content: "one two three four five six seven eight nine ten", delayMs: 60 });
    const socket = await joined(alice);
    const bobSocket = await joined(bob);
    const reply = replyFrom(socket, tobyId);
    const firstDelta = new Promise<MessageDelta>((resolve) => socket.once("message:delta", resolve));
    await send(socket, "@toby count slowly");
    const { dispatchId } = await firstDelta;
    expect(await emitWithAck(bobSocket, "agent:stop", { dispatchId })).toMatchObject({ error: { code: "forbidden", message: expect.stringMatching(/Only the person who asked/) } });
    expect(await emitWithAck(socket, "agent:stop", { dispatchId })).toEqual({ data: null });
    const stopped = await reply;
    expect(stopped.metadata).toMatchObject({ stopped: true, dispatchId });
    expect(stopped.content.length).toBeGreaterThan(0);
    expect(stopped.content).not.toContain("ten");
  });

  it("retries a turn whose worker died, once its lease expires, and answers once", async () => {
    await stopAgents(app.runtime);
    const socket = await joined(alice);
    const question = await send(socket, "@toby survive a crash");
    // A worker claims it and dies without finishing: the dispatch stays running with a lease.
    await app.prisma.dispatch.updateMany({ where: { messageId: question.id }, data: { status: "running", attempt: 1, leaseUntil: new Date(Date.now() + 300) } });
    fake.reply({ content: "back on my feet" });
    const reply = replyFrom(socket, tobyId);
    startAgents(app.runtime, { leaseMs: 1_000, pollMs: 100 });
    expect((await reply).content).toBe("back on my feet");
    expect(await app.prisma.dispatch.findFirst({ where: { messageId: question.id } })).toMatchObject({ status: "done", attempt: 2, failures: 1 });
  });

  it("gives up visibly after the last attempt", async () => {
    await stopAgents(app.runtime);
    const socket = await joined(alice);
    const question = await send(socket, "@toby this keeps crashing");
    await app.prisma.dispatch.updateMany({ where: { messageId: question.id }, data: { status: "running", attempt: 3, failures: 2, leaseUntil: new Date(Date.now() - 1) } });
    const reply = replyFrom(socket, tobyId);
    startAgents(app.runtime, { leaseMs: 1_000, pollMs: 100 });
    expect((await reply).content).toBe("Toby could not answer this message after 3 attempts.");
    expect(await app.prisma.dispatch.findFirst({ where: { messageId: question.id } })).toMatchObject({ status: "failed" });
  });

  it("answers a busy agent's messages in order, never dropping one", async () => {
    fake.reply({ content: "first answer", delayMs: 80 }, { content: "second answer" });
    const socket = await joined(alice);
    const answers: MessageDto[] = [];
    const both = new Promise<void>((resolve) =>
      socket.on("message:created", (message: MessageDto) => {
        if (message.author.kind === "agent" && answers.push(message) === 2) resolve();
      }),
    );
    await send(socket, "@toby first question");
    await send(socket, "@toby second question");
    await both;
    expect(answers.map((answer) => answer.content)).toEqual(["first answer", "second answer"]);
  });

  it("shows the agent at work in the sidebar of a participant who has not opened the conversation", async () => {
    fake.reply({ chunks: ["On ", "it."] });
    const aliceSocket = await joined(alice);
    const bobSidebar = await app.connect(bob);
    const [aliceTyping, bobTyping] = [record<TypingEvent>(aliceSocket, "typing"), record<TypingEvent>(bobSidebar, "typing")];
    const bobDeltas = record<MessageDelta>(bobSidebar, "message:delta");
    const reply = replyFrom(aliceSocket, tobyId);

    await send(aliceSocket, "@toby are you on it?");
    await reply;
    await new Promise((resolve) => setTimeout(resolve, 50));

    const agentTyping = (events: TypingEvent[]) => events.filter((event) => event.actor.kind === "agent").map((event) => [event.conversationId, event.actor.id, event.typing]);
    expect(agentTyping(bobTyping)).toEqual([[channelId, tobyId, true], [channelId, tobyId, false]]);
    // In the room and in her user room, Alice still gets each event once.
    expect(agentTyping(aliceTyping)).toEqual([[channelId, tobyId, true], [channelId, tobyId, false]]);
    // The streamed text itself is only for sockets that opened the conversation.
    expect(bobDeltas).toEqual([]);
  });
});
