import { randomUUID } from "node:crypto";
import { io as connectSocket } from "socket.io-client";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { openDatabase, type Database } from "@/lib/db/open-database";
import { EPISODE_INSTRUCTION } from "@/lib/llm/instructions";
import { requestSessionEnd } from "@/lib/memory/end-session";
import type { Ack } from "@/lib/realtime/events";
import { postgresAdminUrl, postgresUrlFor } from "../support/database-mode";
import { FakeOpenAI, type ChatRequest, type ScriptedReply } from "../support/fake-openai";
import { createChannel, createProjectWithChannel } from "../support/fixtures";
import { freePort, scratchDatabase, signUpOn, startNode, type NodeProcess } from "../support/node-process";
import type { ClientSocket } from "../support/test-app";

/**
 * `npm run soak -- --agents [--seconds 300]`: background work under faults. Two nodes on this
 * machine's PostgreSQL and Redis run agent turns, panels, knowledge ingestion and session ends
 * against a fake OpenAI-compatible server (loopback only); one node is frozen past its leases
 * (SIGSTOP, then SIGCONT) and one is restarted. Afterwards: every question answered once, every
 * panel finished once, every document ready with each chunk once, every session's episodes
 * written once, and the model calls made against those needed. Exits 1 on any loss or duplicate.
 */

const LEASE_MS = 4_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const random = (min: number, max: number) => min + Math.random() * (max - min);
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;

/** A person at a browser: posts, retrying an unanswered post with the same clientId until it is acknowledged. */
class Person {
  private readonly socket: ClientSocket;
  constructor(url: string, cookie: string) {
    this.socket = connectSocket(url, { transports: ["websocket"], reconnectionDelay: 200, reconnectionDelayMax: 2_000, timeout: 5_000, forceNew: true, extraHeaders: { cookie, origin: url } });
  }

  async post(conversationId: string, content: string, until: number): Promise<MessageDto | null> {
    const clientId = randomUUID();
    while (Date.now() < until) {
      const ack = this.socket.connected
        ? await this.socket.timeout(5_000).emitWithAck("message:send", { conversationId, clientId, content }).catch(() => null as Ack<MessageDto> | null)
        : null;
      if (ack && "data" in ack) return ack.data;
      if (ack && "error" in ack && ack.error.code !== "rate_limited") throw new Error(`post refused: ${ack.error.message}`);
      await sleep(500);
    }
    return null;
  }

  close(): void {
    this.socket.disconnect();
  }
}

/** What the fake model answers: replies that take a while, panel moves by tool call, episode summaries. */
function fakeModel(request: ChatRequest): ScriptedReply {
  const system = request.messages[0]?.content ?? "";
  const last = request.messages.at(-1)?.content ?? "";
  if (last.startsWith(EPISODE_INSTRUCTION)) return { content: "The session covered the release.\n- The release is on Friday." };
  const vote = request.tools?.find((tool) => tool.function.name === "vote");
  if (request.tools?.some((tool) => tool.function.name === "new_answer")) {
    const me = /^You are (\w+)/.exec(system)?.[1] ?? "someone";
    const answered = last.includes(`agent="${me}"`);
    const ids = vote?.function.parameters.properties.answer_id?.enum ?? [];
    if (answered && ids.length > 0) return { toolCalls: [{ name: "vote", arguments: JSON.stringify({ answer_id: ids[0], reason: "It is clear." }) }], delayMs: 50 };
    return { toolCalls: [{ name: "new_answer", arguments: JSON.stringify({ content: `${me} proposes Aurora.` }) }], delayMs: 300 };
  }
  return { content: Array.from({ length: 30 }, (_, i) => `w${i}`).join(" "), delayMs: 60 };
}

function kindOf(request: ChatRequest): "turn" | "panel" | "episode" {
  if ((request.messages.at(-1)?.content ?? "").startsWith(EPISODE_INSTRUCTION)) return "episode";
  return request.tools?.some((tool) => tool.function.name === "new_answer") ? "panel" : "turn";
}

interface Asked {
  questions: string[];
  panels: string[];
  documents: string[];
  sessionEnds: string[];
}

export async function runAgentsSoak({ seconds, settleSeconds, redisUrl }: { seconds: number; settleSeconds: number; redisUrl: string }): Promise<number> {
  const fake = await FakeOpenAI.start();
  fake.respondWith(fakeModel);
  fake.embeddingDelayMs = 100;
  const database = await scratchDatabase(postgresAdminUrl, "chorus_agents_soak");
  const ports = [await freePort(), await freePort()];
  const env = (port: number) => ({
    DATABASE_URL: postgresUrlFor(database.name),
    REDIS_URL: redisUrl,
    PORT: String(port),
    OPENAI_API_KEY: "soak-key",
    OPENAI_BASE_URL: fake.baseURL,
    EMBEDDINGS_DIMENSIONS: "8",
    EMBEDDINGS_MODEL: "fake-embedding",
    JOB_LEASE_MS: String(LEASE_MS),
    JOB_POLL_MS: "250",
  });
  const nodes: NodeProcess[] = await Promise.all(ports.map((port) => startNode(env(port))));
  const exitCodes: (number | null)[] = [];
  const db = await openDatabase({ engine: "postgres", url: postgresUrlFor(database.name) }, { migrate: false });
  const people: Person[] = [];
  try {
    const { project } = await createProjectWithChannel(db.prisma, "soak-lobby");
    const agents: { id: string }[] = [];
    for (const handle of ["toby", "ada", "sage"]) {
      agents.push(await db.prisma.agent.create({ data: { projectId: project.id, handle, displayName: handle, color: "#0ea5e9", systemPrompt: `You are ${handle}.`, provider: "openai", model: "gpt-4o-mini" } }));
    }
    const channels: string[] = [];
    for (let i = 0; i < 4; i++) {
      const channel = await createChannel(db.prisma, { projectId: project.id, name: `soak-${i}` });
      await db.prisma.participant.createMany({ data: agents.map((agent) => ({ conversationId: channel.id, agentId: agent.id })) });
      channels.push(channel.id);
    }
    for (let i = 0; i < 8; i++) {
      const url = nodes[i % 2]!.url;
      people.push(new Person(url, (await signUpOn(url, `Person ${i}`)).cookie));
    }
    console.log(`soak --agents: 8 people, 3 agents, 4 channels on 2 nodes for ${seconds} s (database ${database.name})`);

    const asked: Asked = { questions: [], panels: [], documents: [], sessionEnds: [] };
    const started = Date.now();
    const running = () => Date.now() - started < seconds * 1000;
    const deadline = started + (seconds + settleSeconds) * 1000;
    const loop = async (everyMs: [number, number], act: () => Promise<void>) => {
      while (running()) {
        await sleep(random(...everyMs));
        if (running()) await act();
      }
    };
    const work = [
      ...people.map((person) =>
        loop([2_000, 5_000], async () => {
          const question = await person.post(pick(channels), `@toby question ${randomUUID().slice(0, 8)}`, deadline);
          if (question) asked.questions.push(question.id);
        }),
      ),
      loop([6_000, 10_000], async () => {
        const question = await pick(people).post(pick(channels), "@panel @ada @sage what do we call the release?", deadline);
        if (question?.metadata.panelId) asked.panels.push(question.metadata.panelId);
      }),
      loop([5_000, 9_000], async () => {
        const text = Array.from({ length: 60 }, (_, i) => `Section ${i}. ${"Releases follow the checklist in order. ".repeat(20)}`).join("\n\n");
        const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId: pick(agents).id, name: `doc-${randomUUID().slice(0, 6)}.md`, mediaType: "text/markdown", bytes: text.length, text } });
        asked.documents.push(document.id);
      }),
      loop([7_000, 12_000], async () => {
        const id = await requestSessionEnd(db.prisma, { conversationId: pick(channels), requestedBy: null });
        if (id) asked.sessionEnds.push(id);
      }),
      faults(nodes, seconds, env, exitCodes),
    ];
    await Promise.all(work);
    // The last sessions end too, so their episodes are part of the count.
    for (const conversationId of channels) {
      const id = await requestSessionEnd(db.prisma, { conversationId, requestedBy: null });
      if (id) asked.sessionEnds.push(id);
    }

    await settle(db, deadline);
    const report = await measure(db, fake, asked);
    for (const node of nodes) exitCodes.push(await stopAndReport(node, "at the end"));
    const ok = report.lost === 0 && report.duplicated === 0 && exitCodes.every((code) => code === 0);
    // Work that ignored its signal at shutdown was left to its lease (fenced): not a failure, but worth seeing.
    const leftAtStop = nodes.flatMap((node) => node.output().split("\n").filter((line) => line.includes("did not stop: left to its lease")));
    for (const line of leftAtStop) console.log(`soak --agents: ${line}`);
    console.log(JSON.stringify({ ...report, nodeExitCodes: exitCodes, jobsLeftAtStop: leftAtStop.length }, null, 2));
    console.log(ok ? "soak --agents: PASSED" : "soak --agents: FAILED");
    return ok ? 0 : 1;
  } finally {
    people.forEach((person) => person.close());
    for (const node of nodes) if (node.child.exitCode === null) node.child.kill("SIGCONT");
    await Promise.all(nodes.map((node) => node.stop()));
    await db.close();
    await database.drop();
    await fake.close();
  }
}

/** Stops a node; one that does not exit cleanly has its last output printed, to say why. */
async function stopAndReport(node: NodeProcess, when: string): Promise<number | null> {
  const { code } = await node.stop();
  if (code !== 0) printOutput(node, when);
  return code;
}

function printOutput(node: NodeProcess, when: string): void {
  console.log(`soak --agents: node ${node.url} exited ${when} with an error; its last output:\n${node.output().slice(-4_000)}`);
}

/** A third of the way in, node A is frozen past its leases; two thirds in, node B is restarted. */
async function faults(nodes: NodeProcess[], seconds: number, env: (port: number) => Record<string, string>, exitCodes: (number | null)[]): Promise<void> {
  await sleep((seconds * 1000) / 3);
  nodes[0]!.child.kill("SIGSTOP");
  console.log(`soak --agents: node A frozen for ${(LEASE_MS * 1.5) / 1000} s`);
  await sleep(LEASE_MS * 1.5);
  nodes[0]!.child.kill("SIGCONT");
  await sleep((seconds * 1000) / 3 - LEASE_MS * 1.5);
  const stopped = await nodes[1]!.stop();
  exitCodes.push(stopped.code);
  if (stopped.code !== 0) printOutput(nodes[1]!, "restarted");
  console.log(`soak --agents: node B stopped with exit code ${stopped.code} in ${stopped.ms} ms; restarting`);
  nodes[1] = await startNode(env(Number(new URL(nodes[1]!.url).port)));
}

/** Until no work is left (or the deadline). */
async function settle(db: Database, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const [turns, panels, documents, sessions] = await Promise.all([
      db.prisma.dispatch.count({ where: { status: { in: ["pending", "running"] } } }),
      db.prisma.panel.count({ where: { status: "running" } }),
      db.prisma.knowledgeDocument.count({ where: { status: { in: ["queued", "processing"] } } }),
      db.prisma.sessionEnd.count({ where: { status: { in: ["pending", "running"] } } }),
    ]);
    if (turns + panels + documents + sessions === 0) return;
    await sleep(1_000);
  }
}

async function measure(db: Database, fake: FakeOpenAI, asked: Asked) {
  const replies = await db.prisma.message.findMany({ where: { role: "assistant" }, select: { metadata: true } });
  const repliesTo = new Map<string, number>();
  for (const reply of replies) {
    const metadata = reply.metadata as { replyToMessageId?: string; panel?: unknown; isHandoffSummary?: boolean };
    if (!metadata.panel && metadata.replyToMessageId) repliesTo.set(metadata.replyToMessageId, (repliesTo.get(metadata.replyToMessageId) ?? 0) + 1);
  }
  const failedReplies = await db.prisma.dispatch.count({ where: { status: "failed" } });
  const panels = await db.prisma.panel.findMany({ where: { id: { in: asked.panels } }, select: { id: true, status: true, _count: { select: { turns: true } } } });
  const finals = await Promise.all(asked.panels.map((panelId) => db.prisma.message.count({ where: { metadata: { path: ["panel", "panelId"], equals: panelId } } })));
  const documents = await db.prisma.knowledgeDocument.findMany({ where: { id: { in: asked.documents } }, select: { id: true, status: true, chunkCount: true } });
  const chunkRows = await db.prisma.knowledgeChunk.groupBy({ by: ["documentId", "ordinal"], where: { documentId: { in: asked.documents } }, _count: { _all: true } });
  const chunksOf = (id: string) => chunkRows.filter((row) => row.documentId === id);
  const sessionEnds = await db.prisma.sessionEnd.findMany({ where: { id: { in: asked.sessionEnds } }, select: { id: true, status: true, episodes: true, _count: { select: { written: true } } } });
  const calls = { turn: 0, panel: 0, episode: 0 };
  for (const request of fake.requests) calls[kindOf(request)] += 1;
  const needed = {
    turn: await db.prisma.dispatch.count({ where: { status: "done" } }),
    panel: panels.reduce((sum, panel) => sum + panel._count.turns, 0),
    episode: sessionEnds.reduce((sum, end) => sum + end._count.written, 0),
  };

  const lost = {
    replies: asked.questions.filter((id) => !repliesTo.has(id)).length,
    panels: panels.filter((panel) => panel.status !== "finished").length + finals.filter((count) => count === 0).length,
    documents: documents.filter((document) => document.status !== "ready" || chunksOf(document.id).length !== document.chunkCount).length + (asked.documents.length - documents.length),
    episodes: sessionEnds.filter((end) => end.status !== "done" || end._count.written !== end.episodes).length,
  };
  const duplicated = {
    replies: [...repliesTo.values()].filter((count) => count > 1).length,
    panelFinals: finals.filter((count) => count > 1).length,
    chunks: chunkRows.filter((row) => row._count._all > 1).length,
  };
  return {
    questions: asked.questions.length,
    repliesStored: asked.questions.filter((id) => repliesTo.has(id)).length,
    repliesGivenUp: failedReplies,
    panelsAsked: asked.panels.length,
    panelFinals: finals.reduce((sum, count) => sum + count, 0),
    documentsUploaded: asked.documents.length,
    documentsReady: documents.filter((document) => document.status === "ready").length,
    sessionEnds: asked.sessionEnds.length,
    episodesWritten: needed.episode,
    modelCalls: { made: calls, needed, extraFromFaults: calls.turn + calls.panel + calls.episode - needed.turn - needed.panel - needed.episode },
    lostDetail: lost,
    duplicatedDetail: duplicated,
    lost: Object.values(lost).reduce((sum, count) => sum + count, 0),
    duplicated: Object.values(duplicated).reduce((sum, count) => sum + count, 0),
  };
}
