import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATCH as patchConversation } from "@/app/api/conversations/[conversationId]/route";
import { POST as addMemberRoute } from "@/app/api/conversations/[conversationId]/members/route";
import { DELETE as removeMemberRoute } from "@/app/api/conversations/[conversationId]/members/[memberId]/route";
import { GET as listMessagesRoute, POST as postMessageRoute } from "@/app/api/conversations/[conversationId]/messages/route";
import { POST as startConversationRoute } from "@/app/api/conversations/route";
import { browseChannels } from "@/lib/conversations/browse-channels";
import { getConversation, listConversations } from "@/lib/conversations/list-conversations";
import { openDirectMessage } from "@/lib/conversations/open-direct-message";
import { updateConversation } from "@/lib/conversations/update-conversation";
import { openDatabase, type Database } from "@/lib/db/open-database";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { Ack } from "@/lib/realtime/events";
import { createRealtimeServer } from "@/lib/realtime/create-realtime-server";
import { connectRedisAdapter } from "@/lib/realtime/redis-adapter";
import { postgresAdminUrl, postgresUrlFor } from "../support/database-mode";
import { createProjectWithChannel } from "../support/fixtures";
import { connectTo, scratchDatabase, signUpOn, startNode, startRedis, type NodeProcess } from "../support/node-process";
import { emitWithAck, nextEvent, TestApp, type ClientSocket, type TestUser } from "../support/test-app";

/** Renaming, topics, archiving, members, private channels and agent chats: issue 19, point 5. */
describe("managing conversations", () => {
  let app: TestApp;
  let ada: TestUser; // an admin
  let carol: TestUser; // creates the channels below
  let dave: TestUser;
  let erin: TestUser;
  let generalId: string; // no creator: admins only
  let sageId: string;

  beforeAll(async () => {
    app = await TestApp.start();
    const { project, channel } = await createProjectWithChannel(app.prisma);
    generalId = channel.id;
    [ada, carol, dave, erin] = [await app.signUp("Ada"), await app.signUp("Carol"), await app.signUp("Dave"), await app.signUp("Erin")];
    await app.prisma.user.update({ where: { id: ada.id }, data: { role: "admin" } });
    sageId = (await app.prisma.agent.create({ data: { projectId: project.id, handle: "sage", displayName: "Sage", color: "#0ea5e9", systemPrompt: "You are Sage.", model: "offline" } })).id;
  });
  afterAll(() => app.close());

  const request = (user: TestUser, method: string, path: string, body?: unknown) =>
    new Request(`${app.url}${path}`, {
      method,
      headers: { host: new URL(app.url).host, cookie: user.cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const answer = async (response: Response) => ({ status: response.status, ...((await response.json()) as { data?: never; error?: { code: string; message: string } }) });
  const patch = (user: TestUser, id: string, body: unknown) => patchConversation(request(user, "PATCH", `/api/conversations/${id}`, body), { params: Promise.resolve({ conversationId: id }) }).then(answer);
  const addMember = (user: TestUser, id: string, body: unknown) =>
    addMemberRoute(request(user, "POST", `/api/conversations/${id}/members`, body), { params: Promise.resolve({ conversationId: id }) }).then(answer);
  const removeMember = (user: TestUser, id: string, memberId: string) =>
    removeMemberRoute(request(user, "DELETE", `/api/conversations/${id}/members/${memberId}`), { params: Promise.resolve({ conversationId: id, memberId }) }).then(answer);
  const post = (user: TestUser, id: string, content: string) =>
    postMessageRoute(request(user, "POST", `/api/conversations/${id}/messages`, { content }), { params: Promise.resolve({ conversationId: id }) }).then(answer);
  const read = (user: TestUser, id: string) => listMessagesRoute(request(user, "GET", `/api/conversations/${id}/messages`), { params: Promise.resolve({ conversationId: id }) }).then(answer);
  const start = async (user: TestUser, body: unknown): Promise<string> => (await answer(await startConversationRoute(request(user, "POST", "/api/conversations", body)))).data!["conversationId"];
  const newChannel = (creator: TestUser, options: { private?: boolean } = {}) => start(creator, { type: "channel", name: `c-${randomUUID().slice(0, 8)}`, ...options });
  const joined = async (user: TestUser, conversationId: string) => {
    const socket = await app.connect(user);
    await emitWithAck(socket, "conversation:join", { conversationId });
    return socket;
  };
  const summary = (user: TestUser, conversationId: string) => getConversation(app.prisma, { userId: user.id, conversationId });

  it("lets a channel's creator and admins rename it and set its topic, live in every participant's sidebar", async () => {
    const channelId = await newChannel(carol);
    expect(await summary(dave, channelId)).toMatchObject({ createdByUserId: carol.id, isPrivate: false, topic: null, archived: false });
    const daveSidebar = await app.connect(dave);
    const heard = nextEvent(daveSidebar, "conversation:updated");

    const renamed = await patch(carol, channelId, { name: "Ops-Team", topic: "  Deploys and incidents " });
    expect(renamed).toEqual({ status: 200, data: { conversationId: channelId, title: "ops-team", topic: "Deploys and incidents", archived: false } });
    expect(await heard).toEqual(renamed.data);
    expect(await summary(dave, channelId)).toMatchObject({ title: "ops-team", topic: "Deploys and incidents" });
    expect(await patch(ada, channelId, { topic: "" })).toMatchObject({ status: 200, data: { topic: null } });
  });

  it("refuses other people, bad names and topics, and a name another channel has, with the reason", async () => {
    const channelId = await newChannel(carol);
    expect(await patch(dave, channelId, { name: "mine" })).toMatchObject({ status: 403, error: { message: expect.stringMatching(/^Only admins and the person who created it can rename #c-/) } });
    expect(await patch(carol, generalId, { topic: "hi" })).toMatchObject({ status: 403, error: { message: "Only admins can change the topic of #general." } });
    expect(await patch(ada, generalId, { topic: "Everyone" })).toMatchObject({ status: 200 });
    expect(await patch(carol, channelId, { name: "Bad name!" })).toMatchObject({ status: 400, error: { message: expect.stringMatching(/lowercase letters, digits or dashes/) } });
    expect(await patch(carol, channelId, { topic: "x".repeat(251) })).toMatchObject({ status: 400, error: { message: "topic: A topic can be at most 250 characters." } });
    expect(await patch(carol, channelId, { topic: "line\nbreak" })).toMatchObject({ status: 400, error: { message: expect.stringMatching(/line feed/) } });
    expect(await patch(carol, channelId, {})).toMatchObject({ status: 400, error: { message: expect.stringMatching(/Say what to change/) } });
    expect(await patch(carol, channelId, { name: "general" })).toMatchObject({ status: 409, error: { message: "A channel named #general already exists. Choose another name." } });
  });

  it("refuses renaming or archiving a DM, any change to a fork, and anything from outside", async () => {
    const dm = await openDirectMessage(app.prisma, { userId: carol.id, projectId: (await summary(carol, generalId))!.projectId, otherUserId: dave.id });
    expect(await patch(carol, dm.id, { archived: true })).toMatchObject({ status: 409, error: { message: expect.stringMatching(/^A direct message is always between the same two people/) } });
    expect(await patch(ada, dm.id, { name: "ours" })).toMatchObject({ status: 403, error: { message: "You are not a participant of this conversation." } });
    expect(await removeMember(carol, dm.id, dave.id)).toMatchObject({ status: 409 });

    const fork = await app.prisma.conversation.create({
      data: { projectId: (await summary(carol, generalId))!.projectId, type: "fork", key: "per_room", scope: `fork:${randomUUID()}`, title: "", parentConversationId: generalId, rootConversationId: generalId },
    });
    for (const body of [{ name: "fork" }, { archived: true }]) {
      expect(await patch(ada, fork.id, body)).toMatchObject({ status: 409, error: { message: expect.stringMatching(/^A forked context is a specialist's own workspace/) } });
    }
  });

  it("makes an archived channel read-only until it is unarchived", async () => {
    const channelId = await newChannel(carol);
    expect(await patch(carol, channelId, { archived: true })).toMatchObject({ status: 200, data: { archived: true } });
    expect(await summary(dave, channelId)).toMatchObject({ archived: true });
    expect(await post(dave, channelId, "anyone here?")).toMatchObject({ status: 409, error: { message: expect.stringMatching(/archived, so it is read-only/) } });
    expect(await patch(carol, channelId, { topic: "quiet" })).toMatchObject({ status: 409, error: { message: expect.stringMatching(/Unarchive it first/) } });
    expect(await removeMember(carol, channelId, dave.id)).toMatchObject({ status: 409 });
    expect(await patch(dave, channelId, { archived: false })).toMatchObject({ status: 403 });

    expect(await patch(carol, channelId, { archived: false, topic: "back" })).toMatchObject({ status: 200, data: { archived: false, topic: "back" } });
    expect(await post(dave, channelId, "we're back")).toMatchObject({ status: 201 });
  });

  it("removes a person: their sockets leave the room at once, their tabs are told, and they can neither read nor post", async () => {
    const channelId = await newChannel(carol);
    const [daveInRoom, erinInRoom] = [await joined(dave, channelId), await joined(erin, channelId)];
    let daveGotMessages = 0;
    daveInRoom.on("message:created", () => daveGotMessages++);
    const told = nextEvent(daveInRoom, "conversation:removed");
    const notice = nextEvent(erinInRoom, "message:created");

    expect(await removeMember(carol, channelId, dave.id)).toEqual({ status: 200, data: { removed: "user", left: false } });
    expect(await told).toEqual({ conversationId: channelId, removedBy: "Carol" });
    expect(await notice).toMatchObject({ role: "system", author: { kind: "system" }, content: "Carol removed Dave from the conversation." });

    const next = nextEvent(erinInRoom, "message:created");
    expect(await post(carol, channelId, "after Dave left")).toMatchObject({ status: 201 });
    await next;
    expect(daveGotMessages).toBe(0);
    expect(await summary(dave, channelId)).toBeNull();
    expect(await read(dave, channelId)).toMatchObject({ status: 403 });
    expect(await post(dave, channelId, "let me back")).toMatchObject({ status: 403 });
    expect(await emitWithAck<Ack<unknown>>(daveInRoom, "conversation:join", { conversationId: channelId })).toMatchObject({ error: { code: "forbidden" } });
    expect(await emitWithAck<Ack<unknown>>(daveInRoom, "sync:since", { conversationId: channelId, afterSeq: 0 })).toMatchObject({ error: { code: "forbidden" } });
  });

  it("removes an agent, refuses removing someone not there (404) or by someone who may not (403)", async () => {
    const channelId = await newChannel(carol);
    expect(await addMember(dave, channelId, { agentId: sageId })).toMatchObject({ status: 201, data: { added: "agent" } });
    expect(await removeMember(dave, channelId, sageId)).toMatchObject({ status: 403, error: { message: expect.stringMatching(/^Only admins and the person who created it can remove people or agents from #/) } });
    expect(await removeMember(ada, channelId, sageId)).toMatchObject({ status: 200, data: { removed: "agent" } });
    const page = await read(carol, channelId);
    expect((page.data!["messages"] as MessageDto[]).map((message) => message.content)).toContain("Ada removed Sage (@sage) from the conversation.");
    expect(await removeMember(carol, channelId, sageId)).toMatchObject({ status: 404, error: { message: expect.stringMatching(/not in this conversation/) } });
    expect(await removeMember(carol, channelId, randomUUID())).toMatchObject({ status: 404 });
  });

  it("adds a person, whose sidebar hears of it, once; a person leaves and rejoins a public channel from the browser", async () => {
    const channelId = await newChannel(carol);
    await removeMember(carol, channelId, dave.id);
    const daveSidebar = await app.connect(dave);
    const listed = nextEvent(daveSidebar, "conversation:created");
    expect(await addMember(erin, channelId, { userId: dave.id })).toEqual({ status: 201, data: { added: "user" } });
    expect(await listed).toEqual({ conversationId: channelId });
    expect(await summary(dave, channelId)).toMatchObject({ unread: 1 }); // the notice; the history before it counts as read
    expect(await addMember(erin, channelId, { userId: dave.id })).toMatchObject({ status: 409, error: { message: "Dave is already in this conversation." } });
    expect(await addMember(erin, channelId, { userId: randomUUID() })).toMatchObject({ status: 404 });
    expect(await addMember(erin, channelId, { nobody: true })).toMatchObject({ status: 400 });

    expect(await removeMember(dave, channelId, dave.id)).toEqual({ status: 200, data: { removed: "user", left: true } });
    const listing = (await browseChannels(app.prisma, { userId: dave.id })).find((channel) => channel.id === channelId);
    expect(listing).toMatchObject({ joined: false, isPrivate: false, memberCount: 3 });
    expect(await addMember(dave, channelId, { userId: dave.id })).toMatchObject({ status: 201 });
    expect(await summary(dave, channelId)).not.toBeNull();
    const contents = ((await read(dave, channelId)).data!["messages"] as MessageDto[]).map((message) => message.content);
    expect(contents.slice(0, 2)).toEqual(["Dave joined the conversation.", "Dave left the conversation."]);
  });

  // Signs someone up, who joins every public channel: counts of members in later tests would differ.
  it("does not put someone who signs up into an archived channel", async () => {
    const [archivedId, openId] = [await newChannel(carol), await newChannel(carol)];
    await patch(carol, archivedId, { archived: true });
    const newcomer = await app.signUp("Late");
    expect(await summary(newcomer, archivedId)).toBeNull();
    expect(await summary(newcomer, openId)).toMatchObject({ archived: false });
  });

  it("keeps a private channel to those invited: absent from others' browser, not joinable by id", async () => {
    const secretId = await newChannel(carol, { private: true });
    expect(await summary(carol, secretId)).toMatchObject({ isPrivate: true, createdByUserId: carol.id });
    expect(await summary(dave, secretId)).toBeNull();
    expect((await browseChannels(app.prisma, { userId: dave.id })).map((channel) => channel.id)).not.toContain(secretId);
    expect(await addMember(dave, secretId, { userId: dave.id })).toMatchObject({ status: 404, error: { message: expect.stringMatching(/private: ask one of its members to add you/) } });
    expect(await removeMember(carol, secretId, carol.id)).toMatchObject({ status: 409, error: { message: expect.stringMatching(/^You are the last person in #c-.*, a private channel/) } });
    const newcomer = await app.signUp("Newcomer");
    expect(await summary(newcomer, secretId)).toBeNull();

    expect(await addMember(carol, secretId, { userId: dave.id })).toMatchObject({ status: 201 });
    expect((await browseChannels(app.prisma, { userId: dave.id, query: (await summary(carol, secretId))!.title.toUpperCase() }))).toEqual([
      expect.objectContaining({ id: secretId, isPrivate: true, joined: true, memberCount: 2 }),
    ]);
    expect(await read(dave, secretId)).toMatchObject({ status: 200 });
  });

  it("finds public channels by name or topic", async () => {
    const channelId = await newChannel(carol);
    await patch(carol, channelId, { topic: "Where the Pelicans gather" });
    expect((await browseChannels(app.prisma, { userId: erin.id, query: "pelican" })).map((channel) => channel.id)).toEqual([channelId]);
    await patch(carol, channelId, { archived: true });
    expect(await browseChannels(app.prisma, { userId: erin.id, query: "pelican" })).toEqual([]);
  });

  it("keeps several chats with one agent, each titled by its first message; the directory opens the latest", async () => {
    const first = await start(dave, { type: "agent_dm", agentId: sageId });
    expect(await start(dave, { type: "agent_dm", agentId: sageId })).toBe(first);
    const second = await start(dave, { type: "agent_dm", agentId: sageId, new: true });
    expect(second).not.toBe(first);
    expect(await start(dave, { type: "agent_dm", agentId: sageId })).toBe(second);
    expect(await summary(dave, second)).toMatchObject({ title: "Sage", type: "agent_dm" });

    const daveSidebar = await app.connect(dave);
    const titled = nextEvent(daveSidebar, "conversation:updated");
    expect(await post(dave, first, "Could you help me plan the migration of our billing service to the new cluster next week?")).toMatchObject({ status: 201 });
    expect(await titled).toEqual({ conversationId: first, title: "Could you help me plan the migration of our billing service…", topic: null, archived: false });
    await post(dave, first, "Another question");
    expect((await summary(dave, first))!.title).toBe("Could you help me plan the migration of our billing service…");
    expect(await post(carol, generalId, "A channel's first message names nothing")).toMatchObject({ status: 201 });

    expect(await patch(dave, first, { name: "  Billing move " })).toMatchObject({ status: 200, data: { title: "Billing move" } });
    expect(await patch(dave, first, { topic: "x" })).toMatchObject({ status: 400, error: { message: "Only channels have a topic. Rename the chat instead." } });
    expect(await patch(dave, first, { name: " " })).toMatchObject({ status: 400, error: { message: "Give the chat a name." } });
    expect(await patch(carol, first, { name: "mine" })).toMatchObject({ status: 403 });
    const chats = (await listConversations(app.prisma, { userId: dave.id })).filter((conversation) => conversation.type === "agent_dm");
    expect(chats.map((chat) => chat.title).sort()).toEqual(["Billing move", "Sage"]);

    // Archived chats are not reopened from the directory: the latest other one is, else a new one.
    await patch(dave, first, { archived: true });
    await patch(dave, second, { archived: true });
    const third = await start(dave, { type: "agent_dm", agentId: sageId });
    expect([first, second]).not.toContain(third);
    await patch(dave, second, { archived: false }); // taking it out again counts as using it
    expect(await start(dave, { type: "agent_dm", agentId: sageId })).toBe(second);
  });
});

/** A rename on one node reaches a participant's socket on another, through the Redis adapter. */
describe("managing conversations across two nodes", () => {
  let node: NodeProcess;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let db: Database;
  let socket: ClientSocket | undefined;

  beforeAll(async () => {
    database = await scratchDatabase(postgresAdminUrl, "chorus_manage");
    redis = await startRedis();
    node = await startNode({ DATABASE_URL: postgresUrlFor(database.name), REDIS_URL: redis.url });
    db = await openDatabase({ engine: "postgres", url: postgresUrlFor(database.name) }, { migrate: false });
  }, 90_000);
  afterAll(async () => {
    socket?.disconnect();
    await node?.stop();
    await db?.close();
    await redis?.stop();
    await database?.drop();
  });

  it("tells a participant connected to the other node", async () => {
    const { channel } = await createProjectWithChannel(db.prisma, "ops");
    const bob = await signUpOn(node.url, "Bob");
    socket = await connectTo(node.url, bob.cookie);
    // This process is the other node: its own Socket.IO server on the same Redis.
    const link = await connectRedisAdapter(redis.url);
    const here = createRealtimeServer(createServer(), { prisma: db.prisma, getSession: async () => null, allowedOrigins: [], adapter: link.adapter });
    try {
      const heard = nextEvent(socket, "conversation:updated");
      await updateConversation({ prisma: db.prisma, publisher: here.publisher }, { actor: { userId: bob.id, isAdmin: true }, conversationId: channel.id, changes: { name: "incidents" } });
      expect(await heard).toEqual({ conversationId: channel.id, title: "incidents", topic: null, archived: false });
    } finally {
      await here.close();
      await link.close();
    }
  });
});
