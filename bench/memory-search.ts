import { randomUUID } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "@/lib/db/open-database";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { startKnowledgeWorker } from "@/lib/knowledge/ingest-documents";
import { createLocalEmbedder, normalise } from "@/lib/memory/embedder";
import { prepareVectorStore } from "@/lib/memory/vector-store";
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

async function searchTimes(db: Database, agentId: string, queries: number): Promise<number[]> {
  const vectors = await prepareVectorStore(db, { name: "bench:random", dimensions: DIMENSIONS });
  const samples: number[] = [];
  for (let index = 0; index < queries + 10; index++) {
    const started = performance.now();
    await vectors.nearest({ table: "knowledge_chunks", where: sql`t."agentId" = ${agentId}`, vector: random(), k: 5 });
    if (index >= 10) samples.push(performance.now() - started);
  }
  return samples;
}

/** Top-5 search over `count` chunks: pgvector HNSW on the embedded database, and exact on this machine's PostgreSQL. */
export async function measureSemanticSearch(count: number, suffix = ""): Promise<BenchResult[]> {
  const embedded = await openDatabase({ engine: "pglite", dataDir: null });
  let hnsw: number[];
  try {
    hnsw = await searchTimes(embedded, await seedChunks(embedded, count), QUERIES);
  } finally {
    await embedded.close();
  }
  // The baseline is the exact search on a PostgreSQL without pgvector: the ratio is what the index saves.
  const exact = await exactOnPostgres(count);
  const exactP50 = exact ? percentile(exact, 50) : null;
  return [
    result(`memory.semantic_search_p50_ms${suffix}`, "ms", percentile(hnsw, 50), exactP50),
    result(`memory.semantic_search_p99_ms${suffix}`, "ms", percentile(hnsw, 99), exact ? percentile(exact, 99) : null),
    ...(exact ? [result(`memory.semantic_search_exact_p50_ms${suffix}`, "ms", percentile(exact, 50), percentile(hnsw, 50))] : []),
  ];
}

/** The same search on a PostgreSQL without pgvector (skipped when none is reachable). */
async function exactOnPostgres(count: number): Promise<number[] | null> {
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
    return await searchTimes(db, await seedChunks(db, count), 10);
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** Chunks per second through the whole ingestion (chunk, embed with the offline model, index). */
export async function measureIngestion(): Promise<BenchResult> {
  const db = await openDatabase({ engine: "pglite", dataDir: null });
  const embedder = createLocalEmbedder();
  try {
    const { project } = await createProjectWithChannel(db.prisma);
    const agent = await db.prisma.agent.create({ data: { projectId: project.id, handle: "reader", displayName: "Reader", color: "#123456", systemPrompt: "x", model: "offline" } });
    await prepareVectorStore(db, embedder);
    await embedder.embed(["warm up the model"]);
    const text = Array.from({ length: 300 }, (_, index) => `Section ${index}. ${"Our policies describe how the team plans releases, reviews code and supports customers. ".repeat(4)}`).join("\n\n");
    let ready!: () => void;
    const indexed = new Promise<void>((resolve) => (ready = resolve));
    const worker = startKnowledgeWorker({ prisma: db.prisma, embedder, onProgress: (summary) => summary.status === "ready" && ready() }, { pollMs: 60_000 });
    const started = performance.now();
    const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId: agent.id, name: "policies.md", mediaType: "text/markdown", bytes: text.length, text } });
    worker.wake();
    await indexed;
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();
    const chunks = await db.prisma.knowledgeChunk.count({ where: { documentId: document.id } });
    return result("memory.ingest_chunks_per_s", "chunks/s", chunks / seconds, null);
  } finally {
    await embedder.close();
    await db.close();
  }
}
