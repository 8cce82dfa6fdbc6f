import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as inboxRoute } from "@/app/api/inbox/route";
import { GET as unreadRoute } from "@/app/api/inbox/unread/route";
import { createChannel } from "@/lib/conversations/create-channel";
import { markRead } from "@/lib/conversations/mark-read";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { sendMessage } from "@/lib/conversations/send-message";
import { countUnreadInbox } from "@/lib/inbox/count-unread-inbox";
import { listInbox } from "@/lib/inbox/list-inbox";
import type { Ack, ConversationActivity, MessageMeta } from "@/lib/realtime/events";
import { messaging, startAgents } from "@/lib/runtime/runtime";
import { createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, TestApp, type ClientSocket, type TestUser } from "../support/test-app";

/** An agent's answer to a person's question tells them; "Mentions and replies" lists it with their mentions. */
describe("mentions and replies", () => {
  let app: TestApp;
  const statements: string[] = [];
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let channelId: string;
  let projectId: string;
  const handles = new Map<string, string>();

  /** The arguments of the next event of this name that passes `wanted`. */
  const eventWhere = <T>(socket: ClientSocket, event: "conversation:activity" | "message:created", wanted: (...args: never[]) => boolean) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching ${event} within 10 s`)), 10_000);
      const listener = (...args: unknown[]) => {
        if (!(wanted as (...given: unknown[]) => boolean)(...args)) return;
        clearTimeout(timer);
        socket.off(event, listener);
        resolve(args as T);
      };
      socket.on(event, listener);
    });
  const fromToby = (activity: ConversationActivity) => activity.authorName === "Toby";
  const post = (user: TestUser, content: string, conversationId = channelId) =>
    sendMessage(messaging(app.runtime), { userId: user.id, input: { conversationId, clientId: randomUUID(), content } }).then((result) => result.message);
  const get = (handler: (request: Request) => Promise<Response>, path: string, user: TestUser) => handler(new Request(`${app.url}${path}`, { headers: { cookie: user.cookie } }));

  beforeAll(async () => {
    app = await TestApp.start({ onQuery: (sql) => statements.push(sql) });
    const created = await createProjectWithChannel(app.prisma);
    [channelId, projectId] = [created.channel.id, created.project.id];
    [alice, bob, carol] = [await app.signUp("Alice"), await app.signUp("Bob"), await app.signUp("Carol")];
    for (const user of [alice, bob, carol]) handles.set(user.id, (await app.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).handle);
    const toby = await app.prisma.agent.create({ data: { projectId, handle: "toby", displayName: "Toby", color: "#0ea5e9", systemPrompt: "Help.", provider: "offline", model: "offline" } });
    await app.prisma.participant.create({ data: { conversationId: channelId, agentId: toby.id } });
    // Posting wakes the workers; no polling, whose claims would land among the statements a test counts.
    startAgents(app.runtime, { leaseMs: 5_000, pollMs: 600_000, offlineChunkDelayMs: 0 });
  });
  afterAll(() => app.close());

  it("tells the asker's other tab that an agent answered them, naming the asker to everyone", async () => {
    const [aliceSidebar, bobSidebar, inRoom] = [await app.connect(alice), await app.connect(bob), await app.connect(carol)];
    await emitWithAck(inRoom, "conversation:join", { conversationId: channelId });
    const toAlice = eventWhere<[ConversationActivity]>(aliceSidebar, "conversation:activity", fromToby);
    const toBob = eventWhere<[ConversationActivity]>(bobSidebar, "conversation:activity", fromToby);
    const toRoom = eventWhere<[MessageDto, MessageMeta]>(inRoom, "message:created", (message: MessageDto) => message.author.kind === "agent");
    const aliceTab = await app.connect(alice);
    const asked = await emitWithAck<Ack<MessageDto>>(aliceTab, "message:send", { conversationId: channelId, clientId: randomUUID(), content: "@toby what is the plan for Friday?" });
    expect(asked).toHaveProperty("data");

    expect((await toAlice)[0]).toMatchObject({ conversationId: channelId, authorUserId: null, authorName: "Toby", answersUserId: alice.id, mentionedUserIds: [] });
    expect((await toBob)[0]).toMatchObject({ answersUserId: alice.id });
    const [reply, meta] = await toRoom;
    expect(meta).toEqual({ mentionedUserIds: [], answersUserId: alice.id });
    expect(await app.prisma.message.findUniqueOrThrow({ where: { id: reply.id }, select: { askedByUserId: true } })).toEqual({ askedByUserId: alice.id });
    // In the asker's inbox, unread; in no one else's.
    expect(await countUnreadInbox(app.prisma, { userId: alice.id })).toBe(1);
    expect((await listInbox(app.prisma, { userId: carol.id })).items).toEqual([]);
  });

  it("lists the person's mentions and agents' answers to them, newest first, unread until read, in one statement", async () => {
    // Posting reads what came before: Toby's answer is read now.
    await post(alice, `@${handles.get(alice.id)} a note to myself`);
    await post(bob, `@${handles.get(alice.id)} the deploy is at five`);
    await post(carol, `a mention of @${handles.get(bob.id)} only`);

    statements.length = 0;
    const page = await listInbox(app.prisma, { userId: alice.id });
    expect(statements).toHaveLength(1);

    expect(page.items.map(({ kind, author, preview, conversationTitle, unread }) => ({ kind, author: author?.name, preview, conversationTitle, unread }))).toEqual([
      { kind: "mention", author: "Bob", preview: `@${handles.get(alice.id)} the deploy is at five`, conversationTitle: "general", unread: true },
      { kind: "answer", author: "Toby", preview: expect.stringContaining("what is the plan for Friday?"), conversationTitle: "general", unread: false },
    ]);
    expect(page.nextCursor).toBeNull();
    expect(await countUnreadInbox(app.prisma, { userId: alice.id })).toBe(1);
    expect((await listInbox(app.prisma, { userId: bob.id })).items.map((item) => item.author?.name)).toEqual(["Carol"]);

    const mention = page.items[0]!;
    await markRead(app.prisma, { userId: alice.id, conversationId: channelId, seq: mention.seq });
    expect(await countUnreadInbox(app.prisma, { userId: alice.id })).toBe(0);
    expect((await listInbox(app.prisma, { userId: alice.id })).items.map((item) => item.unread)).toEqual([false, false]);
  });

  it("pages by cursor without repeating or skipping, and leaves out deleted messages and conversations the person left", async () => {
    const side = await createChannel(app.prisma, { userId: bob.id, projectId, name: "side" });
    for (const text of ["one", "two", "three"]) await post(bob, `@${handles.get(alice.id)} ${text}`, side.id);
    const all = (await listInbox(app.prisma, { userId: alice.id })).items.map((item) => item.id);
    expect(all).toHaveLength(5);

    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const response = await get(inboxRoute, `/api/inbox${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`, alice);
      const page = ((await response.json()) as { data: { items: { id: string }[]; nextCursor: string | null } }).data;
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
    const small = await listInbox(app.prisma, { userId: alice.id, limit: 2 });
    expect(small.items.map((item) => item.id)).toEqual(all.slice(0, 2));
    expect(small.nextCursor).not.toBeNull();

    await app.prisma.message.update({ where: { id: all[0] }, data: { deletedAt: new Date(), content: "" } });
    expect((await listInbox(app.prisma, { userId: alice.id })).items.map((item) => item.id)).toEqual(all.slice(1));
    await app.prisma.participant.deleteMany({ where: { conversationId: side.id, userId: alice.id } });
    expect((await listInbox(app.prisma, { userId: alice.id })).items.map((item) => item.id)).toEqual(all.slice(3));
    expect(await (await get(unreadRoute, "/api/inbox/unread", alice)).json()).toEqual({ data: { count: 0 } });
  });

  it("refuses a cursor it did not give, saying so", async () => {
    const response = await get(inboxRoute, "/api/inbox?cursor=yesterday", alice);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "bad_request", message: "cursor must be the nextCursor of the previous page.", fields: { cursor: expect.any(String) } } });
  });
});
