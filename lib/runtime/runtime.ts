import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { giveUpTurn, runAgentTurn, type AgentTurnDeps, type Answer } from "@/lib/agents/run-agent-turn";
import { captureProcedureTool, readCaptureCall } from "@/lib/memory/capture-tool";
import { RunningTurns } from "@/lib/agents/running-turns";
import { coordinatePanel, giveUpPanel } from "@/lib/panels/coordinate-panel";
import { imageInliner } from "@/lib/attachments/inline-images";
import { startPanelWorker, type PanelWorker } from "@/lib/panels/panel-worker";
import { createAuth, type Auth } from "@/lib/auth/create-auth";
import { providerEndpoints } from "@/lib/providers/provider-endpoints";
import { readEnv, type Env } from "@/lib/config/env";
import type { PostingDeps } from "@/lib/conversations/send-message";
import { databaseTarget } from "@/lib/db/database-target";
import { startDispatchWorker, type DispatchWorker } from "@/lib/dispatch/dispatch-worker";
import { readQueuedTurns } from "@/lib/dispatch/turn-queue";
import { createProviderRegistry } from "@/lib/llm/provider-registry";
import { openDatabase, type Database } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import type { KnowledgeWorker } from "@/lib/knowledge/ingest-documents";
import { startKnowledge } from "@/lib/knowledge/knowledge-runtime";
import { capturePendingProcedure } from "@/lib/memory/manage-procedures";
import { detectProcedure } from "@/lib/memory/detect-procedure";
import { startSessionEndWorker, type SessionEndWorker } from "@/lib/memory/end-session";
import { startIdleSessionSweep, type IdleSessionSweep } from "@/lib/memory/idle-session-sweep";
import { openMemory, type Memory } from "@/lib/memory/memory-runtime";
import type { Embedder } from "@/lib/memory/embedder";
import { emptyMemory } from "@/lib/memory/retrieve-memory";
import { joinDefaultProject } from "@/lib/projects/join-default-project";
import { noopPublisher, type RealtimePublisher } from "@/lib/realtime/publisher";
import type { RetentionSweep } from "@/lib/retention/retention-sweep";
import { prepareFirstStart } from "@/lib/seed/prepare-first-start";
import { attachmentLimits, type AttachmentLimits } from "@/lib/attachments/attachment-limits";
import { openBlobStore, type BlobStore } from "@/lib/attachments/blob-store";
import { McpPool } from "@/lib/mcp/mcp-pool";
import { createSecretBox, type SecretBox } from "@/lib/mcp/secret-box";
import { vapidKeys, type VapidKeys } from "@/lib/notifications/vapid-keys";

/**
 * The process-wide services. server.ts creates them before listening; route handlers and
 * server actions, which Next bundles as separate module instances, reach the same object
 * through globalThis.
 */
export interface Runtime {
  env: Env;
  db: Database;
  auth: Auth;
  /** Replaced by server.ts once Socket.IO is attached. */
  realtime: RealtimePublisher;
  /** Agent turns running in this process (for Stop). */
  turns: RunningTurns;
  /** Started by startChorus (and by tests that want agents to answer). */
  dispatcher: DispatchWorker | null;
  /** Coordinates panels; started with the dispatcher. */
  panels: PanelWorker | null;
  /** The Redis link of a multi-node deployment, for /api/health. */
  redisStatus(): "up" | "down" | "unused";
  /** Embedder, vector search and memory stores; null until opened (scripts and most tests run without). */
  memory: Memory | null;
  /** Ingests uploaded knowledge; started with memory. */
  knowledge: KnowledgeWorker | null;
  /** Writes ended sessions' episodes; started with memory. */
  sessionEnds: SessionEndWorker | null;
  /** Ends idle sessions; started with memory. */
  sessionSweep: IdleSessionSweep | null;
  /** Deletes records past their retention age; started by startChorus. */
  retention?: RetentionSweep;
  /** Where attached files live (DATA_DIR or S3) and what may be attached. */
  attachments: { store: BlobStore; limits: AttachmentLimits };
  /** This node's connections to MCP servers; closed with the background work. */
  mcp: McpPool;
  /** Seals secrets kept in the database (MCP headers and environment), with ENCRYPTION_KEY or AUTH_SECRET. */
  secrets: SecretBox;
  /** The VAPID keys Web Push signs with; null: push is off. */
  webPush: VapidKeys | null;
}

const globalKey = Symbol.for("chorus.runtime");
type GlobalWithRuntime = typeof globalThis & { [globalKey]?: Promise<Runtime> };

export function getRuntime(): Promise<Runtime> {
  const holder = globalThis as GlobalWithRuntime;
  holder[globalKey] ??= openDatabase(databaseTarget(readEnv())).then((db) => assembleRuntime(readEnv(), db));
  return holder[globalKey];
}

/** server.ts opens the database itself (to fail fast, before Next starts) and hands it over here. */
export function initRuntime(env: Env, db: Database): Promise<Runtime> {
  const holder = globalThis as GlobalWithRuntime;
  holder[globalKey] = assembleRuntime(env, db);
  return holder[globalKey];
}

/** For tests: route handlers called in the test's process use this runtime. */
export function provideRuntime(runtime: Runtime): void {
  (globalThis as GlobalWithRuntime)[globalKey] = Promise.resolve(runtime);
}

/** For tests: build a runtime around a database they opened. */
export function createRuntimeFor(db: Database, env: Env, secret = randomBytes(32).toString("hex")): Runtime {
  const secrets = createSecretBox(env.ENCRYPTION_KEY ?? secret);
  const mcp = new McpPool({ prisma: db.prisma, secrets, connectTimeoutMs: env.MCP_CONNECT_TIMEOUT_MS, toolTimeoutMs: env.MCP_TOOL_TIMEOUT_MS });
  const runtime: Runtime = { env, db, auth: undefined as never, realtime: noopPublisher, turns: new RunningTurns(), dispatcher: null, panels: null, redisStatus: () => "unused", memory: null, knowledge: null, sessionEnds: null, sessionSweep: null, attachments: { store: openBlobStore(env), limits: attachmentLimits(env) }, mcp, secrets, webPush: null };
  runtime.auth = createAuth({
    prisma: db.prisma,
    secret,
    baseURL: env.APP_URL ?? `http://localhost:${env.PORT}`,
    trustedOrigins: env.allowedOrigins,
    trustedProxies: env.TRUST_PROXY,
    signUp: env.SIGN_UP,
    onUserCreated: (user) => joinDefaultProject(db.prisma, { userId: user.id }),
    onSessionEnded: (session) => runtime.realtime.sessionEnded(session.id, "signed_out"),
  });
  return runtime;
}

/** What posting needs from the runtime: every entry point (action, socket, HTTP API) posts alike. */
export function messaging(runtime: Runtime) {
  return { prisma: runtime.db.prisma, publisher: runtime.realtime, ...postingDeps(runtime) };
}

/** Posting wakes the workers that answer (agent turns, panels) and refuses past the backlog and attachment limits. */
export function postingDeps(runtime: Runtime): PostingDeps {
  return {
    wakeDispatcher: (dispatchIds) => runtime.dispatcher?.wake(dispatchIds),
    reserveTurn: () => runtime.dispatcher?.reserveTurn() ?? null,
    wakePanels: () => runtime.panels?.wake(),
    backlog: { perConversation: runtime.env.MAX_QUEUED_TURNS_PER_CONVERSATION, perPerson: runtime.env.MAX_QUEUED_TURNS_PER_PERSON },
    attachmentsPerMessage: runtime.attachments.limits.perMessage,
    attachmentStore: runtime.attachments.store,
  };
}

/** Which provider answers for an agent (its endpoint, or the offline model at the given pace). */
export function providerRegistryFor(runtime: Runtime, offlineChunkDelayMs?: number) {
  const { env } = runtime;
  const limits = { requestsPerMinute: env.PROVIDER_RPM, tokensPerMinute: env.PROVIDER_TPM };
  const inlineImages = imageInliner({ prisma: runtime.db.prisma, store: runtime.attachments.store });
  return createProviderRegistry({
    apiKey: env.OPENAI_API_KEY,
    baseURL: env.OPENAI_BASE_URL,
    timeoutMs: env.PROVIDER_TIMEOUT_MS,
    offlineChunkDelayMs,
    rateLimits: { prisma: runtime.db.prisma, limits },
    inlineImages,
    customEndpoint: providerEndpoints({ prisma: runtime.db.prisma, secrets: runtime.secrets, timeoutMs: env.PROVIDER_TIMEOUT_MS, inlineImages }),
  });
}

/** Starts the workers that run agent turns for this runtime's dispatches, and its panels. */
export function startAgents(runtime: Runtime, options: { offlineChunkDelayMs?: number; leaseMs?: number; pollMs?: number } = {}): DispatchWorker {
  const workers = { leaseMs: options.leaseMs ?? runtime.env.JOB_LEASE_MS, pollMs: options.pollMs ?? runtime.env.JOB_POLL_MS };
  const deps: AgentTurnDeps = {
    prisma: runtime.db.prisma,
    publisher: () => runtime.realtime,
    providerFor: providerRegistryFor(runtime, options.offlineChunkDelayMs),
    turns: runtime.turns,
    // Read at each turn: memory may be opened after the worker starts (tests).
    get memory() {
      return runtime.memory?.stores ?? emptyMemory;
    },
    // Capturing procedures needs the memory stores.
    get tools() {
      return runtime.memory ? [captureProcedureTool] : undefined;
    },
    mcp: runtime.mcp,
    approvalMs: runtime.env.TOOL_APPROVAL_MINUTES * 60_000,
    onAnswered: (answer) => void captureProcedure(runtime, answer),
    continueWith: (next, held) => (held ? runtime.dispatcher?.adopt(next, held.expiresAt) : runtime.dispatcher?.wake([next.id])),
  };
  runtime.dispatcher = startDispatchWorker({
    prisma: runtime.db.prisma,
    runTurn: (job, lease) => runAgentTurn(deps, job, lease),
    giveUp: (job, lease) => giveUpTurn(deps, job, lease),
    ...workers,
    concurrency: runtime.env.AGENT_TURNS_PER_NODE,
    providerLimit: runtime.env.PROVIDER_MAX_CONCURRENT,
    sharedDatabase: runtime.db.engine === "postgres",
    onWaiting: (ids) => void announceQueued(runtime, ids),
    phaseOf: (id) => runtime.turns.phaseOf(id),
  });
  runtime.panels = startPanelWorker({
    prisma: runtime.db.prisma,
    coordinate: (panelId, lease) => coordinatePanel(deps, panelId, lease),
    giveUp: (panelId, lease, reason) => giveUpPanel(deps, panelId, lease, reason),
    ...workers,
  });
  return runtime.dispatcher;
}

async function assembleRuntime(env: Env, db: Database): Promise<Runtime> {
  const runtime = createRuntimeFor(db, env, authSecret(env));
  runtime.webPush = vapidKeys(env);
  await prepareFirstStart({ env, db, auth: runtime.auth });
  log.info("database ready", { engine: db.engine });
  return runtime;
}

/** AUTH_SECRET, or one generated once and kept in the data directory so sessions survive restarts. */
function authSecret(env: Env): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  const file = path.join(env.dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  if (env.NODE_ENV === "production" && env.DATABASE_URL) {
    throw new Error("AUTH_SECRET is required in production with DATABASE_URL (32+ random characters, shared by every node).");
  }
  mkdirSync(env.dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export async function closeRuntime(): Promise<void> {
  const holder = globalThis as GlobalWithRuntime;
  const pending = holder[globalKey];
  if (!pending) return;
  delete holder[globalKey];
  const runtime = await pending.catch(() => undefined);
  await stopBackgroundWork(runtime);
  await runtime?.db.close();
}

/** Everything that runs on its own (agents, panels, ingestion, the idle-session sweep) stops before the database closes. */
export async function stopBackgroundWork(runtime: Runtime | undefined): Promise<void> {
  await stopAgents(runtime);
  // After the turns that call tools: stdio servers' processes end, HTTP sessions are closed.
  await runtime?.mcp.close();
  await runtime?.sessionSweep?.stop();
  await runtime?.sessionEnds?.stop();
  await runtime?.retention?.stop();
  await runtime?.knowledge?.stop();
  await runtime?.memory?.embedder.close();
}

/**
 * Opens memory (embedder, vector search, stores), starts ingesting uploaded knowledge, writing
 * ended sessions' episodes and ending idle sessions.
 */
export async function startMemory(runtime: Runtime, embedder: Embedder, options: { leaseMs?: number; pollMs?: number; sweepEveryMs?: number } = {}): Promise<void> {
  const prisma = runtime.db.prisma;
  const workers = { leaseMs: options.leaseMs ?? runtime.env.JOB_LEASE_MS, pollMs: options.pollMs ?? runtime.env.JOB_POLL_MS };
  runtime.memory = await openMemory(runtime.db, embedder);
  runtime.knowledge = startKnowledge({ prisma, embedder, publisher: () => runtime.realtime }, workers);
  const sessionEnds = startSessionEndWorker(
    { prisma, embedder, providerFor: providerRegistryFor(runtime), onUpdate: (userId, view) => runtime.realtime.sessionEndUpdated(userId, view) },
    workers,
  );
  runtime.sessionEnds = sessionEnds;
  runtime.sessionSweep = startIdleSessionSweep({ prisma, idleMinutes: runtime.env.SESSION_IDLE_MINUTES, everyMs: options.sweepEveryMs, onQueued: (ids) => sessionEnds.wake(ids) });
}

/**
 * The write phase after an answer: a procedure worth keeping becomes a pending one. Real models
 * say so by calling capture_procedure; the offline model's step-by-step replies are detected.
 */
async function captureProcedure(runtime: Runtime, answer: Answer): Promise<void> {
  const memory = runtime.memory;
  const call = answer.toolCalls.find((candidate) => candidate.name === captureProcedureTool.name);
  const detected = !memory ? null : answer.provider === "offline" ? detectProcedure(answer.question, answer.reply) : call ? readCaptureCall(call.arguments) : null;
  if (!memory || !detected) return;
  try {
    await capturePendingProcedure({ prisma: runtime.db.prisma, embedder: memory.embedder }, { agentId: answer.agentId, dispatchId: answer.dispatchId, ...detected });
  } catch (error) {
    log.warn("procedure capture failed", { dispatchId: answer.dispatchId, error });
  }
}

/** Turns that wait (queued, or for their provider): the people in their conversations are told, with their places in line. */
async function announceQueued(runtime: Runtime, dispatchIds: string[]): Promise<void> {
  try {
    for (const turn of await readQueuedTurns(runtime.db.prisma, { dispatchIds })) runtime.realtime.turnQueued(turn);
  } catch (error) {
    log.warn("queued turns not announced", { dispatchIds, error });
  }
}

/** No new turns; running ones give their dispatch (and panels) back so another node answers at once. */
export async function stopAgents(runtime: Runtime | undefined): Promise<void> {
  await Promise.all([runtime?.dispatcher?.stop(), runtime?.panels?.stop()]);
}

