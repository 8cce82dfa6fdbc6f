import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMessages } from "@/lib/conversations/list-messages";
import { postMessage } from "@/lib/conversations/post-message";
import { AppError } from "@/lib/errors/app-error";
import { countTokens } from "@/lib/llm/token-counter";
import { createChannel, createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";

describe("posting messages", () => {
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let channelId: string;
  let aliceOnlyId: string;
  let projectId: string;
  const statements: string[] = [];

  beforeAll(async () => {
    app = await TestApp.start({ onQuery: (sql) => statements.push(sql) });
    const { project, channel } = await createProjectWithChannel(app.prisma);
    projectId = project.id;
    channelId = channel.id;
    alice = await app.signUp("Alice");
    bob = await app.signUp("Bob");
    aliceOnlyId = (await createChannel(app.prisma, { projectId: project.id, name: "solo", userIds: [alice.id] })).id;
  });
  afterAll(() => app.close());

  it("stores the message with author, metadata, its token count and the next sequence number", async () => {
    const content = "first of many words";
    const { message, created } = await postMessage(app.prisma, { userId: alice.id, input: { conversationId: channelId, clientId: randomUUID(), content } });

    expect(created).toBe(true);
    expect(message).toMatchObject({ seq: 1, role: "user", content, author: { kind: "user", id: alice.id } });
    expect(message.metadata).toEqual({ isHandoffSummary: false, isToolResult: false, timestamp: message.createdAt });
    const stored = await app.prisma.message.findUniqueOrThrow({ where: { id: message.id } });
    expect(stored.tokenCount).toBe(countTokens(content));
    // What the sender was told is exactly what everyone reads back.
    const { messages } = await listMessages(app.prisma, { userId: bob.id, conversationId: channelId });
    expect(messages.find((candidate) => candidate.id === message.id)).toEqual(message);
  });

  it("asks an agent in one statement, and a mention of a saved panel's handle still asks the panel, not an agent", async () => {
    const agent = (handle: string) => app.prisma.agent.create({ data: { projectId, handle, displayName: handle, color: "#123456", systemPrompt: "Answer.", provider: "offline", model: "offline" } });
    const [scout, sage] = [await agent("scout"), await agent("sage")];
    const roomId = (await createChannel(app.prisma, { projectId, name: "asking", userIds: [alice.id] })).id;
    await app.prisma.participant.createMany({ data: [scout, sage].map((bot) => ({ conversationId: roomId, agentId: bot.id })) });
    await app.prisma.savedPanel.create({ data: { id: randomUUID(), projectId, handle: "council", name: "Council", agentIds: [scout.id, sage.id] } });
    const ask = (content: string) => postMessage(app.prisma, { userId: alice.id, input: { conversationId: roomId, clientId: randomUUID(), content } });

    statements.length = 0;
    const asked = await ask("@scout what changed?");
    expect(statements).toHaveLength(1);
    expect(asked.dispatchedAgentIds).toEqual([scout.id]);

    const convened = await ask("@council should we ship?");
    expect(convened.panelId).toBeDefined();
    expect(convened.dispatchedAgentIds).toEqual([]);
    expect(convened.message.seq).toBe(asked.message.seq + 1);
    expect(await app.prisma.panel.findUniqueOrThrow({ where: { questionMessageId: convened.message.id } })).toMatchObject({ agentIds: [scout.id, sage.id] });
  });

  it("returns the first message when the same clientId is sent again, also concurrently", async () => {
    const input = { conversationId: channelId, clientId: randomUUID(), content: "only once" };
    const results = await Promise.all(Array.from({ length: 5 }, () => postMessage(app.prisma, { userId: alice.id, input })));

    expect(new Set(results.map((result) => result.message.id)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(await app.prisma.message.count({ where: { clientId: input.clientId } })).toBe(1);
  });

  it("refuses another user's clientId instead of returning their message", async () => {
    const input = { conversationId: channelId, clientId: randomUUID(), content: "mine" };
    await postMessage(app.prisma, { userId: alice.id, input });
    await expect(postMessage(app.prisma, { userId: bob.id, input })).rejects.toMatchObject({ code: "conflict" });
  });

  it("forbids reading and posting for a non-participant", async () => {
    const write = postMessage(app.prisma, { userId: bob.id, input: { conversationId: aliceOnlyId, clientId: randomUUID(), content: "hi" } });
    await expect(write).rejects.toBeInstanceOf(AppError);
    await expect(write).rejects.toMatchObject({ code: "forbidden" });
    await expect(listMessages(app.prisma, { userId: bob.id, conversationId: aliceOnlyId })).rejects.toMatchObject({ code: "forbidden" });
  });

  it("quotes the message replied to, and refuses a reply to a deleted message or another conversation's, writing nothing", async () => {
    const { id: conversationId } = await createChannel(app.prisma, { projectId: (await app.prisma.project.findFirstOrThrow()).id, name: "replies", userIds: [alice.id, bob.id] });
    const post = (content: string, replyToMessageId?: string, to = conversationId) =>
      postMessage(app.prisma, { userId: alice.id, input: { conversationId: to, clientId: randomUUID(), content, replyToMessageId } });
    const { message: original } = await post("the original");
    const reply = await post("a reply", original.id);
    expect(reply.message).toMatchObject({ seq: 2, replyTo: { id: original.id, seq: 1, excerpt: "the original", deleted: false } });
    expect([...reply.participantUserIds].sort()).toEqual([alice.id, bob.id].sort());
    expect(await app.prisma.readState.findUniqueOrThrow({ where: { userId_conversationId: { userId: alice.id, conversationId } } })).toMatchObject({ lastReadSeq: 2 });

    const { message: elsewhere } = await post("in another conversation", undefined, aliceOnlyId);
    await app.prisma.message.update({ where: { id: original.id }, data: { deletedAt: new Date(), content: "" } });
    const bucket = () => app.prisma.rateBucket.findUniqueOrThrow({ where: { userId: alice.id } });
    const before = await bucket();
    for (const replyTo of [original.id, elsewhere.id]) {
      await expect(post("a reply to nothing here", replyTo)).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(/^The message you replied to is not in this conversation any more/) });
    }
    // Refused posts take no seq and nothing from the rate bucket.
    expect(await app.prisma.conversation.findUniqueOrThrow({ where: { id: conversationId } })).toMatchObject({ lastSeq: 2 });
    expect(await app.prisma.message.count({ where: { conversationId } })).toBe(2);
    expect(await bucket()).toEqual(before);
  });

  it("pages history newest first with a cursor", async () => {
    const { channel } = { channel: await createChannel(app.prisma, { projectId: (await app.prisma.project.findFirstOrThrow()).id, name: "paged", userIds: [alice.id] }) };
    for (let index = 1; index <= 7; index += 1) {
      await postMessage(app.prisma, { userId: alice.id, input: { conversationId: channel.id, clientId: randomUUID(), content: `m${index}` } });
    }
    const first = await listMessages(app.prisma, { userId: alice.id, conversationId: channel.id, limit: 3 });
    const second = await listMessages(app.prisma, { userId: alice.id, conversationId: channel.id, limit: 3, beforeSeq: first.nextBeforeSeq! });
    const last = await listMessages(app.prisma, { userId: alice.id, conversationId: channel.id, limit: 3, beforeSeq: second.nextBeforeSeq! });

    expect(first.messages.map((message) => message.content)).toEqual(["m7", "m6", "m5"]);
    expect(second.messages.map((message) => message.content)).toEqual(["m4", "m3", "m2"]);
    expect(last).toMatchObject({ messages: [{ content: "m1" }], nextBeforeSeq: null });
  });
});
