import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/conversations/[conversationId]/messages/route";
import { DELETE as deleteRoute, PATCH as patchRoute } from "@/app/api/messages/[messageId]/route";
import { POST as regenerateRoute } from "@/app/api/messages/[messageId]/regenerate/route";
import { GET as sourceRoute } from "@/app/api/messages/[messageId]/sources/[chunkId]/route";
import type { ContextSnapshot } from "@/lib/context/types";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { ReplySource } from "@/lib/conversations/message-metadata";
import type { ReplySourceView } from "@/lib/knowledge/read-reply-source";
import { deleteDocument } from "@/lib/knowledge/manage-documents";
import { uploadDocument } from "@/lib/knowledge/upload-document";
import { createLocalEmbedder } from "@/lib/memory/embedder";
import type { Ack } from "@/lib/realtime/events";
import { startAgents, startMemory } from "@/lib/runtime/runtime";
import { createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, TestApp, type ClientSocket, type TestUser } from "../support/test-app";
import { until } from "../support/until";

const HANDBOOK = [
  "# Handbook",
  "Annual leave entitlement is 25 days per year, booked through the leave calendar.",
  "Unused leave carries over until the end of March and then expires.",
  "Parental leave is 20 weeks at full pay for every parent.",
].join("\n\n");

/**
 * Answers that show their sources, through real turns of the offline model with the real offline
 * embedder: the reply's metadata and the API list what its context included, the offline model
 * cites [1], the source route serves a cited chunk to participants only, and a document deleted or
 * replaced later shows as removed.
 */
describe("sources in answers", () => {
  let app: TestApp;
  let admin: TestUser;
  let ann: TestUser;
  let outsider: TestUser;
  let socket: ClientSocket;
  let agentId: string;
  let channelId: string;
  const created: MessageDto[] = [];
  const updated: MessageDto[] = [];
  const actor = () => ({ id: admin.id, name: admin.name, email: admin.email, role: "admin" as const });

  beforeAll(async () => {
    app = await TestApp.start();
    const { project } = await createProjectWithChannel(app.prisma);
    [admin, ann, outsider] = [await app.signUp("Adam"), await app.signUp("Ann"), await app.signUp("Olga")];
    await app.prisma.user.update({ where: { id: admin.id }, data: { role: "admin" } });
    await startMemory(app.runtime, createLocalEmbedder());
    startAgents(app.runtime, { leaseMs: 10_000, pollMs: 100, offlineChunkDelayMs: 0 });
    agentId = (await app.prisma.agent.create({
      data: { projectId: project.id, handle: "hr", displayName: "HR", color: "#0ea5e9", systemPrompt: "You answer HR questions.", provider: "offline", model: "offline", contextSettings: { semanticTopK: 3 } },
    })).id;
    channelId = (await createChannel(app.prisma, { userId: ann.id, projectId: project.id, name: "hr-sources", agentIds: [agentId] })).id;
    // Olga is in the project, not in the channel.
    await app.prisma.participant.deleteMany({ where: { conversationId: channelId, userId: outsider.id } });
    socket = await app.connect(ann);
    socket.on("message:created", (message) => created.push(message));
    socket.on("message:updated", (message) => updated.push(message));
    await emitWithAck(socket, "conversation:join", { conversationId: channelId });
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  const upload = async (name: string, text: string) => {
    const document = await uploadDocument(app.prisma, { actor: actor(), agentId, name, bytes: new TextEncoder().encode(text) });
    app.runtime.knowledge!.wake();
    await until(async () => (await app.prisma.knowledgeDocument.findUnique({ where: { id: document.id } }))?.status === "ready", `${name} to be indexed`, 30_000);
    return document.id;
  };
  const ask = async (content: string) => {
    await app.prisma.rateBucket.deleteMany();
    const ack = await emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId: channelId, clientId: randomUUID(), content });
    const question = (ack as { data: MessageDto }).data;
    await until(() => created.some((message) => message.metadata.replyToMessageId === question.id), "the reply", 20_000);
    return created.find((message) => message.metadata.replyToMessageId === question.id)!;
  };
  const call = async <T,>(handler: (request: Request, context: never) => Promise<Response>, path: string, params: Record<string, string>, user: TestUser, method = "GET", body?: unknown) => {
    const headers = { host: new URL(app.url).host, cookie: user.cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) };
    const response = await handler(new Request(`${app.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }), { params: Promise.resolve(params) } as never);
    return { status: response.status, body: (await response.json()) as { data: T; error?: { code: string; message: string } } };
  };
  const source = (user: TestUser, messageId: string, chunkId: string) => call<ReplySourceView>(sourceRoute as never, `/api/messages/${messageId}/sources/${chunkId}`, { messageId, chunkId }, user);
  /** The reply as the API lists it now. */
  const listed = async (messageId: string) => {
    const page = await call<{ messages: MessageDto[] }>(listRoute as never, `/api/conversations/${channelId}/messages`, { conversationId: channelId }, ann);
    return page.body.data.messages.find((message) => message.id === messageId)!;
  };
  const knowledgeOf = async (dispatchId: string) => {
    const row = await app.prisma.contextSnapshot.findUniqueOrThrow({ where: { turnId: dispatchId } });
    return (row.snapshot as unknown as ContextSnapshot).sections.find((section) => section.kind === "knowledge")!.items;
  };

  it("lists the knowledge a reply's context included as its sources, in metadata and in the API; the offline model cites [1]", async () => {
    const handbookId = await upload("Handbook.md", HANDBOOK);
    await upload("Parking.md", "Visitors park in the north car park; staff badges open the south gate.");
    const reply = await ask("@hr how many days of annual leave do I get?");

    const included = (await knowledgeOf(reply.metadata.dispatchId!)).filter((item) => item.included);
    const sources = reply.metadata.sources!;
    expect(sources.map((cited) => cited.chunkId)).toEqual(included.map((item) => item.id));
    expect(sources[0]).toEqual({ chunkId: included[0]!.id, documentId: handbookId, document: "Handbook.md", ordinal: 0, snippet: expect.stringContaining("Annual leave entitlement is 25 days") });
    expect(sources[0]!.snippet).not.toContain("\n");
    expect(reply.content).toContain("According to Handbook.md [1]: \"# Handbook Annual leave entitlement is 25 days");

    // Stored once, with the reply; the API and a reconnecting client read the same.
    const stored = await app.prisma.message.findUniqueOrThrow({ where: { id: reply.id }, select: { metadata: true } });
    expect((stored.metadata as { sources: ReplySource[] }).sources).toEqual(sources);
    expect((await listed(reply.id)).metadata.sources).toEqual(sources);
  });

  it("serves a cited chunk in its document to participants only: everyone else, and anything not cited, gets the same 404", async () => {
    const reply = await ask("@hr what happens to unused leave?");
    const [first] = reply.metadata.sources!;
    const read = await source(ann, reply.id, first!.chunkId);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ number: 1, document: { id: first!.documentId, name: first!.document }, removed: false });
    expect(read.body.data.passages.filter((passage) => passage.cited)).toEqual([{ ordinal: first!.ordinal, text: expect.stringContaining("Unused leave carries over until the end of March"), cited: true }]);

    const refusal = { status: 404, body: { error: { code: "not_found", message: "That source does not exist, or it belongs to a conversation you are not part of." } } };
    expect(await source(outsider, reply.id, first!.chunkId)).toEqual(refusal);
    expect(await source(ann, reply.id, randomUUID())).toEqual(refusal);
    expect(await source(ann, randomUUID(), first!.chunkId)).toEqual(refusal);
    expect(await source(ann, reply.id, "not-an-id")).toEqual(refusal);
    // A chunk of the agent's knowledge that this reply does not cite is not served through it.
    const canteenId = await upload("Canteen.md", "The canteen serves lunch from noon until two.");
    const uncited = await app.prisma.knowledgeChunk.findFirstOrThrow({ where: { documentId: canteenId } });
    expect(await source(ann, reply.id, uncited.id)).toEqual(refusal);
    await deleteDocument(app.prisma, { actor: actor(), agentId, documentId: canteenId });
    // Nor through a question, which cites nothing.
    expect(await source(ann, reply.metadata.replyToMessageId!, first!.chunkId)).toEqual(refusal);
  });

  it("shows a source whose document was deleted or replaced later as removed, without its snippet, never as an error; a regenerated reply cites what it was given then", async () => {
    const reply = await ask("@hr is parental leave paid?");
    const before = reply.metadata.sources!;
    const handbook = before.find((cited) => cited.document === "Handbook.md")!;
    const parking = before.find((cited) => cited.document === "Parking.md")!;
    expect(handbook && parking).toBeTruthy();

    // Handbook.md uploaded again (a new version replaces the old one's chunks); Parking.md deleted.
    const newHandbookId = await upload("Handbook.md", HANDBOOK.replace("20 weeks", "26 weeks"));
    await deleteDocument(app.prisma, { actor: actor(), agentId, documentId: parking.documentId });
    const after = (await listed(reply.id)).metadata.sources!;
    expect(after).toEqual(before.map(({ chunkId, documentId, document, ordinal }) => ({ chunkId, documentId, document, ordinal, removed: true })));
    expect(await source(ann, reply.id, handbook.chunkId)).toEqual({ status: 200, body: { data: { number: before.indexOf(handbook) + 1, document: { id: handbook.documentId, name: "Handbook.md" }, removed: true, passages: [] } } });

    // Regenerated: the new turn retrieves again, so the new version cites the new Handbook.md.
    const regenerated = await call(regenerateRoute as never, `/api/messages/${reply.id}/regenerate`, { messageId: reply.id }, ann, "POST");
    expect(regenerated.status).toBe(202);
    await until(() => updated.some((message) => message.id === reply.id && message.version === 2), "the regenerated version");
    const second = updated.find((message) => message.id === reply.id && message.version === 2)!;
    expect(second.metadata.sources!.map((cited) => [cited.document, cited.documentId, cited.removed ?? false])).toEqual([["Handbook.md", newHandbookId, false]]);
    expect(second.content).toContain("According to Handbook.md [1]");
    expect((await source(ann, reply.id, second.metadata.sources![0]!.chunkId)).body.data.passages.some((passage) => passage.text.includes("26 weeks"))).toBe(true);

    // Version 1 shown again: its own sources, as they are now (removed).
    const switched = await call<{ messages: MessageDto[] }>(patchRoute as never, `/api/messages/${reply.id}`, { messageId: reply.id }, ann, "PATCH", { version: 1 });
    expect(switched.status).toBe(200);
    expect(switched.body.data.messages.find((message) => message.id === reply.id)!.metadata.sources).toEqual(after);
  });

  it("shows no sources on a deleted reply, and serves none of them", async () => {
    const reply = await ask("@hr how is leave booked?");
    const [first] = reply.metadata.sources!;
    const deleted = await call(deleteRoute as never, `/api/messages/${reply.id}`, { messageId: reply.id }, admin, "DELETE");
    expect(deleted.status).toBe(200);
    expect((await listed(reply.id)).metadata.sources).toBeUndefined();
    expect((await source(ann, reply.id, first!.chunkId)).status).toBe(404);
  });
});
