import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postMessage, RATE_LIMIT } from "@/lib/conversations/post-message";
import type { Ack, TypingEvent } from "@/lib/realtime/events";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import { createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, nextEvent, TestApp, type ClientSocket, type TestUser } from "../support/test-app";

describe("live sidebar, read state and typing", () => {
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let channelId: string;

  const post = async (user: TestUser, content: string) => {
    const result = await postMessage(app.prisma, { userId: user.id, input: { conversationId: channelId, clientId: randomUUID(), content } });
    app.runtime.realtime.messageCreated(result.message, result);
    return result.message;
  };
  const joined = async (user: TestUser) => {
    const socket = await app.connect(user);
    await emitWithAck(socket, "conversation:join", { conversationId: channelId });
    return socket;
  };
  const noEvent = (socket: ClientSocket, event: "typing", ms = 300) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(true), ms);
      socket.once(event, () => {
        clearTimeout(timer);
        resolve(false);
      });
    });

  beforeAll(async () => {
    app = await TestApp.start();
    channelId = (await createProjectWithChannel(app.prisma)).channel.id;
    alice = await app.signUp("Alice");
    bob = await app.signUp("Bob");
  });
  afterAll(() => app.close());

  it("tells every participant's other tabs about new messages and mentions, without joining the room", async () => {
    const bobSidebar = await app.connect(bob);
    const activity = nextEvent(bobSidebar, "conversation:activity");
    const bobHandle = (await app.prisma.user.findUniqueOrThrow({ where: { id: bob.id } })).handle;
    const message = await post(alice, `ping @${bobHandle}`);
    expect(await activity).toEqual({ conversationId: channelId, seq: message.seq, authorUserId: alice.id, authorName: "Alice", preview: `ping @${bobHandle}`, mentionedUserIds: [bob.id] });
  });

  it("sends fresh counts to all of a user's tabs when one of them reads", async () => {
    await post(alice, "unread for bob");
    const [tabA, tabB] = [await app.connect(bob), await app.connect(bob)];
    const inOtherTab = nextEvent(tabB, "read:updated");
    const latest = (await app.prisma.conversation.findUniqueOrThrow({ where: { id: channelId } })).lastSeq;

    const ack = await emitWithAck<Ack<ConversationSummary>>(tabA, "conversation:read", { conversationId: channelId, seq: latest });

    expect(ack).toMatchObject({ data: { id: channelId, unread: 0, mentions: 0, lastReadSeq: latest } });
    expect(await inOtherTab).toMatchObject({ id: channelId, unread: 0, lastReadSeq: latest });
  });

  it("relays typing to the others in the room, never to the typist, and clears it when the typist disconnects", async () => {
    const [aliceSocket, bobSocket] = [await joined(alice), await joined(bob)];
    const started = nextEvent(bobSocket, "typing");
    const echoed = noEvent(aliceSocket, "typing");
    expect(await emitWithAck(aliceSocket, "typing:start", { conversationId: channelId })).toEqual({ data: null });
    expect(await started).toEqual<TypingEvent>({ conversationId: channelId, actor: { kind: "user", id: alice.id, name: "Alice" }, typing: true });
    expect(await echoed).toBe(true);

    const cleared = nextEvent(bobSocket, "typing");
    aliceSocket.disconnect();
    expect(await cleared).toMatchObject({ actor: { id: alice.id }, typing: false });
  });

  it("refuses typing in a room the socket has not joined", async () => {
    const socket = await app.connect(alice);
    const ack = await emitWithAck<Ack<null>>(socket, "typing:start", { conversationId: channelId });
    expect(ack).toMatchObject({ error: { code: "forbidden" } });
  });

  it(`rate-limits a burst of more than ${RATE_LIMIT} messages in 10 s with a clear message, losing none it accepted`, async () => {
    const carol = await app.signUp("Carol");
    const results = await Promise.allSettled(
      Array.from({ length: RATE_LIMIT + 3 }, (_, index) =>
        postMessage(app.prisma, { userId: carol.id, input: { conversationId: channelId, clientId: randomUUID(), content: `burst ${index}` } }),
      ),
    );
    const refused = results.filter((result) => result.status === "rejected");
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const failure of refused) expect((failure as PromiseRejectedResult).reason).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/too fast.*at most 20 in 10 seconds/) });
    const accepted = results.length - refused.length;
    expect(await app.prisma.message.count({ where: { authorUserId: carol.id } })).toBe(accepted);
  });
});
