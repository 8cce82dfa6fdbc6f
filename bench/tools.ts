import { randomUUID } from "node:crypto";
import { Server as HttpServer } from "node:http";
import { availableParallelism, loadavg } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createChannel } from "@/lib/conversations/create-channel";
import { sendMessage } from "@/lib/conversations/send-message";
import { openDatabase, type Database, type Prisma } from "@/lib/db/open-database";
import { toolResultText } from "@/lib/mcp/tool-result-text";
import { postingDeps, startAgents } from "@/lib/runtime/runtime";
import { postgresAdminUrl, postgresUrlFor } from "@/test/support/database-mode";
import { FakeOpenAI, type ChatRequest, type ScriptedReply } from "@/test/support/fake-openai";
import { createProjectWithChannel } from "@/test/support/fixtures";
import { startHttpMcpServer } from "@/test/support/mcp-servers";
import { scratchDatabase } from "@/test/support/node-process";
import { TestApp } from "@/test/support/test-app";
import { UNBOUNDED_BACKLOG } from "./bench-server";
import { percentile, result, type BenchResult } from "./measure";

const WARMUP = 20;
const TURNS = 200;
/** Issue 21: from the end of the answer asking for the tool to the next model call, beyond the tool's own time. */
const TARGET_ADDED_MS = 10;
/** Every turn adds its number to this: each turn's result is its own, so a stale or missing one shows. */
const ADDEND = 1_000;
/** After a turn: the worker's sweep and the typing indicator's end settle before anything is timed again. */
const SETTLE_MS = 10;
const TURN_TIMEOUT_MS = 15_000;
const ENGINES = ["pglite", "postgres"] as const;
type Engine = (typeof ENGINES)[number];

/**
 * Issue 21, a tool step's overhead: an agent asks the (instant) fake model, which answers with one
 * call of the local MCP server's `add`; Chorus stores the step, checks the arguments, calls the
 * tool through its pool, stores the result and starts the next model call. Timed at the fake model:
 * from the moment its tool-call answer finished (the response's `finish`) to the moment the next
 * chat-completions request arrived (its body read). The tool's own time is the same call made
 * straight through the same pool (`pool.callTool`, same connection, same server row read) between
 * turns, and beside it the same call through a bare MCP SDK client (no pool, no database), so
 * the pool's own share shows too. The process's CPU time over the same spans is printed beside
 * them: on a shared machine it tells Chorus's work from waiting for a core. On the embedded
 * database, then on a scratch database of this machine's PostgreSQL (dropped after).
 */
export async function measureTools(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const engine of ENGINES) results.push(...(await onFreshDatabase(engine, (db) => measureOn(db, engine))));
  return results;
}

async function onFreshDatabase<T>(engine: Engine, work: (db: Database) => Promise<T>): Promise<T> {
  if (engine === "pglite") return work(await openDatabase({ engine: "pglite", dataDir: null }));
  const scratch = await scratchDatabase(postgresAdminUrl, "chorus_bench_tools");
  try {
    return await work(await openDatabase({ engine: "postgres", url: postgresUrlFor(scratch.name) }));
  } finally {
    await scratch.drop();
  }
}

/** One engine's turns; the app closes the database. */
async function measureOn(db: Database, engine: Engine): Promise<BenchResult[]> {
  const fake = await FakeOpenAI.start();
  const kit = await startHttpMcpServer();
  const app = await TestApp.create(db, { OPENAI_API_KEY: "bench", OPENAI_BASE_URL: fake.baseURL, ...UNBOUNDED_BACKLOG, LOG_LEVEL: "error" });
  const bare = new Client({ name: "bench", version: "1.0.0" });
  try {
    const { project } = await createProjectWithChannel(app.prisma);
    const user = await app.signUp("toolbench");
    const agent = await app.prisma.agent.create({
      data: { projectId: project.id, handle: "calc", displayName: "Calc", color: "#123456", systemPrompt: "You add numbers with your add tool.", provider: "openai", model: "gpt-4o-mini" },
    });
    const serverId = (await app.prisma.mcpServer.create({ data: { projectId: project.id, name: "kit", transport: "http", url: kit.url } })).id;
    await app.prisma.agentTool.create({ data: { agentId: agent.id, serverId, toolName: "add", askFirst: false } });
    const conversationId = (await createChannel(app.prisma, { userId: user.id, projectId: project.id, name: "tools", agentIds: [agent.id] })).id;
    await bare.connect(new StreamableHTTPClientTransport(new URL(kit.url)));

    let asking = 0;
    const model = watchModelCalls(fake, (request) => {
      const last = request.messages.at(-1);
      return last?.role === "tool" ? { content: `It is ${last.content}.` } : { content: "", toolCalls: [{ name: "kit__add", arguments: JSON.stringify({ a: asking, b: ADDEND }) }] };
    });
    startAgents(app.runtime, { pollMs: 1_000 });
    // The person asks in-process without a socket: nothing else of theirs runs while a turn is timed.
    const posting = { prisma: app.prisma, publisher: app.runtime.realtime, ...postingDeps(app.runtime) };

    const gap: number[] = [];
    const pool: number[] = [];
    const sdk: number[] = [];
    const fakeAnswer: number[] = [];
    // CPU time beside wall-clock time: on a busy machine the clock also counts waiting for a core.
    const gapCpu: number[] = [];
    const poolCpu: number[] = [];
    for (let turn = 0; turn < WARMUP + TURNS; turn += 1) {
      asking = turn;
      const expected = String(turn + ADDEND);
      model.reset();
      const before = kit.calls.length;
      await app.prisma.rateBucket.deleteMany();
      const sent = await sendMessage(posting, { userId: user.id, input: { conversationId, clientId: randomUUID(), content: `@calc what is ${turn} + ${ADDEND}?` } });
      if (sent.dispatchIds.length !== 1) throw new Error(`turn ${turn}: the question started ${sent.dispatchIds.length} turns, not 1`);
      // Nothing of the bench's own touches the database until the second model call has arrived.
      await model.untilCalls(2, TURN_TIMEOUT_MS).catch(async (error: Error) => {
        throw new Error(`turn ${turn}: ${error.message}: ${await describeTurn(app.prisma, sent.dispatchIds[0]!)}`);
      });
      const reply = await untilAnswered(app.prisma, sent.dispatchIds[0]!);
      checkTurn(turn, model, kit.calls.slice(before), reply, expected);
      await sleep(SETTLE_MS);

      let started = performance.now();
      const cpuBefore = cpuMs();
      const direct = await app.runtime.mcp.callTool(serverId, "add", { a: turn, b: ADDEND });
      const poolMs = performance.now() - started;
      const poolCpuMs = cpuMs() - cpuBefore;
      started = performance.now();
      const viaSdk = await bare.callTool({ name: "add", arguments: { a: turn, b: ADDEND } });
      const sdkMs = performance.now() - started;
      if (toolResultText(direct) !== expected || JSON.stringify(viaSdk.content) !== JSON.stringify([{ type: "text", text: expected }])) throw new Error(`turn ${turn}: a direct call of add did not answer ${expected}`);
      if (kit.calls.length !== before + 3) throw new Error(`turn ${turn}: the MCP server ran ${kit.calls.length - before} calls, not 3 (the turn's, the pool's, the SDK's)`);
      if (turn < WARMUP) continue;
      const [asked, answered] = model.arrived;
      const answerEnd = model.finished[0]!;
      gap.push(answered!.at - answerEnd.at);
      gapCpu.push(answered!.cpu - answerEnd.cpu);
      fakeAnswer.push(answerEnd.at - asked!.at);
      pool.push(poolMs);
      poolCpu.push(poolCpuMs);
      sdk.push(sdkMs);
    }
    const toolMessages = await app.prisma.message.count({ where: { conversationId, role: "tool" } });
    if (toolMessages !== WARMUP + TURNS) throw new Error(`${toolMessages} tool results stored, not ${WARMUP + TURNS}`);

    const p = (samples: number[], at: number) => Number(percentile(samples, at).toFixed(2));
    const paired = gap.map((ms, index) => ms - pool[index]!);
    console.log(`tools (${engine}): ${TURNS} turns after ${WARMUP} warm-up, one add call each; every second model call carried its turn's result (load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`);
    console.table({
      "answer end → next model call": { p50_ms: p(gap, 50), p95_ms: p(gap, 95) },
      "pool.callTool (the tool's own time)": { p50_ms: p(pool, 50), p95_ms: p(pool, 95) },
      "bare MCP SDK callTool": { p50_ms: p(sdk, 50), p95_ms: p(sdk, 95) },
      "overhead beyond pool.callTool": { p50_ms: Number((p(gap, 50) - p(pool, 50)).toFixed(2)), p95_ms: Number((p(gap, 95) - p(pool, 95)).toFixed(2)) },
      "per turn: gap − that turn's pool call": { p50_ms: p(paired, 50), p95_ms: p(paired, 95) },
      "fake model: request → tool-call answer sent": { p50_ms: p(fakeAnswer, 50), p95_ms: p(fakeAnswer, 95) },
      "CPU time of this process (all threads) in the gap": { p50_ms: p(gapCpu, 50), p95_ms: p(gapCpu, 95) },
      "CPU time of this process (all threads) in pool.callTool": { p50_ms: p(poolCpu, 50), p95_ms: p(poolCpu, 95) },
    });
    return [
      result(`tools.step_overhead_p50_ms.${engine}`, "ms", percentile(gap, 50), percentile(pool, 50), { addedAtMost: TARGET_ADDED_MS }),
      result(`tools.step_overhead_p95_ms.${engine}`, "ms", percentile(gap, 95), percentile(pool, 95)),
      result(`tools.pool_call_p50_ms.${engine}`, "ms", percentile(pool, 50), percentile(sdk, 50)),
    ];
  } finally {
    await bare.close();
    await app.close();
    await kit.close();
    await fake.close();
  }
}

interface ModelCalls {
  /** Chat-completions requests in the order they arrived (body read, before the fake answers); `cpu`: this process's CPU time then. */
  arrived: { at: number; cpu: number; request: ChatRequest }[];
  /** When each answer's last byte left the fake, in the same order (the bench's turns run one at a time). */
  finished: { at: number; cpu: number }[];
  reset(): void;
  /** Resolves once `count` requests arrived since the reset (at once when they have). */
  untilCalls(count: number, timeoutMs: number): Promise<void>;
}

/** Answers every chat request with `respond`, timestamping when each arrives and when its answer has been sent. */
function watchModelCalls(fake: FakeOpenAI, respond: (request: ChatRequest) => ScriptedReply): ModelCalls {
  const calls: ModelCalls = {
    arrived: [],
    finished: [],
    reset() {
      calls.arrived = [];
      calls.finished = [];
    },
    untilCalls(count, timeoutMs) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiter = null;
          reject(new Error(`${count} model calls expected, ${calls.arrived.length} arrived`));
        }, timeoutMs);
        waiter = () => {
          if (calls.arrived.length < count) return;
          clearTimeout(timer);
          waiter = null;
          resolve();
        };
        waiter();
      });
    },
  };
  let waiter: (() => void) | null = null;
  fake.respondWith((request) => {
    calls.arrived.push({ at: performance.now(), cpu: cpuMs(), request });
    waiter?.();
    return respond(request);
  });
  // The fake keeps its HTTP server private (and is not the bench's to change): a second listener sees each answer leave.
  const server = (fake as unknown as { server: unknown }).server;
  if (!(server instanceof HttpServer)) throw new Error("FakeOpenAI no longer keeps its HTTP server as `server`: the bench cannot see when an answer ends");
  server.on("request", (request, response) => {
    if (request.url === "/v1/chat/completions") response.once("finish", () => calls.finished.push({ at: performance.now(), cpu: cpuMs() }));
  });
  return calls;
}

/** Both sides did the work: one call of add per turn, its result in the second model call, and the answer built on it. */
function checkTurn(turn: number, model: ModelCalls, ran: string[], reply: string, expected: string): void {
  const fail = (why: string) => {
    throw new Error(`turn ${turn}: ${why}`);
  };
  if (model.arrived.length !== 2 || model.finished.length !== 2) fail(`${model.arrived.length} model calls (${model.finished.length} answered), not 2`);
  const [first, second] = model.arrived as [ModelCalls["arrived"][number], ModelCalls["arrived"][number]];
  if (!first.request.tools?.some((tool) => tool.function.name === "kit__add")) fail("the first model call did not offer kit__add");
  if (!(first.at <= model.finished[0]!.at && model.finished[0]!.at <= second.at)) fail("the model calls overlapped: the tool-call answer had not ended when the next call arrived");
  const [asked, toolResult] = second.request.messages.slice(-2);
  const call = asked?.tool_calls?.[0];
  if (asked?.role !== "assistant" || asked.tool_calls?.length !== 1 || call?.function.name !== "kit__add" || call.function.arguments !== JSON.stringify({ a: turn, b: ADDEND })) {
    fail("the second model call did not carry the step's call of kit__add");
  }
  if (toolResult?.role !== "tool" || toolResult.tool_call_id !== call!.id || toolResult.content !== expected) fail(`the second model call carried ${JSON.stringify(toolResult?.content)} as the tool's result, not ${expected}`);
  if (ran.length !== 1 || ran[0] !== "add") fail(`the MCP server ran ${JSON.stringify(ran)} during the turn, not one add`);
  if (reply !== `It is ${expected}.`) fail(`the reply was ${JSON.stringify(reply)}`);
}

/** The turn's reply once its dispatch is done. */
async function untilAnswered(prisma: Prisma, dispatchId: string): Promise<string> {
  const deadline = performance.now() + TURN_TIMEOUT_MS;
  for (;;) {
    const dispatch = await prisma.dispatch.findUniqueOrThrow({ where: { id: dispatchId }, select: { status: true, replyMessageId: true, lastError: true } });
    if (dispatch.status === "done" && dispatch.replyMessageId) return (await prisma.message.findUniqueOrThrow({ where: { id: dispatch.replyMessageId }, select: { content: true } })).content;
    if (dispatch.status === "failed" || performance.now() > deadline) throw new Error(`the turn did not answer: ${await describeTurn(prisma, dispatchId)}`);
    await sleep(2);
  }
}

async function describeTurn(prisma: Prisma, dispatchId: string): Promise<string> {
  const dispatch = await prisma.dispatch.findUniqueOrThrow({ where: { id: dispatchId }, select: { status: true, lastError: true, replyMessageId: true } });
  const reply = dispatch.replyMessageId ? await prisma.message.findUnique({ where: { id: dispatch.replyMessageId }, select: { content: true } }) : null;
  return `dispatch ${dispatch.status}${dispatch.lastError ? ` (${dispatch.lastError})` : ""}${reply ? `, reply ${JSON.stringify(reply.content)}` : ""}`;
}

/** This process's CPU time (user and system, every thread): the work done, whatever else the machine runs meanwhile. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
