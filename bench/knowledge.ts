import { randomUUID } from "node:crypto";
import type { Database } from "@/lib/db/open-database";
import { chunkText } from "@/lib/knowledge/chunk-text";
import { createLocalEmbedder, normalise, type Embedder } from "@/lib/memory/embedder";
import { createMemoryStores } from "@/lib/memory/memory-stores";
import type { MemoryQuery } from "@/lib/memory/retrieve-memory";
import { prepareVectorStore } from "@/lib/memory/vector-store";
import { createOfflineAgent } from "@/test/support/fixtures";
import { generateManual, generateQuestions, type Question } from "./knowledge-corpus";
import { percentile, result, type BenchResult } from "./measure";
import { ingestDocument } from "./memory-search";
import { ENGINES, onFreshDatabase, type Engine } from "./search";

const MANUAL_BYTES = 5_000_000;
const CORPUS_CHUNKS = 2_000;
const QUESTIONS_PER_KIND = 200;
const LATENCY_CHUNKS = 20_000;
const TOP_K = 5;
const WARMUP = 20;
const TARGET_CHUNKS_PER_S = 100;
const TARGET_IDENTIFIER_RECALL = 0.95;
const TARGET_HYBRID_P99_MS = 30;

/**
 * Issue 25's knowledge figures, side by side in one run:
 * - ingestion of a generated ~5 MB manual (bench/knowledge-corpus.ts) with the offline embedder,
 *   through the knowledge worker, on the embedded database and on this machine's PostgreSQL
 *   (chunks/s; issue 22 asks for 100);
 * - recall@5 of vector-only and hybrid retrieval over 2,000 chunks of the manual for 200
 *   questions naming an exact identifier and 200 sharing only ordinary words with their chunk,
 *   on both databases (the real stores: HNSW on the embedded one, exact search on PostgreSQL);
 * - a hybrid search's p50 and p99 over 20,000 chunks on the embedded database (the question's
 *   embedding given, as it is computed once for all of a turn's searches), against vector-only.
 */
export async function measureKnowledge(): Promise<BenchResult[]> {
  const embedder = createLocalEmbedder();
  try {
    const results: BenchResult[] = [];
    results.push(...(await measureIngestion(embedder)));
    const manual = generateManual(CORPUS_CHUNKS);
    const questions = generateQuestions(manual, QUESTIONS_PER_KIND);
    checkIdentifiersUnique(manual.map((section) => section.text), questions);
    const chunkVectors = await embedAll(embedder, manual.map((section) => section.text));
    const questionVectors = await embedAll(embedder, questions.map((question) => question.text));
    for (const engine of ENGINES) {
      results.push(...(await onFreshDatabase(engine, (db) => measureRecall(db, engine, embedder, manual.map((section) => section.text), chunkVectors, questions, questionVectors))));
    }
    results.push(...(await onFreshDatabase("pglite", (db) => measureLatency(db, embedder, questions, questionVectors))));
    return results;
  } finally {
    await embedder.close();
  }
}

async function measureIngestion(embedder: Embedder): Promise<BenchResult[]> {
  const sections = generateManual(Math.ceil(MANUAL_BYTES / 900), 1);
  const text = sections.map((section) => section.text).join("\n\n");
  const expected = chunkText(text).length;
  const rates = new Map<Engine, number>();
  for (const engine of ENGINES) {
    const { chunks, seconds } = await onFreshDatabase(engine, (db) => ingestDocument(db, embedder, text));
    // Both did the same work: the whole manual, every chunk.
    if (chunks !== expected) throw new Error(`${engine} ingested ${chunks} chunks of the manual's ${expected}: its rate would mean nothing`);
    console.log(`knowledge (${engine}): ${(text.length / 1e6).toFixed(1)} MB, ${chunks} chunks ingested in ${seconds.toFixed(1)} s`);
    rates.set(engine, chunks / seconds);
  }
  return ENGINES.map((engine) => result(`knowledge.ingest_5mb_chunks_per_s.${engine}`, "chunks/s", rates.get(engine)!, null, { valueAtLeast: TARGET_CHUNKS_PER_S }));
}

/** An identifier question must have one answer: its code, model or person in one chunk only. */
function checkIdentifiersUnique(chunks: string[], questions: Question[]): void {
  for (const { identifier, text } of questions.filter(({ kind }) => kind === "identifier")) {
    // "E-1234" must not count "E-12345": the identifier followed by no digit.
    const named = new RegExp(`${identifier}(?!\\d)`);
    const holders = chunks.filter((chunk) => named.test(chunk)).length;
    if (holders !== 1) throw new Error(`"${text}": its identifier is in ${holders} chunks, not one`);
  }
}

async function embedAll(embedder: Embedder, texts: string[]): Promise<number[][]> {
  const vectors: number[][] = [];
  for (let start = 0; start < texts.length; start += 64) vectors.push(...(await embedder.embed(texts.slice(start, start + 64))));
  return vectors;
}

/** An agent with these chunks in one ready document, and its stores as a turn uses them (statistics refreshed, as after an ingestion). */
async function agentWithChunks(db: Database, embedder: Embedder, chunks: string[], vectors: (index: number) => number[]) {
  const { id: agentId } = await createOfflineAgent(db.prisma, "manuals");
  const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId, name: "manual.md", mediaType: "text/markdown", bytes: 1, status: "ready" } });
  const ids = chunks.map(() => randomUUID());
  for (let start = 0; start < chunks.length; start += 1_000) {
    await db.prisma.knowledgeChunk.createMany({
      data: chunks.slice(start, start + 1_000).map((content, offset) => ({ id: ids[start + offset]!, documentId: document.id, agentId, ordinal: start + offset, content, embedding: vectors(start + offset) })),
    });
  }
  // Start-up's choice of search and statistics, as a node would have them.
  const vectorsStore = await prepareVectorStore(db, embedder);
  const stores = createMemoryStores({ prisma: db.prisma, vectors: vectorsStore, embedder });
  const search = (text: string, vector: number[], knowledgeRetrieval: MemoryQuery["knowledgeRetrieval"]) =>
    stores.semantic({
      agentId, userId: null, conversationId: "bench", text, semanticTopK: TOP_K, knowledgeRetrieval, episodicTopK: 0, procedureThreshold: 1,
      presence: { knowledge: true, episodes: false, procedures: [] },
      embedding: async () => vector,
    });
  return { ids, search, mode: vectorsStore.mode };
}

async function measureRecall(db: Database, engine: Engine, embedder: Embedder, chunks: string[], chunkVectors: number[][], questions: Question[], questionVectors: number[][]): Promise<BenchResult[]> {
  const { ids, search, mode } = await agentWithChunks(db, embedder, chunks, (index) => chunkVectors[index]!);
  const hits = { vector: { identifier: 0, ordinary: 0 }, hybrid: { identifier: 0, ordinary: 0 } };
  for (const [index, question] of questions.entries()) {
    for (const retrieval of ["vector", "hybrid"] as const) {
      const found = await search(question.text, questionVectors[index]!, retrieval);
      // Both modes answered every question in full.
      if (found.length !== TOP_K) throw new Error(`${retrieval} search found ${found.length} chunks for "${question.text}", not ${TOP_K}`);
      if (found.some((chunk) => chunk.id === ids[question.section])) hits[retrieval][question.kind] += 1;
    }
  }
  const recall = (retrieval: "vector" | "hybrid", kind: Question["kind"]) => hits[retrieval][kind] / QUESTIONS_PER_KIND;
  console.log(`knowledge (${engine}, ${mode} vector search): recall@${TOP_K}`, JSON.stringify(hits));
  return [
    result(`knowledge.recall_at_5_identifiers.hybrid.${engine}`, "recall", recall("hybrid", "identifier"), recall("vector", "identifier"), { valueAtLeast: TARGET_IDENTIFIER_RECALL }),
    result(`knowledge.recall_at_5_ordinary.hybrid.${engine}`, "recall", recall("hybrid", "ordinary"), recall("vector", "ordinary"), { ratioAtLeast: 1 }),
  ];
}

async function measureLatency(db: Database, embedder: Embedder, questions: Question[], questionVectors: number[][]): Promise<BenchResult[]> {
  // The manual's text at 20,000 chunks; random unit vectors (what the HNSW search costs does not depend on them).
  const chunks = generateManual(LATENCY_CHUNKS, 20).map((section) => section.text);
  const { search } = await agentWithChunks(db, embedder, chunks, () => normalise(Array.from({ length: embedder.dimensions }, () => Math.random() - 0.5)));
  const timesOf = async (retrieval: MemoryQuery["knowledgeRetrieval"]) => {
    const samples: number[] = [];
    for (let round = 0; round < WARMUP + questions.length; round++) {
      const index = round % questions.length;
      const started = performance.now();
      const found = await search(questions[index]!.text, questionVectors[index]!, retrieval);
      if (round >= WARMUP) samples.push(performance.now() - started);
      // Both did the whole search: five chunks, and hybrid's text ranking found the identifiers.
      if (found.length !== TOP_K) throw new Error(`${retrieval} search found ${found.length} chunks, not ${TOP_K}`);
      if (retrieval === "hybrid" && questions[index]!.kind === "identifier" && !found.some((chunk) => chunk.textRank !== null)) throw new Error(`hybrid search ranked nothing by text for "${questions[index]!.text}"`);
    }
    return samples;
  };
  const vector = await timesOf("vector");
  const hybrid = await timesOf("hybrid");
  return [
    result("knowledge.hybrid_search_p50_ms_20k.pglite", "ms", percentile(hybrid, 50), percentile(vector, 50)),
    result("knowledge.hybrid_search_p99_ms_20k.pglite", "ms", percentile(hybrid, 99), percentile(vector, 99), { valueAtMost: TARGET_HYBRID_P99_MS }),
  ];
}
