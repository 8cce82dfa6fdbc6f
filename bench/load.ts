import { randomUUID } from "node:crypto";
import { openDatabase, type Prisma } from "@/lib/db/open-database";
import { postgresAdminUrl, postgresUrlFor } from "@/test/support/database-mode";
import { FakeOpenAI } from "@/test/support/fake-openai";
import { createChannel, createProjectWithChannel } from "@/test/support/fixtures";
import { connectTo, scratchDatabase, signUpOn, startNode, startRedis, type NodeProcess } from "@/test/support/node-process";
import { until } from "@/test/support/until";
import { memoryProbeEnv, sampleLiveMemory } from "./load-memory";
import { idealTurns, loadFigures, mentionAll, planBurst, type LoadClientOptions, type TurnRecord } from "./load-plan";
import { result, type BenchResult } from "./measure";
import { runBenchClient } from "./run-client";

// The model: 1 s to its first token, then 50 tokens a second (the fake streams a word per token).
const FIRST_TOKEN_MS = 1_000;
const TOKENS_PER_S = 50;
const REPLY_TOKENS = 50;
const REPLY = Array.from({ length: REPLY_TOKENS }, (_, index) => `word${index}`).join(" ");
const MODEL = { firstTokenMs: FIRST_TOKEN_MS, replyMs: FIRST_TOKEN_MS + (REPLY_TOKENS * 1_000) / TOKENS_PER_S };
const HANDLES = ["toby", "ada", "sage", "aria"];
/** One conversation per person. */
const PEOPLE = 10;
const BURST = planBurst(PEOPLE, HANDLES, 1_000);
const TURNS = BURST.reduce((sum, post) => sum + post.turns, 0);
const PROVIDER_LIMIT = 10;
const WARM_UP = "(warm-up)";

interface World {
  prisma: Prisma;
  conversationIds: string[];
  /** One session cookie per person; person i posts in conversation i. */
  cookies: string[];
  /** What every node runs with; each scenario adds its own. */
  env: Record<string, string>;
}

/**
 * Issue 26's burst: 50 agent turns across 10 conversations and 4 agents, posted within a second,
 * against a model with 1 s to first token and 50 tokens/s, on real node processes sharing this
 * machine's PostgreSQL (a scratch database): one node, one node with a provider limit of 10
 * concurrent calls, and two nodes over a Redis of the bench's own (nothing else publishes there).
 * Times are taken by the people's clients, in a process of their own (bench/load-client.ts).
 */
export async function measureLoad(): Promise<BenchResult[]> {
  const fake = await FakeOpenAI.start();
  // The warm-up is answered at once: it only loads each node's code, tokenizer and query plans.
  fake.respondWith((request) => (request.messages.at(-1)?.content.includes(WARM_UP) ? { content: "ready" } : { content: REPLY, firstTokenMs: FIRST_TOKEN_MS, delayMs: 1_000 / TOKENS_PER_S }));
  const database = await scratchDatabase(postgresAdminUrl, "chorus_bench_load");
  const redis = await startRedis();
  const db = await openDatabase({ engine: "postgres", url: postgresUrlFor(database.name) });
  try {
    const world: World = {
      prisma: db.prisma,
      conversationIds: await createConversations(db.prisma),
      cookies: [],
      env: {
        DATABASE_URL: postgresUrlFor(database.name),
        OPENAI_API_KEY: "bench",
        OPENAI_BASE_URL: fake.baseURL,
        EMBEDDINGS_DIMENSIONS: "8",
        EMBEDDINGS_MODEL: "fake-embedding",
        // The backlog limits must not refuse the bench's own burst.
        MAX_QUEUED_TURNS_PER_CONVERSATION: "1000",
        MAX_QUEUED_TURNS_PER_PERSON: "1000",
      },
    };
    // Within the provider's limits: it takes the whole burst at once.
    const within = { PROVIDER_MAX_CONCURRENT: String(TURNS) };
    const oneNode = await onNodes(world, [within], (nodes) => burst(world, nodes));
    // Apart from the timed run: each reading of the node's memory pauses it for a full collection.
    const memory = await onNodes(world, [{ ...within, ...memoryProbeEnv }], async (nodes) => {
      const sampler = sampleLiveMemory(nodes[0]!.child, world.prisma);
      await burst(world, nodes);
      return sampler.stop();
    });
    const limited = await onNodes(world, [{ PROVIDER_MAX_CONCURRENT: String(PROVIDER_LIMIT) }], (nodes) => burst(world, nodes));
    const twoNodes = await onNodes(world, [0, 1].map(() => ({ ...within, REDIS_URL: redis.url })), (nodes) => burst(world, nodes));

    const one = loadFigures(oneNode);
    const two = loadFigures(twoNodes);
    const queued = loadFigures(limited);
    const queuedIdeal = loadFigures(idealTurns(limited, MODEL, PROVIDER_LIMIT));
    console.log(
      `load: memory per turn = (live heap + external after a full collection with ${memory.peak.running} turns running, ${mb(memory.peak.liveKb)}, ` +
        `− the same before the burst, ${mb(memory.idle.liveKb)}) / ${memory.peak.running}; resident ${mb(memory.idle.rssKb)} → ${mb(memory.peak.rssKb)}`,
    );
    return [
      // The model's own first token is a setting of the fake server, not a measure: a target, not a baseline.
      result("load.first_token_p50_ms", "ms", one.firstTokenP50, null),
      result("load.first_token_p95_ms", "ms", one.firstTokenP95, null, { valueAtMost: FIRST_TOKEN_MS + 250 }),
      result("load.replies_per_s", "replies/s", one.repliesPerS, loadFigures(idealTurns(oneNode, MODEL)).repliesPerS),
      result("load.memory_per_turn_kb", "KB", memory.perTurnKb, null),
      result("load.two_nodes.first_token_p95_ms", "ms", two.firstTokenP95, null, { valueAtMost: FIRST_TOKEN_MS + 250 }),
      result("load.limited.first_token_p95_ms", "ms", queued.firstTokenP95, queuedIdeal.firstTokenP95),
      // The issue sets no target here: compared with an ideal queue that knows every turn in advance.
      result("load.limited.drain_per_s", "replies/s", queued.repliesPerS, queuedIdeal.repliesPerS),
      result("load.limited.fairness_max_over_mean", "x", queued.fairness, queuedIdeal.fairness, { valueAtMost: 2 }),
    ];
  } finally {
    await db.close();
    await redis.stop();
    await database.drop();
    await fake.close();
  }
}

/** Ten channels with the four agents; people who sign up later join them all (joinDefaultProject). */
async function createConversations(prisma: Prisma): Promise<string[]> {
  const { project } = await createProjectWithChannel(prisma, "load-lobby");
  const agents = await Promise.all(
    HANDLES.map((handle) => prisma.agent.create({ data: { projectId: project.id, handle, displayName: handle, color: "#0ea5e9", systemPrompt: `You are ${handle}.`, provider: "openai", model: "gpt-4o-mini" } })),
  );
  const conversationIds: string[] = [];
  for (let index = 0; index < PEOPLE; index += 1) {
    const channel = await createChannel(prisma, { projectId: project.id, name: `load-${index}` });
    await prisma.participant.createMany({ data: agents.map((agent) => ({ conversationId: channel.id, agentId: agent.id })) });
    conversationIds.push(channel.id);
  }
  return conversationIds;
}

/**
 * Fresh node processes for one scenario (each node's own settings added to the world's), warmed
 * up, then stopped after it. The people sign up on the first scenario's first node.
 */
async function onNodes<T>(world: World, settings: Record<string, string>[], run: (nodes: NodeProcess[]) => Promise<T>): Promise<T> {
  const starting = await Promise.allSettled(settings.map((own) => startNode({ ...world.env, ...own })));
  const nodes = starting.flatMap((node) => (node.status === "fulfilled" ? [node.value] : []));
  try {
    const failed = starting.find((node) => node.status === "rejected");
    if (failed) throw failed.reason;
    for (let person = world.cookies.length; person < PEOPLE; person += 1) world.cookies.push((await signUpOn(nodes[0]!.url, `Person ${person}`)).cookie);
    await warmUp(world, nodes);
    return await run(nodes);
  } finally {
    await Promise.all(nodes.map((node) => node.stop()));
  }
}

/** One burst, person i on node i mod n: every turn as its person saw it. */
async function burst(world: World, nodes: NodeProcess[]): Promise<TurnRecord[]> {
  const options: LoadClientOptions = {
    people: world.cookies.map((cookie, person) => ({ url: nodes[person % nodes.length]!.url, cookie, conversationId: world.conversationIds[person]! })),
    posts: BURST,
    idleMs: 1_000,
    timeoutMs: 120_000,
  };
  const turns = await runBenchClient<TurnRecord[]>("bench/load-client.ts", options);
  if (turns.length !== TURNS) throw new Error(`${turns.length} turns timed, ${TURNS} expected`);
  return turns;
}

/** Each node answers once first (the fake answers at once), so no turn of the burst pays for a cold start. */
async function warmUp(world: World, nodes: NodeProcess[]): Promise<void> {
  await Promise.all(
    nodes.map(async (node, person) => {
      const socket = await connectTo(node.url, world.cookies[person]!);
      try {
        const content = `${mentionAll(HANDLES)} ${WARM_UP}`;
        const ack = await socket.timeout(10_000).emitWithAck("message:send", { conversationId: world.conversationIds[person]!, clientId: randomUUID(), content });
        if (!("data" in ack)) throw new Error(`warm-up refused: ${ack.error.message}`);
      } finally {
        socket.disconnect();
      }
    }),
  );
  await until(async () => (await world.prisma.dispatch.count({ where: { status: { in: ["pending", "running"] } } })) === 0, "the warm-up turns", 60_000);
}

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
