import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listConversations } from "@/lib/conversations/list-conversations";
import { markRead } from "@/lib/conversations/mark-read";
import { openDirectMessage } from "@/lib/conversations/open-direct-message";
import { postMessage } from "@/lib/conversations/post-message";
import { createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";

describe("read state and unread counts", () => {
  const statements: string[] = [];
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let channelId: string;
  let dmId: string;

  const post = (user: TestUser, conversationId: string, content: string) =>
    postMessage(app.prisma, { userId: user.id, input: { conversationId, clientId: randomUUID(), content } });
  const countsFor = async (user: TestUser) =>
    Object.fromEntries((await listConversations(app.prisma, { userId: user.id })).map((c) => [c.id, { unread: c.unread, mentions: c.mentions }]));

  beforeAll(async () => {
    app = await TestApp.start({ onQuery: (sql) => statements.push(sql) });
    const { project, channel } = await createProjectWithChannel(app.prisma);
    channelId = channel.id;
    alice = await app.signUp("Alice");
    bob = await app.signUp("Bob");
    dmId = (await openDirectMessage(app.prisma, { userId: alice.id, projectId: project.id, otherUserId: bob.id })).id;
  });
  afterAll(() => app.close());

  it("counts others' messages and mentions as unread, never one's own", async () => {
    await post(alice, channelId, "one");
    await post(alice, channelId, "two, @bob look");
    await post(alice, dmId, "psst");

    expect(await countsFor(bob)).toEqual({ [channelId]: { unread: 2, mentions: 1 }, [dmId]: { unread: 1, mentions: 0 } });
    expect(await countsFor(alice)).toEqual({ [channelId]: { unread: 0, mentions: 0 }, [dmId]: { unread: 0, mentions: 0 } });
  });

  it("clears on read, never moves backwards, and cannot read past the end", async () => {
    const before = (await listConversations(app.prisma, { userId: bob.id, conversationId: channelId }))[0]!;
    const read = await markRead(app.prisma, { userId: bob.id, conversationId: channelId, seq: before.lastSeq + 100 });
    expect(read).toMatchObject({ unread: 0, mentions: 0, lastReadSeq: before.lastSeq });

    const stale = await markRead(app.prisma, { userId: bob.id, conversationId: channelId, seq: 1 });
    expect(stale.lastReadSeq).toBe(before.lastSeq);

    await post(alice, channelId, "three");
    expect((await countsFor(bob))[channelId]).toEqual({ unread: 1, mentions: 0 });
  });

  it("keeps the mention badge right through partial reads, own posts and concurrent mentions", async () => {
    const mention = () => post(alice, channelId, "@bob again");
    const first = await mention();
    await mention();
    await mention();
    expect((await countsFor(bob))[channelId]!.mentions).toBe(3);

    // Reading up to the first of them leaves the two after it.
    await markRead(app.prisma, { userId: bob.id, conversationId: channelId, seq: first.message.seq });
    expect((await countsFor(bob))[channelId]!.mentions).toBe(2);

    // Mentions posted while Bob reads are after his new position and stay counted.
    const { lastSeq } = (await listConversations(app.prisma, { userId: bob.id, conversationId: channelId }))[0]!;
    await Promise.all([markRead(app.prisma, { userId: bob.id, conversationId: channelId, seq: lastSeq }), mention(), mention()]);
    const after = (await listConversations(app.prisma, { userId: bob.id, conversationId: channelId }))[0]!;
    const mentionsAfterRead = await app.prisma.messageMention.count({ where: { userId: bob.id, conversationId: channelId, seq: { gt: after.lastReadSeq } } });
    expect(after.mentions).toBe(mentionsAfterRead);
    expect(after.mentions).toBeGreaterThanOrEqual(2);

    // Posting reads everything before one's own message.
    await post(bob, channelId, "caught up");
    expect((await countsFor(bob))[channelId]).toEqual({ unread: 0, mentions: 0 });
  });

  it("refuses to mark a conversation the user is not in", async () => {
    const carol = await app.signUp("Carol");
    await expect(markRead(app.prisma, { userId: carol.id, conversationId: dmId, seq: 1 })).rejects.toMatchObject({ code: "forbidden" });
  });

  it("computes every conversation's counts in one SQL statement", async () => {
    statements.length = 0;
    const list = await listConversations(app.prisma, { userId: bob.id });
    expect(list.length).toBeGreaterThanOrEqual(2);
    const sql = statements.filter((statement) => !/^(BEGIN|COMMIT|DEALLOCATE)/i.test(statement.trim()));
    expect(sql).toHaveLength(1);
  });
});
