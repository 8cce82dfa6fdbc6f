import { randomUUID } from "node:crypto";
import { postMessage } from "@/lib/conversations/post-message";
import { openDatabase, type Database } from "@/lib/db/open-database";
import { searchMessages } from "@/lib/search/search-messages";
import { postgresAdminUrl, postgresUrlFor } from "@/test/support/database-mode";
import { createChannel } from "@/test/support/fixtures";
import { scratchDatabase } from "@/test/support/node-process";
import { percentile, result, type BenchResult } from "./measure";
import { queryMix, seedCorpus, wordAt } from "./search-corpus";

const TARGET_P99_MS = 50;
const ROUNDS = 20;
const WARMUP_ROUNDS = 2;
const SEARCH_INDEX = "messages_search_idx";
export const ENGINES = ["pglite", "postgres"] as const;
export type Engine = (typeof ENGINES)[number];

/**
 * Issue 19's search targets, on the embedded database and on this machine's PostgreSQL: p50 and
 * p99 of a mix of searches (bench/search-corpus.ts) by a person in 50 of 2,000 conversations
 * holding 1,000,000 messages (`SEARCH_BENCH_MESSAGES=100000 npm run bench -- search` for a
 * quicker run while working on it); and posting's throughput (the real postMessage) with and
 * without the search index, in alternating blocks of the same run.
 */
export async function measureSearch(): Promise<BenchResult[]> {
  const messages = Number(process.env.SEARCH_BENCH_MESSAGES ?? 1_000_000);
  const results: BenchResult[] = [];
  for (const engine of ENGINES) {
    results.push(...(await onFreshDatabase(engine, (db) => measureQueries(db, engine, messages))));
    results.push(await onFreshDatabase(engine, (db) => measurePosting(db, engine)));
  }
  return results;
}

/** `work` on a new, migrated database of the engine (PostgreSQL's is dropped after). */
export async function onFreshDatabase<T>(engine: Engine, work: (db: Database) => Promise<T>): Promise<T> {
  if (engine === "pglite") {
    const db = await openDatabase({ engine: "pglite", dataDir: null });
    return work(db).finally(() => db.close());
  }
  const scratch = await scratchDatabase(postgresAdminUrl, "chorus_bench");
  const db = await openDatabase({ engine: "postgres", url: postgresUrlFor(scratch.name) });
  return work(db).finally(async () => {
    await db.close();
    await scratch.drop();
  });
}

/** Runs `work` with the search index dropped, then builds it again from its own definition. */
async function withoutSearchIndex<T>(db: Database, work: () => Promise<T>): Promise<T> {
  const [index] = await db.prisma.$queryRaw<{ definition: string }[]>`SELECT pg_get_indexdef(${SEARCH_INDEX}::regclass) AS "definition"`;
  await db.prisma.$executeRawUnsafe(`DROP INDEX "${SEARCH_INDEX}"`);
  try {
    return await work();
  } finally {
    await db.prisma.$executeRawUnsafe(index!.definition);
  }
}

async function measureQueries(db: Database, engine: Engine, messages: number): Promise<BenchResult[]> {
  let started = performance.now();
  // Building the index once after loading is far quicker than growing it row by row.
  const corpus = await withoutSearchIndex(db, () => seedCorpus(db.prisma, messages));
  await db.prisma.$executeRawUnsafe("ANALYZE");
  console.log(`search (${engine}): ${messages.toLocaleString("en")} messages seeded and indexed in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  const mix = queryMix(corpus);
  const samples: number[] = [];
  const byQuery = new Map(mix.map(({ name }) => [name, [] as number[]]));
  const found = new Map<string, number>();
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round += 1) {
    for (const { name, query, filters } of mix) {
      started = performance.now();
      const page = await searchMessages(db.prisma, { userId: corpus.searcherId, query, ...filters });
      const ms = performance.now() - started;
      if (round < WARMUP_ROUNDS) continue;
      samples.push(ms);
      byQuery.get(name)!.push(ms);
      found.set(name, page.total);
    }
  }
  console.table(mix.map(({ name, query }) => ({ name, query, found: found.get(name), p50_ms: percentile(byQuery.get(name)!, 50).toFixed(1), max_ms: Math.max(...byQuery.get(name)!).toFixed(1) })));
  return [
    result(`search.p50_ms.${engine}`, "ms", percentile(samples, 50), null),
    result(`search.p99_ms.${engine}`, "ms", percentile(samples, 99), null, { valueAtMost: TARGET_P99_MS }),
  ];
}

const POSTERS = 200;
const POST_PAIRS = 12;
const POSTS_PER_BLOCK = 50;

/**
 * Messages per second through postMessage with the search index, against the same without it.
 * Blocks alternate (with, without, without, with, …) and each side counts its median block, so
 * that a slow spell of the machine (other work on its two cores) weighs on neither. Each post is
 * a sentence of the corpus's words; senders rotate, so the rate limit (20 per 10 s) is not what
 * is measured.
 */
async function measurePosting(db: Database, engine: Engine): Promise<BenchResult> {
  const { prisma } = db;
  const project = await prisma.project.create({ data: { slug: "post-bench", name: "Post bench" } });
  const userIds = Array.from({ length: POSTERS }, () => randomUUID());
  await prisma.$executeRaw`
    INSERT INTO "users" ("id", "name", "email", "handle", "updatedAt")
    SELECT id, 'Poster ' || n, 'poster' || n || '@bench.test', 'poster' || n, now() FROM unnest(${userIds}::text[]) WITH ORDINALITY AS u(id, n)`;
  const { id: conversationId } = await createChannel(prisma, { projectId: project.id, name: "posting", userIds });
  let sent = 0;
  const postBlock = async () => {
    const started = performance.now();
    for (let index = 0; index < POSTS_PER_BLOCK; index += 1, sent += 1) {
      const content = Array.from({ length: 12 }, (_, word) => wordAt(1 + ((sent * 7919 + word * 104_729) % 20_000))).join(" ");
      await postMessage(prisma, { userId: userIds[sent % POSTERS]!, input: { conversationId, clientId: randomUUID(), content } });
    }
    return performance.now() - started;
  };
  // Dropping or building the index makes the posting function plan again: a block settles first.
  const settledBlock = async () => {
    await postBlock();
    return postBlock();
  };
  const withIndex: number[] = [];
  const without: number[] = [];
  for (let pair = 0; pair < POST_PAIRS; pair += 1) {
    if (pair % 2 === 0) withIndex.push(await settledBlock());
    without.push(await withoutSearchIndex(db, settledBlock));
    if (pair % 2 === 1) withIndex.push(await settledBlock());
  }
  const perSecond = (blocks: number[]) => POSTS_PER_BLOCK / (percentile(blocks, 50) / 1000);
  return result(`search.post_throughput_with_index.${engine}`, "messages/s", perSecond(withIndex), perSecond(without), { ratioAtLeast: 0.9 });
}
