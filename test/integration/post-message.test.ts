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

  beforeAll(async () => {
    app = await TestApp.start();
    const { project, channel } = await createProjectWithChannel(app.prisma);
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
