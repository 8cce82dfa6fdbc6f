import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as deleteRoute, PATCH as patchRoute } from "@/app/api/messages/[messageId]/route";
import { GET as versionsRoute } from "@/app/api/messages/[messageId]/versions/route";
import { POST as regenerateRoute } from "@/app/api/messages/[messageId]/regenerate/route";
import { DELETE as unreactRoute, PUT as reactRoute } from "@/app/api/messages/[messageId]/reactions/[emoji]/route";
import { GET as turnContextRoute } from "@/app/api/turns/[turnId]/context/route";
import type { ContextSnapshot } from "@/lib/context/types";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { Ack, SyncResult } from "@/lib/realtime/events";
import type { ReactionUpdate } from "@/lib/messages/react-to-message";
import { startAgents } from "@/lib/runtime/runtime";
import { FakeOpenAI } from "../support/fake-openai";
import { createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, nextEvent, TestApp, type ClientSocket, type TestUser } from "../support/test-app";
import { until } from "../support/until";

/** Edit, delete, versions, regenerate and reactions: over HTTP as bots use them, live to every participant. */
describe("changing messages", () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let ann: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let outsider: TestUser;
  let projectId: string;
  let annSocket: ClientSocket;
  let bobSocket: ClientSocket;
  const received: MessageDto[] = [];
  const updated: MessageDto[] = [];

  beforeAll(async () => {
    fake = await FakeOpenAI.start();
    app = await TestApp.start({ env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL } });
    projectId = (await createProjectWithChannel(app.prisma)).project.id;
    ann = await app.signUp("Ann");
    bob = await app.signUp("Bob");
    admin = await app.signUp("Ada");
    outsider = await app.signUp("Olga");
    await app.prisma.user.update({ where: { id: admin.id }, data: { role: "admin" } });
    startAgents(app.runtime, { leaseMs: 5_000, pollMs: 100 });
    annSocket = await app.connect(ann);
    bobSocket = await app.connect(bob);
    annSocket.on("message:created", (message) => received.push(message));
    annSocket.on("message:updated", (message) => updated.push(message));
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  let rooms = 0;
  const room = async () => {
    const handle = `helper${++rooms}`;
    const agent = await app.prisma.agent.create({
      data: { projectId, handle, displayName: `Helper ${rooms}`, color: "#0ea5e9", systemPrompt: "You are helpful.", provider: "openai", model: "gpt-4o-mini", historyWindow: 50, contextSettings: {} },
    });
    const channel = await createChannel(app.prisma, { userId: ann.id, projectId, name: `changes-${rooms}`, agentIds: [agent.id] });
    // Olga, in the project, is left out of it.
    await app.prisma.participant.deleteMany({ where: { conversationId: channel.id, userId: outsider.id } });
    for (const socket of [annSocket, bobSocket]) await emitWithAck(socket, "conversation:join", { conversationId: channel.id });
    return { agent, conversationId: channel.id };
  };
  const send = async (conversationId: string, content: string, socket = annSocket) => {
    await app.prisma.rateBucket.deleteMany();
    const ack = await emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId, clientId: randomUUID(), content });
    if ("error" in ack) throw new Error(ack.error.message);
    return ack.data;
  };
  const replyTo = async (question: MessageDto) => {
    await until(() => received.some((message) => message.metadata.replyToMessageId === question.id), "the agent's reply");
    return received.find((message) => message.metadata.replyToMessageId === question.id)!;
  };
  const call = async (handler: (request: Request, context: never) => Promise<Response>, path: string, params: Record<string, string>, user: TestUser, method: string, body?: unknown) => {
    const request = new Request(`${app.url}${path}`, {
      method,
      headers: { host: new URL(app.url).host, cookie: user.cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const response = await handler(request, { params: Promise.resolve(params) } as never);
    return { status: response.status, body: (await response.json()) as { data?: never; error?: { code: string; message: string } } };
  };
  const patch = (id: string, user: TestUser, body: unknown) => call(patchRoute as never, `/api/messages/${id}`, { messageId: id }, user, "PATCH", body);
  const remove = (id: string, user: TestUser) => call(deleteRoute as never, `/api/messages/${id}`, { messageId: id }, user, "DELETE");
  const regenerate = (id: string, user: TestUser) => call(regenerateRoute as never, `/api/messages/${id}/regenerate`, { messageId: id }, user, "POST");
  const react = (id: string, emoji: string, user: TestUser, on = true) =>
    call((on ? reactRoute : unreactRoute) as never, `/api/messages/${id}/reactions/${encodeURIComponent(emoji)}`, { messageId: id, emoji: encodeURIComponent(emoji) }, user, on ? "PUT" : "DELETE");
  const contextOf = async (turnId: string) => {
    const response = await turnContextRoute(new Request(`${app.url}/api/turns/${turnId}/context`, { headers: { cookie: admin.cookie } }), { params: Promise.resolve({ turnId }) });
    return ((await response.json()) as { data: ContextSnapshot }).data;
  };
  const sentTexts = () => fake.requests.at(-1)!.messages.map((message) => message.content);

  it("edits your own message for everyone live, keeps the earlier text as a version, and refuses others' edits and bad text", async () => {
    const { conversationId } = await room();
    const message = await send(conversationId, "teh plan");
    const live = nextEvent(bobSocket, "message:updated");
    const edited = await patch(message.id, ann, { content: "the plan" });
    expect(edited.status).toBe(200);
    expect((await live).content).toBe("the plan");
    expect(edited.body.data).toMatchObject({ message: { content: "the plan", version: 2, versionCount: 2 } });
    expect((edited.body.data as unknown as { message: MessageDto }).message.editedAt).not.toBeNull();

    const versions = await call(versionsRoute as never, `/api/messages/${message.id}/versions`, { messageId: message.id }, bob, "GET");
    expect((versions.body.data as unknown as { versions: { content: string; shown: boolean }[] }).versions.map((version) => [version.content, version.shown])).toEqual([
      ["teh plan", false],
      ["the plan", true],
    ]);

    expect(await patch(message.id, bob, { content: "hijacked" })).toMatchObject({ status: 403, body: { error: { message: "You can only edit your own messages." } } });
    expect(await patch(message.id, outsider, { content: "x" })).toMatchObject({ status: 404 });
    expect((await patch(message.id, ann, { content: "bad \u0007 bell" })).status).toBe(400);
    expect((await patch(message.id, ann, { content: "x".repeat(17 * 1024) })).body.error?.message).toMatch(/at most 16 KB/);
    expect((await patch(message.id, ann, { content: "lone \ud800 surrogate" })).status).toBe(400);
    expect((await patch(message.id, ann, { nonsense: true })).status).toBe(400);
  });

  it("an edit that adds an @mention asks nobody, and says so", async () => {
    const { agent, conversationId } = await room();
    const message = await send(conversationId, "no agent asked yet");
    const edited = await patch(message.id, ann, { content: `now @${agent.handle} is mentioned` });
    expect(edited.body.data).toMatchObject({ unaskedHandles: [agent.handle] });
    expect(await app.prisma.dispatch.count({ where: { messageId: message.id } })).toBe(0);
  });

  it("leaves a tombstone on delete (an admin's says so), refuses members deleting others' messages and edits of the deleted", async () => {
    const { conversationId } = await room();
    const mine = await send(conversationId, "oops, wrong room");
    const bobs = await send(conversationId, "something off-topic", bobSocket);
    await react(bobs.id, "👍", ann);

    const live = nextEvent(bobSocket, "message:deleted");
    const deleted = await remove(mine.id, ann);
    expect(deleted.body.data).toMatchObject({ message: { content: "", deleted: { byAdmin: false } } });
    expect((await live).id).toBe(mine.id);
    expect(await patch(mine.id, ann, { content: "back" })).toMatchObject({ status: 409 });

    expect(await remove(bobs.id, ann)).toMatchObject({ status: 403 });
    const moderated = await remove(bobs.id, admin);
    expect(moderated.body.data).toMatchObject({ message: { content: "", deleted: { byAdmin: true }, reactions: [] } });
    expect(await app.prisma.messageReaction.count({ where: { messageId: bobs.id } })).toBe(0);
  });

  it("later turns see the edited text and skip deleted messages; a past turn's snapshot keeps what it saw", async () => {
    const { agent, conversationId } = await room();
    fake.reply({ content: "first answer" });
    const first = await send(conversationId, `@${agent.handle} the secret word is alpha`);
    const firstReply = await replyTo(first);
    const before = await contextOf(firstReply.metadata.dispatchId!);

    await patch(first.id, ann, { content: `@${agent.handle} the secret word is beta` });
    const gone = await send(conversationId, "a message about to be deleted: gamma");
    await remove(gone.id, ann);
    fake.reply({ content: "second answer" });
    await replyTo(await send(conversationId, `@${agent.handle} what is the word?`));

    const seen = sentTexts().join("\n");
    expect(seen).toContain("the secret word is beta");
    expect(seen).not.toContain("alpha");
    expect(seen).not.toContain("gamma");
    expect(await contextOf(firstReply.metadata.dispatchId!)).toEqual(before);
    expect(JSON.stringify(before)).toContain("alpha");
  });

  it("regenerates a reply as its next version, once under concurrent clicks, refusing while it is being written", async () => {
    const { agent, conversationId } = await room();
    fake.reply({ content: "answer one" });
    const question = await send(conversationId, `@${agent.handle} pick a number`);
    const reply = await replyTo(question);

    fake.reply({ content: "answer two", delayMs: 300 });
    const clicks = await Promise.all([regenerate(reply.id, ann), regenerate(reply.id, ann)]);
    expect(clicks.map((click) => click.status).sort()).toEqual([202, 409]);
    expect(clicks.find((click) => click.status === 409)!.body.error!.message).toMatch(/still writing|already being regenerated/);
    expect(await regenerate(reply.id, bob)).toMatchObject({ status: 403 });

    await until(() => updated.some((message) => message.id === reply.id && message.content === "answer two"), "the regenerated version");
    const shown = updated.findLast((message) => message.id === reply.id)!;
    expect(shown).toMatchObject({ version: 2, versionCount: 2, seq: reply.seq });
    expect(await app.prisma.dispatch.count({ where: { messageId: question.id, agentId: agent.id } })).toBe(2);
    expect(await app.prisma.message.count({ where: { conversationId, role: "assistant" } })).toBe(1);

    // Switching back: the conversation continues from version 1, and the next turn sees it.
    const switched = await patch(reply.id, ann, { version: 1 });
    expect(switched.body.data).toMatchObject({ messages: [{ id: reply.id, content: "answer one", version: 1 }] });
    fake.reply({ content: "three" });
    await replyTo(await send(conversationId, `@${agent.handle} and now?`));
    expect(sentTexts()).toContain("answer one");
    expect(sentTexts()).not.toContain("answer two");
    expect(await patch(reply.id, ann, { version: 7 })).toMatchObject({ status: 400 });
  });

  it("edit and resend: the latest message gets a new version and its agent answers it again", async () => {
    const { agent, conversationId } = await room();
    fake.reply({ content: "about cats" });
    const question = await send(conversationId, `@${agent.handle} tell me about cats`);
    const reply = await replyTo(question);
    fake.reply({ content: "about dogs" });
    const resent = await patch(question.id, ann, { content: `@${agent.handle} tell me about dogs`, resend: true });
    expect(resent.body.data).toMatchObject({ message: { version: 2 }, askedAgain: [{ replyMessageId: reply.id }] });
    await until(() => updated.some((message) => message.id === reply.id && message.content === "about dogs"), "the answer to the new version");
    expect(sentTexts().at(-1)).toContain("tell me about dogs");

    // Showing the question's first version shows the answer it had.
    const back = await patch(question.id, ann, { version: 1 });
    expect((back.body.data as unknown as { messages: MessageDto[] }).messages.map((message) => message.content)).toEqual([`@${agent.handle} tell me about cats`, "about cats"]);

    await send(conversationId, "a later message");
    expect(await patch(question.id, ann, { content: "again", resend: true })).toMatchObject({ status: 409 });
  });

  it("reactions: live counts with who reacted, idempotent, refusing unknown emoji and a 51st kind", async () => {
    const { conversationId } = await room();
    const message = await send(conversationId, "ship it?");
    // Bob is away while Ann edits: the reaction he then hears brings the message as it is now, edit and all.
    bobSocket.disconnect();
    await patch(message.id, ann, { content: "ship it today?" });
    bobSocket.connect();
    await until(() => bobSocket.connected, "Bob to be back");
    await emitWithAck(bobSocket, "conversation:join", { conversationId });
    const live = nextEvent(bobSocket, "message:updated");
    expect((await react(message.id, "👍", ann)).status).toBe(200);
    const update = (await live) as MessageDto;
    expect(update).toMatchObject({ id: message.id, content: "ship it today?", reactions: [{ emoji: "👍", users: [{ id: ann.id, name: "Ann" }] }] });
    await react(message.id, "👍", ann);
    const both = await react(message.id, "👍", bob);
    expect((both.body.data as unknown as ReactionUpdate).reactions[0]!.users.map((user) => user.name)).toEqual(["Ann", "Bob"]);
    expect((await react(message.id, "👍", bob, false)).body.data).toMatchObject({ reactions: [{ emoji: "👍", users: [{ name: "Ann" }] }] });

    expect(await react(message.id, "not-an-emoji", ann)).toMatchObject({ status: 400 });
    expect(await react(message.id, "%E0%A4%A", ann)).toMatchObject({ status: 400 });
    expect(await react(message.id, "👍", outsider)).toMatchObject({ status: 404 });
    const emoji = ["😀", "😃", "😄", "😁", "😆", "😅", "🤣", "😂", "🙂", "🙃", "😉", "😊", "😇", "🥰", "😍", "🤩", "😘", "😗", "😚", "😙", "😋", "😛", "😜", "🤪", "😝", "🤑", "🤗", "🤭", "🤫", "🤔", "🤐", "🤨", "😐", "😑", "😶", "😏", "😒", "🙄", "😬", "🤥", "😌", "😔", "😪", "🤤", "😴", "😷", "🤒", "🤕", "🤢"];
    for (const each of emoji) expect((await react(message.id, each, ann)).status).toBe(200);
    expect(await react(message.id, "🤮", ann)).toMatchObject({ status: 409, body: { error: { message: expect.stringMatching(/50 different reactions/) } } });
  });

  it("a client that was away catches up on the edits, deletions and reactions it missed", async () => {
    const { conversationId } = await room();
    const kept = await send(conversationId, "to be edited");
    const doomed = await send(conversationId, "to be deleted");
    const { lastChangeSeq } = await app.prisma.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    bobSocket.disconnect();
    await patch(kept.id, ann, { content: "edited while Bob was away" });
    await remove(doomed.id, ann);
    await react(kept.id, "🎉", ann);
    bobSocket.connect();
    await until(() => bobSocket.connected, "Bob back");
    const ack = await emitWithAck<Ack<SyncResult>>(bobSocket, "sync:since", { conversationId, afterSeq: doomed.seq, afterChangeSeq: lastChangeSeq });
    if ("error" in ack) throw new Error(ack.error.message);
    const changes = ack.data.changes!;
    expect(changes.complete).toBe(true);
    const byId = new Map(changes.messages.map((message) => [message.id, message]));
    expect(byId.get(kept.id)).toMatchObject({ content: "edited while Bob was away", reactions: [{ emoji: "🎉" }] });
    expect(byId.get(doomed.id)?.deleted).not.toBeNull();
    expect(changes.lastChangeSeq).toBe(lastChangeSeq + 3);
  });
});
