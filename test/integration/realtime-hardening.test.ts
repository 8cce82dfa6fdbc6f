import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contiguousSeq, ConversationSync } from "@/hooks/conversation-sync";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { postMessage } from "@/lib/conversations/post-message";
import type { Ack, SessionEnded } from "@/lib/realtime/events";
import { createProjectWithChannel } from "../support/fixtures";
import { memoryStore } from "../support/message-store";
import { emitWithAck, TestApp, type ClientSocket, type TestUser } from "../support/test-app";
import { until } from "../support/until";


describe("realtime under faults and hostile clients", () => {
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let channelId: string;

  beforeAll(async () => {
    app = await TestApp.start();
    channelId = (await createProjectWithChannel(app.prisma)).channel.id;
    alice = await app.signUp("Alice");
    bob = await app.signUp("Bob");
  });
  afterAll(() => app.close());

  const postAs = async (user: TestUser, content: string) => {
    const { message } = await postMessage(app.prisma, { userId: user.id, input: { conversationId: channelId, clientId: randomUUID(), content } });
    return message; // not announced: a broadcast that never arrived
  };

  it("ends the sockets of a session when it signs out, says why, and leaves the user's other sessions connected", async () => {
    const laptop = await app.signIn(bob);
    const phone = await app.signIn(bob);
    const [laptopSocket, laptopSecondTab, phoneSocket] = [await app.connect(laptop), await app.connect(laptop), await app.connect(phone)];
    const reasons: SessionEnded[] = [];
    laptopSocket.on("session:ended", (payload) => reasons.push(payload));
    const disconnected = new Promise<string>((resolve) => laptopSocket.once("disconnect", resolve));

    await app.signOut(laptop);

    expect(await disconnected).toBe("io server disconnect");
    expect(reasons).toEqual([{ reason: "signed_out" }]);
    await until(() => laptopSecondTab.disconnected, "the second tab to be disconnected");
    expect(phoneSocket.connected).toBe(true);
    expect(await emitWithAck(phoneSocket, "conversation:join", { conversationId: channelId })).toEqual({ data: { conversationId: channelId } });
    await expect(app.connect(laptop)).rejects.toThrow(/signed out/i);
  });

  it("checks the session again when a dropped socket recovers its connection state", async () => {
    const session = await app.signIn(alice);
    const socket = await app.connect(session, { reconnection: true });
    await emitWithAck(socket, "conversation:join", { conversationId: channelId });
    const refused = new Promise<Error>((resolve) => socket.once("connect_error", resolve));

    socket.io.engine.close(); // the network drops; the client will try to recover
    await app.signOut(session);

    expect((await refused).message).toMatch(/signed out/i);
    socket.disconnect();

    // With a valid session, the same kind of drop recovers the rooms it had (once it has
    // received a broadcast, which gives it an offset to recover from).
    const other = await app.connect(await app.signIn(alice), { reconnection: true });
    await emitWithAck(other, "conversation:join", { conversationId: channelId });
    const broadcast = new Promise((resolve) => other.once("message:created", resolve));
    app.runtime.realtime.messageCreated(await postAs(bob, "gives an offset"), { participantUserIds: [], mentionedUserIds: [] });
    await broadcast;
    const reconnected = new Promise<void>((resolve) => other.once("connect", () => resolve()));
    other.io.engine.close();
    await reconnected;
    expect(other.recovered).toBe(true);
    expect(await emitWithAck(other, "typing:start", { conversationId: channelId })).toEqual({ data: null });
  });

  it("gives every message to a client that posts before its room join is acknowledged", async () => {
    const store = memoryStore();
    const history = await emitWithAck<Ack<{ messages: MessageDto[] }>>(await app.connect(alice), "sync:since", { conversationId: channelId, afterSeq: 0 });
    store.add((history as { data: { messages: MessageDto[] } }).data.messages);
    const before = contiguousSeq(store.seqs());
    // While Alice is away, Bob posts twice.
    await postAs(bob, "while you were away 1");
    await postAs(bob, "while you were away 2");

    const socket = await app.connect(alice);
    const sync = new ConversationSync(socket, channelId, store, { checkEveryMs: 60_000 });
    // Her composer sends at once, before the join below is answered.
    const sending = emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId: channelId, clientId: randomUUID(), content: "back!" });
    sync.start();
    sync.received([((await sending) as { data: MessageDto }).data]);

    await until(() => sync.contiguous() >= before + 3, "catch-up to include Bob's messages");
    const contents = [...store.held.values()].sort((a, b) => a.seq - b.seq).slice(-3).map((message) => message.content);
    expect(contents).toEqual(["while you were away 1", "while you were away 2", "back!"]);
    sync.stop();
  });

  it("recovers a broadcast lost while connected from the next message's gap", async () => {
    const socket = await app.connect(alice);
    const store = memoryStore();
    const sync = new ConversationSync(socket, channelId, store, { checkEveryMs: 60_000 });
    sync.start();
    await until(() => store.held.size > 0, "the first catch-up");
    const lost = await postAs(bob, "never broadcast");
    const next = await postAs(bob, "broadcast");
    app.runtime.realtime.messageCreated(next, { participantUserIds: [], mentionedUserIds: [] });
    await until(() => store.held.has(lost.id), "the lost message to be fetched");
    expect(sync.contiguous()).toBe(next.seq);
    sync.stop();
  });

  it("refuses control characters and broken UTF-16 in a message with a clear error, and stores nothing", async () => {
    const socket = await app.connect(alice);
    const before = await app.prisma.message.count();
    for (const [content, message] of [
      ["null\u0000byte", /control characters \(U\+0000 at character 5\)/],
      ["bell\u0007", /control characters \(U\+0007/],
      ["lone \ud83d surrogate", /unpaired UTF-16 surrogate at character 6/],
    ] as const) {
      const ack = await emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId: channelId, clientId: randomUUID(), content });
      expect(ack).toMatchObject({ error: { code: "bad_request", message: expect.stringMatching(message) } });
    }
    const fine = await emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId: channelId, clientId: randomUUID(), content: "tabs\tand\nnew lines and 🎉 are fine" });
    expect(fine).toMatchObject({ data: { content: "tabs\tand\nnew lines and 🎉 are fine" } });
    expect(await app.prisma.message.count()).toBe(before + 1);
  });

  it("rate-limits a socket that floods events, and keeps it connected", async () => {
    const socket: ClientSocket = await app.connect(bob);
    const acks = await Promise.all(Array.from({ length: 1_000 }, () => emitWithAck<Ack<unknown>>(socket, "conversation:join", { conversationId: channelId })));
    const accepted = acks.filter((ack) => "data" in ack).length;
    const limited = acks.filter((ack) => "error" in ack && ack.error.code === "rate_limited").length;
    expect(accepted).toBeLessThan(100);
    expect(accepted + limited).toBe(1_000);
    expect(socket.connected).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await emitWithAck(socket, "conversation:join", { conversationId: channelId })).toEqual({ data: { conversationId: channelId } });
  });
});
