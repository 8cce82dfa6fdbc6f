import { randomUUID } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "@/lib/db/open-database";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { chunkText } from "@/lib/knowledge/chunk-text";
import { startKnowledgeWorker } from "@/lib/knowledge/ingest-documents";
import { createLocalEmbedder, normalise, type Embedder } from "@/lib/memory/embedder";
import { rankByCosine } from "@/lib/memory/exact-search";
import { prepareVectorStore, vectorStore, type NearestQuery } from "@/lib/memory/vector-store";
import { postgresAdminUrl, postgresUrlFor } from "@/test/support/database-mode";
import { createProjectWithChannel } from "@/test/support/fixtures";
import { percentile, result, type BenchResult } from "./measure";

const DIMENSIONS = 512;
const QUERIES = 200;
const random = () => normalise(Array.from({ length: DIMENSIONS }, () => Math.random() - 0.5));

/** An agent with `count` knowledge chunks of random unit vectors (indexed as they are loaded: the migrations made the index). */
async function seedChunks(db: Database, count: number): Promise<string> {
  const { project } = await createProjectWithChannel(db.prisma);
  const agent = await db.prisma.agent.create({ data: { projectId: project.id, handle: "searcher", displayName: "Searcher", color: "#123456", systemPrompt: "x", model: "offline" } });
  const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId: agent.id, name: "bench.md", mediaType: "text/markdown", bytes: 1, status: "ready" } });
  for (let start = 0; start < count; start += 1_000) {
    await db.prisma.knowledgeChunk.createMany({
      data: Array.from({ length: Math.min(1_000, count - start) }, (_, index) => ({ id: randomUUID(), documentId: document.id, agentId: agent.id, ordinal: start + index, content: `chunk ${start + index}`, embedding: random() })),
    });
  }
  return agent.id;
}

const searchOf = (agentId: string, vector: number[]): NearestQuery => ({ table: "knowledge_chunks", where: sql`t."agentId" = ${agentId}`, vector, k: 5 });

/** Milliseconds of each of `queries` searches for random vectors, after `warmup` unmeasured ones. */
async function searchTimes(queries: number, warmup: number, search: (vector: number[]) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < queries + warmup; index++) {
    const vector = random();
    const started = performance.now();
    await search(vector);
    if (index >= warmup) samples.push(performance.now() - started);
  }
  return samples;
}

/**
 * Top-5 search over `count` chunks of one agent: pgvector HNSW on the embedded database, and
 * exact search on this machine's PostgreSQL (no pgvector; issue 22: p99 at most 100 ms at
 * 20,000 chunks) against the full scan it replaced, in the same run.
 */
export async function measureSemanticSearch(count: number, suffix = ""): Promise<BenchResult[]> {
  const embedded = await openDatabase({ engine: "pglite", dataDir: null });
  let hnsw: number[];
  try {
    const agentId = await seedChunks(embedded, count);
    // After seeding: start-up's ANALYZE lets the planner choose the index.
    const vectors = await prepareVectorStore(embedded, { name: "bench:random", dimensions: DIMENSIONS });
    hnsw = await searchTimes(QUERIES, 10, (vector) => vectors.nearest(searchOf(agentId, vector)));
  } finally {
    await embedded.close();
  }
  // HNSW's baseline is the exact search on a PostgreSQL without pgvector: the ratio is what the index saves.
  const exact = await exactOnPostgres(count);
  return [
    result(`memory.semantic_search_p50_ms${suffix}`, "ms", percentile(hnsw, 50), exact ? percentile(exact.codes, 50) : null),
    result(`memory.semantic_search_p99_ms${suffix}`, "ms", percentile(hnsw, 99), exact ? percentile(exact.codes, 99) : null),
    ...(exact
      ? [
          result(`memory.semantic_search_exact_p50_ms${suffix}`, "ms", percentile(exact.codes, 50), percentile(exact.fullScan, 50)),
          result(`memory.semantic_search_exact_p99_ms${suffix}`, "ms", percentile(exact.codes, 99), percentile(exact.fullScan, 99), count === 20_000 ? { valueAtMost: 100 } : undefined),
        ]
      : []),
  ];
}

/**
 * The search on a PostgreSQL without pgvector (skipped when none is reachable): exact search
 * (codes scanned, candidates ranked in SQL), and as its baseline the full scan it replaced
 * (chorus_cosine_distance on every row, over a second a search at 20,000 chunks: a few
 * searches). Every full-scan search is also run the new way, and any difference stops the bench:
 * a faster search with other results would be no baseline's equal.
 */
async function exactOnPostgres(count: number): Promise<{ codes: number[]; fullScan: number[] } | null> {
  const name = `chorus_bench_${randomUUID().replace(/-/g, "").slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch {
    await admin.end().catch(() => undefined);
    return null;
  }
  const db = await openDatabase({ engine: "postgres", url: postgresUrlFor(name) });
  try {
    const agentId = await seedChunks(db, count);
    await prepareVectorStore(db, { name: "bench:random", dimensions: DIMENSIONS });
    // Exact even where this PostgreSQL has pgvector: that is what is measured.
    const exact = vectorStore(db, "exact", DIMENSIONS);
    const codes = await searchTimes(QUERIES, 10, (vector) => exact.nearest(searchOf(agentId, vector)));
    const fullScan = await searchTimes(count > 20_000 ? 3 : 10, 1, async (vector) => {
      const full = await rankByCosine(db.prisma, DIMENSIONS, searchOf(agentId, vector));
      const ours = await exact.nearest(searchOf(agentId, vector));
      if (JSON.stringify(ours) !== JSON.stringify(full)) throw new Error(`exact search found ${JSON.stringify(ours)}, the full scan ${JSON.stringify(full)}: its figure would mean nothing`);
    });
    return { codes, fullScan };
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const MANUAL = Array.from({ length: 300 }, (_, index) => `Section ${index}. ${"Our policies describe how the team plans releases, reviews code and supports customers. ".repeat(4)}`).join("\n\n");

/**
 * Chunks per second through the whole ingestion (chunk, embed with the offline model, index in
 * one transaction), on ONNX Runtime (the default) and, as the baseline, on TensorFlow.js's
 * WebAssembly backend (what ran before), with the same document in the same run; and the
 * embedding alone on each, to show where the time goes. Target: 100 chunks/s, stated as at most
 * 10 ms a chunk.
 */
export async function measureIngestion(): Promise<BenchResult[]> {
  const onnx = await ingestionRate({});
  const tensorflow = await ingestionRate({ engine: "tensorflow" });
  if (onnx.engine !== "onnxruntime") throw new Error(`the offline model ran on ${onnx.engine}, not ONNX Runtime: its figure would be the baseline's`);
  return [
    result("memory.ingest_chunks_per_s", "chunks/s", onnx.chunksPerSecond, tensorflow.chunksPerSecond),
    result("memory.ingest_ms_per_chunk", "ms", 1000 / onnx.chunksPerSecond, 1000 / tensorflow.chunksPerSecond, { valueAtMost: 10 }),
    result("memory.embed_chunks_per_s", "chunks/s", onnx.embedPerSecond, tensorflow.embedPerSecond),
  ];
}

/**
 * One document through the whole ingestion (the knowledge worker: chunk, embed, write step by
 * step, switch to ready) on a new agent of `db`, from its upload to ready: its chunks and seconds.
 */
export async function ingestDocument(db: Database, embedder: Embedder, text: string): Promise<{ chunks: number; seconds: number }> {
  const { project } = await createProjectWithChannel(db.prisma);
  const agent = await db.prisma.agent.create({ data: { projectId: project.id, handle: "reader", displayName: "Reader", color: "#123456", systemPrompt: "x", model: "offline" } });
  await prepareVectorStore(db, embedder);
  await embedder.embed(["warm up the model"]);
  let ready!: () => void;
  const indexed = new Promise<void>((resolve) => (ready = resolve));
  const worker = startKnowledgeWorker({ prisma: db.prisma, embedder, onProgress: (summary) => summary.status === "ready" && ready() }, { pollMs: 60_000 });
  const started = performance.now();
  const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId: agent.id, name: "manual.md", mediaType: "text/markdown", bytes: text.length, text } });
  worker.wake();
  await indexed;
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  return { chunks: await db.prisma.knowledgeChunk.count({ where: { documentId: document.id } }), seconds };
}

async function ingestionRate(options: { engine?: "tensorflow" }): Promise<{ chunksPerSecond: number; embedPerSecond: number; engine: string | null }> {
  const db = await openDatabase({ engine: "pglite", dataDir: null });
  const embedder = createLocalEmbedder(options);
  try {
    const { chunks, seconds } = await ingestDocument(db, embedder, MANUAL);
    // The embedding alone, in the ingestion's steps.
    const texts = chunkText(MANUAL);
    const step = embedder.batchFor?.(texts.length) ?? 32;
    const embedStarted = performance.now();
    for (let start = 0; start < texts.length; start += step) await embedder.embed(texts.slice(start, start + step));
    const embedSeconds = (performance.now() - embedStarted) / 1000;
    return { chunksPerSecond: chunks / seconds, embedPerSecond: texts.length / embedSeconds, engine: embedder.engine() };
  } finally {
    await embedder.close();
    await db.close();
  }
}
