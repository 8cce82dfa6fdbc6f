import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postMessage } from "@/lib/conversations/post-message";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { Ack, SyncResult } from "@/lib/realtime/events";
import { createChannel, createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, nextEvent, TestApp, type TestUser } from "../support/test-app";

describe("realtime server", () => {
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let general: { id: string };
  let privateRoom: { id: string };

  const post = (user: TestUser, conversationId: string, content: string) =>
    postMessage(app.prisma, { userId: user.id, input: { conversationId, clientId: randomUUID(), content } }).then(({ message }) => {
      app.runtime.realtime.messageCreated(message, { participantUserIds: [], mentionedUserIds: [] }); // room delivery only
      return message;
    });

  beforeAll(async () => {
    app = await TestApp.start();
    const { project, channel } = await createProjectWithChannel(app.prisma);
    general = channel;
    alice = await app.signUp("Alice");
    bob = await app.signUp("Bob");
    privateRoom = await createChannel(app.prisma, { projectId: project.id, name: "alice-only", userIds: [alice.id] });
  });
  afterAll(() => app.close());

  it("refuses a socket without a session, with a message the client can show, and keeps serving", async () => {
    await expect(app.connect(null)).rejects.toThrow(/signed out/i);
    await expect(app.connect({ ...alice, cookie: "better-auth.session_token=forged" })).rejects.toThrow(/signed out/i);
    await expect(app.connect(alice)).resolves.toHaveProperty("connected", true);
  });

  it("refuses a socket from a foreign origin even with a valid session", async () => {
    await expect(app.connect(alice, { origin: "https://evil.example" })).rejects.toThrow(/not allowed/);
  });

  it("delivers a posted message to every participant who joined the room", async () => {
    const [aliceSocket, bobSocket] = await Promise.all([app.connect(alice), app.connect(bob)]);
    await emitWithAck(aliceSocket, "conversation:join", { conversationId: general.id });
    await emitWithAck(bobSocket, "conversation:join", { conversationId: general.id });

    const received = nextEvent(bobSocket, "message:created");
    const sent = await post(alice, general.id, "hello bob");

    expect(await received).toEqual(sent);
    expect(sent).toMatchObject({ content: "hello bob", author: { kind: "user", id: alice.id, name: "Alice" } });
  });

  it("refuses to join a conversation the user is not part of, and sends them none of its messages", async () => {
    const bobSocket = await app.connect(bob);
    const ack = await emitWithAck<Ack<unknown>>(bobSocket, "conversation:join", { conversationId: privateRoom.id });
    expect(ack).toEqual({ error: { code: "forbidden", message: "You are not a participant of this conversation." } });

    let leaked = false;
    bobSocket.on("message:created", () => (leaked = true));
    const aliceSocket = await app.connect(alice);
    await emitWithAck(aliceSocket, "conversation:join", { conversationId: privateRoom.id });
    const aliceGot = nextEvent(aliceSocket, "message:created");
    await post(alice, privateRoom.id, "secret");
    await aliceGot;
    expect(leaked).toBe(false);
  });

  it.each([
    ["a missing payload", undefined],
    ["a number", 42],
    ["a non-uuid id", { conversationId: "'; DROP TABLE messages; --" }],
  ])("answers %s with an error ack and keeps the socket alive", async (_case, payload) => {
    const socket = await app.connect(alice);
    const ack = await emitWithAck<Ack<unknown>>(socket, "conversation:join", payload);
    expect(ack).toMatchObject({ error: { code: "bad_request", message: expect.stringContaining("Invalid conversation:join payload") } });
    expect(socket.connected).toBe(true);
    expect(await emitWithAck(socket, "conversation:join", { conversationId: general.id })).toEqual({ data: { conversationId: general.id } });
  });

  it("survives an event sent without an acknowledgement callback", async () => {
    const socket = await app.connect(alice);
    socket.emit("conversation:join", { conversationId: "nope" } as never, undefined as never);
    expect(await emitWithAck(socket, "conversation:join", { conversationId: general.id })).toEqual({ data: { conversationId: general.id } });
  });

  it("gives a reconnecting client everything after the last sequence number it saw, in order", async () => {
    const first = await post(alice, general.id, "before the outage");
    const missed = [await post(alice, general.id, "missed 1"), await post(alice, general.id, "missed 2")];

    const bobSocket = await app.connect(bob);
    const ack = await emitWithAck<Ack<SyncResult>>(bobSocket, "sync:since", { conversationId: general.id, afterSeq: first.seq });

    expect(ack).toEqual({ data: { messages: missed, complete: true } });
    const forbidden = await emitWithAck<Ack<SyncResult>>(bobSocket, "sync:since", { conversationId: privateRoom.id, afterSeq: 0 });
    expect(forbidden).toMatchObject({ error: { code: "forbidden" } });
  });

  it("numbers messages without gaps under concurrent posts", async () => {
    const before = (await app.prisma.conversation.findUniqueOrThrow({ where: { id: general.id } })).lastSeq;
    const messages: MessageDto[] = await Promise.all(
      Array.from({ length: 10 }, (_, index) => post(index % 2 ? alice : bob, general.id, `burst ${index}`)),
    );
    expect(messages.map((message) => message.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, index) => before + index + 1));
  });
});
