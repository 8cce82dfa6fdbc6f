import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { openDatabase, type Database } from "@/lib/db/open-database";
import type { PanelDelta } from "@/lib/panels/panel-view";
import type { Ack, MessageDelta } from "@/lib/realtime/events";
import { postgresAdminUrl, postgresUrlFor } from "../support/database-mode";
import { FakeOpenAI } from "../support/fake-openai";
import { createChannel, createProjectWithChannel } from "../support/fixtures";
import { connectTo, scratchDatabase, signUpOn, startNode, startRedis, type NodeProcess } from "../support/node-process";
import { emitWithAck, type ClientSocket } from "../support/test-app";
import { until } from "../support/until";

const LEASE_MS = 3_000;
/** Longer than a lease: the other node takes the work over while this one is frozen. */
const STALL_MS = LEASE_MS + 2_500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A node frozen (SIGSTOP) past its leases in the middle of an agent turn, a panel and an
 * ingestion, then woken (SIGCONT): the other node finishes each once, and the woken node's
 * writes are refused and it emits nothing more, saying "lease lost" once. Then nodes that stop for
 * good: one with turns queued, one killed while it indexes a document.
 */
describe("two nodes: one stalls past its leases", () => {
  const sockets: ClientSocket[] = [];
  let nodes: NodeProcess[] = [];
  let fake: FakeOpenAI;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let db: Database;
  let projectId: string;
  let env: Record<string, string>;

  const nodeA = () => nodes[0]!;
  const track = (socket: ClientSocket) => (sockets.push(socket), socket);
  /**
   * Freezes the node's process past its leases. Resolves with the moment after which anything
   * it emits was sent after it woke: what it sent before the stop is delivered within the stall.
   */
  const stall = async (node: NodeProcess) => {
    node.child.kill("SIGSTOP");
    const frozen = Date.now() + 1_000;
    await sleep(STALL_MS);
    node.child.kill("SIGCONT");
    return frozen;
  };
  const leaseLostLines = (node: NodeProcess, id: string) => node.output().split("\n").filter((line) => line.includes("lease lost") && line.includes(id));
  /** The node whose process holds the row's lease (leasedBy is host:pid), and the index of the other one. */
  const holderOf = (leasedBy: string | null) => {
    const index = nodes.findIndex((node) => leasedBy?.endsWith(`:${node.child.pid}`));
    expect(index).toBeGreaterThanOrEqual(0);
    return { stalled: nodes[index]!, other: 1 - index };
  };
  /** A person on each node watching the conversation: events are read on the node that does not stall. */
  const watchOnBoth = async (conversationId: string) => {
    const watchers = [];
    for (const node of nodes) {
      const person = await signUpOn(node.url, "Watcher");
      const socket = track(await connectTo(node.url, person.cookie));
      await emitWithAck(socket, "conversation:join", { conversationId });
      watchers.push(socket);
    }
    return watchers;
  };

  beforeAll(async () => {
    fake = await FakeOpenAI.start();
    database = await scratchDatabase(postgresAdminUrl, "chorus_stall");
    redis = await startRedis();
    env = {
      DATABASE_URL: postgresUrlFor(database.name),
      REDIS_URL: redis.url,
      OPENAI_API_KEY: "fake-key",
      OPENAI_BASE_URL: fake.baseURL,
      EMBEDDINGS_DIMENSIONS: "8",
      EMBEDDINGS_MODEL: "fake-embedding",
      OFFLINE_MODEL_DELAY_MS: "150",
      JOB_LEASE_MS: String(LEASE_MS),
      JOB_POLL_MS: "200",
      // The last test queues forty turns behind the provider's limit.
      PROVIDER_MAX_CONCURRENT: "2",
      MAX_QUEUED_TURNS_PER_CONVERSATION: "200",
      MAX_QUEUED_TURNS_PER_PERSON: "200",
    };
    nodes = [await startNode(env), await startNode(env)];
    db = await openDatabase({ engine: "postgres", url: postgresUrlFor(database.name) }, { migrate: false });
    projectId = (await createProjectWithChannel(db.prisma)).project.id;
  }, 90_000);

  afterAll(async () => {
    sockets.forEach((socket) => socket.disconnect());
    for (const node of nodes) if (node.child.exitCode === null) node.child.kill("SIGCONT");
    await Promise.all(nodes.map((node) => node.stop()));
    await db?.close();
    await redis?.stop();
    await database?.drop();
    await fake?.close();
  });

  it("an agent turn: the other node answers once, with its own snapshot; the stalled node streams nothing more and calls no model", async () => {
    const agent = await db.prisma.agent.create({ data: { projectId, handle: "toby", displayName: "Toby", color: "#0ea5e9", systemPrompt: "You are Toby.", provider: "openai", model: "gpt-4o-mini" } });
    const { id: conversationId } = await createChannel(db.prisma, { projectId, name: "stall-turn" });
    await db.prisma.participant.create({ data: { conversationId, agentId: agent.id } });
    const story = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    fake.respondWith((request) => (request.messages[0]?.content.includes("You are Toby") ? { content: story, delayMs: 100 } : undefined));
    const asker = await signUpOn(nodeA().url, "Asker");
    const askerOnA = track(await connectTo(nodeA().url, asker.cookie));
    const watchers = await watchOnBoth(conversationId);
    const deltas: (MessageDelta & { at: number })[][] = [[], []];
    const replies: MessageDto[][] = [[], []];
    watchers.forEach((socket, index) => {
      socket.on("message:delta", (delta) => deltas[index]!.push({ ...delta, at: Date.now() }));
      socket.on("message:created", (message) => message.author.kind === "agent" && replies[index]!.push(message));
    });

    // Posted on node A: its worker most likely takes the turn at once (the test stalls whichever node did).
    const asked = await emitWithAck<Ack<MessageDto>>(askerOnA, "message:send", { conversationId, clientId: randomUUID(), content: "@toby tell me a long story" });
    const question = (asked as { data: MessageDto }).data;
    await until(() => deltas.flat().some((delta) => delta.attempt === 1), "attempt 1 to stream");
    const dispatch = await db.prisma.dispatch.findFirstOrThrow({ where: { messageId: question.id } });
    const { stalled, other } = holderOf(dispatch.leasedBy);
    const requestsBefore = fake.requests.length;
    const frozen = await stall(stalled);

    await until(() => replies[other]!.length > 0, "the reply", 20_000);
    const dispatchId = dispatch.id;
    await until(() => leaseLostLines(stalled, dispatchId).length > 0, "the stalled node to say it lost the lease");
    await sleep(1_500);

    const reply = replies[other]!;
    expect(reply).toHaveLength(1);
    expect(reply[0]!.content).toBe(story);
    expect(reply[0]!.metadata).toMatchObject({ dispatchId, replyToMessageId: question.id });
    expect(await db.prisma.message.count({ where: { conversationId, authorAgentId: agent.id } })).toBe(1);
    expect(await db.prisma.dispatch.findUniqueOrThrow({ where: { id: dispatchId } })).toMatchObject({ status: "done", attempt: 2, failures: 1, replyMessageId: reply[0]!.id });
    // The snapshot is the answering attempt's, not the stalled one's late write.
    expect(await db.prisma.contextSnapshot.findUniqueOrThrow({ where: { turnId: dispatchId } })).toMatchObject({ attempt: 2, replyMessageId: reply[0]!.id });
    // The stalled node streamed nothing after it woke, and called no model again.
    expect(deltas[other]!.filter((delta) => delta.attempt === 1 && delta.at > frozen)).toEqual([]);
    expect(deltas[other]!.filter((delta) => delta.attempt === 2).length).toBeGreaterThan(0);
    expect(fake.requests.length - requestsBefore).toBe(1);
    expect(leaseLostLines(stalled, dispatchId)).toHaveLength(1);
  }, 60_000);

  it("a panel: the other node resumes it and posts the one final answer; the stalled coordinator writes and emits nothing more", async () => {
    const { id: conversationId } = await createChannel(db.prisma, { projectId, name: "stall-panel" });
    for (const handle of ["ada", "sage"]) {
      const agent = await db.prisma.agent.create({ data: { projectId, handle, displayName: handle, color: "#0ea5e9", systemPrompt: `You are ${handle}.`, provider: "offline", model: "offline-1" } });
      await db.prisma.participant.create({ data: { conversationId, agentId: agent.id } });
    }
    const asker = await signUpOn(nodeA().url, "Jun");
    const askerOnA = track(await connectTo(nodeA().url, asker.cookie));
    const watchers = await watchOnBoth(conversationId);
    const deltas: (PanelDelta & { at: number })[][] = [[], []];
    const finals: MessageDto[][] = [[], []];
    watchers.forEach((socket, index) => {
      socket.on("panel:delta", (delta) => deltas[index]!.push({ ...delta, at: Date.now() }));
      socket.on("message:created", (message) => message.metadata.panel && finals[index]!.push(message));
    });

    const asked = await emitWithAck<Ack<MessageDto>>(askerOnA, "message:send", { conversationId, clientId: randomUUID(), content: "@panel @ada @sage what do we name the release?" });
    const panelId = (asked as { data: MessageDto }).data.metadata.panelId!;
    await until(() => deltas.flat().some((delta) => delta.panelId === panelId), "a panel answer to stream");
    const { stalled, other } = holderOf((await db.prisma.panel.findUniqueOrThrow({ where: { id: panelId } })).leasedBy);
    const stalledTurns = new Set(deltas.flat().map((delta) => delta.turnId));
    const frozen = await stall(stalled);

    await until(() => finals[other]!.length > 0, "the panel's final answer", 40_000);
    await until(() => leaseLostLines(stalled, panelId).length > 0, "the stalled node to say it lost the panel");
    await sleep(1_500);

    expect(finals[other]).toHaveLength(1);
    expect(await db.prisma.message.count({ where: { conversationId, metadata: { path: ["panel", "panelId"], equals: panelId } } })).toBe(1);
    const panel = await db.prisma.panel.findUniqueOrThrow({ where: { id: panelId }, include: { turns: true } });
    expect(panel).toMatchObject({ status: "finished", finalMessageId: finals[other]![0]!.id });
    expect(panel.attempt).toBeGreaterThanOrEqual(2);
    // The stalled coordinator's turns were closed by the next one and never ended by it afterwards.
    for (const turn of panel.turns.filter((candidate) => stalledTurns.has(candidate.id))) expect(turn.status).toBe("restarted");
    expect(deltas[other]!.filter((delta) => stalledTurns.has(delta.turnId) && delta.at > frozen)).toEqual([]);
    expect(leaseLostLines(stalled, panelId)).toHaveLength(1);
  }, 90_000);

  it("an ingestion: the document is indexed once, each chunk once, by the node that took it over", async () => {
    const agent = await db.prisma.agent.create({ data: { projectId, handle: "reader", displayName: "Reader", color: "#0ea5e9", systemPrompt: "You read.", provider: "offline", model: "offline-1" } });
    // Ten batches of embeddings at 500 ms each: the stall lands in the middle.
    fake.embeddingDelayMs = 500;
    const text = Array.from({ length: 320 }, (_, i) => `Paragraph ${i}. ${"The release process has steps that must be followed in order. ".repeat(12)}`).join("\n\n");
    const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId: agent.id, name: "handbook.md", mediaType: "text/markdown", bytes: text.length, text } });
    await until(async () => ((await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: document.id } })).progress ?? 0) > 0, "a node to start indexing", 20_000);
    const { stalled } = holderOf((await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: document.id } })).leasedBy);
    await stall(stalled);

    await until(async () => (await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: document.id } })).status === "ready", "the document to be ready", 40_000);
    await until(() => leaseLostLines(stalled, document.id).length > 0, "the stalled node to say it lost the document");
    await sleep(1_500);
    fake.embeddingDelayMs = 0;

    const ready = await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: document.id } });
    expect(ready).toMatchObject({ status: "ready", attempt: 2, error: null });
    const chunks = await db.prisma.knowledgeChunk.findMany({ where: { documentId: document.id }, select: { ordinal: true } });
    expect(chunks).toHaveLength(ready.chunkCount);
    expect(new Set(chunks.map((chunk) => chunk.ordinal)).size).toBe(ready.chunkCount);
    expect(await db.prisma.knowledgeDocument.count({ where: { agentId: agent.id } })).toBe(1);
    expect(leaseLostLines(stalled, document.id)).toHaveLength(1);
  }, 90_000);

  it("a node stopped with forty turns queued behind the provider's limit: the other node runs them all, each once, in order per agent and room", async () => {
    const handles = ["one", "two", "three", "four"];
    const agents = [];
    for (const handle of handles) agents.push(await db.prisma.agent.create({ data: { projectId, handle, displayName: handle, color: "#0ea5e9", systemPrompt: `You are ${handle}.`, provider: "openai", model: "gpt-4o-mini" } }));
    const rooms = [];
    for (let i = 0; i < 2; i++) {
      const { id } = await createChannel(db.prisma, { projectId, name: `queue-${i}` });
      await db.prisma.participant.createMany({ data: agents.map((agent) => ({ conversationId: id, agentId: agent.id })) });
      rooms.push(id);
    }
    fake.respondWith((request) => ({ content: `answer to ${request.messages.at(-1)!.content}`, delayMs: 40 }));
    const asker = await signUpOn(nodeA().url, "Queuer");
    const onA = track(await connectTo(nodeA().url, asker.cookie));
    const questions: MessageDto[] = [];
    for (let i = 0; i < 10; i++) {
      const ack = await emitWithAck<Ack<MessageDto>>(onA, "message:send", { conversationId: rooms[i % 2]!, clientId: randomUUID(), content: `@one @two @three @four question ${i}` });
      questions.push((ack as { data: MessageDto }).data);
    }
    expect(await db.prisma.dispatch.count({ where: { messageId: { in: questions.map((question) => question.id) } } })).toBe(40);
    // Node A goes while most of them wait.
    expect((await nodeA().stop()).code).toBe(0);
    expect(await db.prisma.dispatch.count({ where: { messageId: { in: questions.map((question) => question.id) }, status: "pending" } })).toBeGreaterThan(20);

    await until(async () => (await db.prisma.dispatch.count({ where: { messageId: { in: questions.map((question) => question.id) }, status: "done" } })) === 40, "node B to answer all forty", 60_000);
    const replies = await db.prisma.message.findMany({ where: { conversationId: { in: rooms }, authorAgentId: { not: null } }, orderBy: { seq: "asc" }, select: { authorAgentId: true, conversationId: true, metadata: true } });
    expect(replies).toHaveLength(40);
    for (const question of questions) for (const agent of agents) {
      expect(replies.filter((reply) => reply.authorAgentId === agent.id && (reply.metadata as { replyToMessageId?: string }).replyToMessageId === question.id)).toHaveLength(1);
    }
    // Each agent answered each room's questions in the order they were asked.
    for (const room of rooms) for (const agent of agents) {
      const answered = replies.filter((reply) => reply.conversationId === room && reply.authorAgentId === agent.id).map((reply) => (reply.metadata as { replyToMessageId: string }).replyToMessageId);
      expect(answered).toEqual(questions.filter((question) => question.conversationId === room).map((question) => question.id));
    }
    expect(fake.maxInFlight).toBeLessThanOrEqual(2);
  }, 90_000);

  it("a node killed while it indexes a new version of a document: the other node finishes it, and one version of the document is left, whole", async () => {
    // The queue test stopped node A: a node joins, so two take part again.
    nodes.push(await startNode(env));
    const alive = nodes.filter((node) => node.child.exitCode === null && node.child.signalCode === null);
    const agent = await db.prisma.agent.create({ data: { projectId, handle: "keeper", displayName: "Keeper", color: "#0ea5e9", systemPrompt: "You keep.", provider: "offline", model: "offline-1" } });
    const upload = (text: string) => db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId: agent.id, name: "handbook.md", mediaType: "text/markdown", bytes: text.length, text } });
    const statusOf = async (id: string) => (await db.prisma.knowledgeDocument.findUnique({ where: { id } }))?.status;
    const first = await upload("Version one says releases ship on Fridays.");
    await until(async () => (await statusOf(first.id)) === "ready", "the first version to be ready", 20_000);

    fake.embeddingDelayMs = 500;
    const text = Array.from({ length: 320 }, (_, i) => `Paragraph ${i}. ${"Version two says releases ship on Tuesdays, in order. ".repeat(12)}`).join("\n\n");
    const second = await upload(text);
    await until(async () => ((await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: second.id } })).progress ?? 0) > 0, "a node to start indexing the new version", 20_000);
    const { leasedBy } = await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: second.id } });
    const holder = alive.find((node) => leasedBy?.endsWith(`:${node.child.pid}`));
    expect(holder).toBeDefined();
    holder!.child.kill("SIGKILL");
    // While the new version is being written, the first one is the one searched: still ready, whole.
    expect(await statusOf(first.id)).toBe("ready");
    const { chunkCount } = await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: first.id } });
    expect(chunkCount).toBeGreaterThan(0);
    expect(await db.prisma.knowledgeChunk.count({ where: { documentId: first.id } })).toBe(chunkCount);

    await until(async () => (await statusOf(second.id)) === "ready", "the other node to finish the new version", 60_000);
    fake.embeddingDelayMs = 0;

    const ready = await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: second.id } });
    expect(ready).toMatchObject({ status: "ready", error: null });
    expect(ready.attempt).toBeGreaterThanOrEqual(2);
    expect(await db.prisma.knowledgeDocument.findMany({ where: { agentId: agent.id }, select: { id: true } })).toEqual([{ id: second.id }]);
    const chunks = await db.prisma.knowledgeChunk.findMany({ where: { agentId: agent.id }, select: { documentId: true, ordinal: true } });
    expect(chunks).toHaveLength(ready.chunkCount);
    expect(chunks.every((chunk) => chunk.documentId === second.id)).toBe(true);
    expect(new Set(chunks.map((chunk) => chunk.ordinal)).size).toBe(ready.chunkCount);
  }, 120_000);
});
