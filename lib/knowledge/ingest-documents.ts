import type { Prisma, Transaction } from "@/lib/db/open-database";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { updateHeldJob, type JobTable } from "@/lib/jobs/job-table";
import { whileHeld, type Lease } from "@/lib/jobs/lease";
import { startLeasedWorker, type ClaimedJob, type LeasedWorker } from "@/lib/jobs/leased-worker";
import { log } from "@/lib/log/logger";
import { EmbeddingError, type Embedder } from "@/lib/memory/embedder";
import { refreshStatistics } from "@/lib/memory/vector-store";
import { chunkText } from "./chunk-text";
import { toDocumentSummary, type DocumentSummary } from "./document-summary";
import { insertChunks } from "./insert-chunks";

/** Texts per embed call when the embedder does not say (Embedder.batchFor). */
const DEFAULT_STEP = 32;
/** About what writing a chunk costs on the embedded database (its row and pgvector's HNSW entry), on this 2-core machine. */
const WRITE_MS_PER_CHUNK = 7;

/**
 * Time allowed for the transaction that writes a document's chunks: pgvector's HNSW index makes
 * each row cost a few milliseconds on the embedded database, so a large document (2,000,000
 * characters is about 2,400 chunks) takes far longer than Prisma's default 5 s for a transaction.
 */
function writeTime(chunks: number): { maxWait: number; timeout: number } {
  return { maxWait: 10_000, timeout: 10_000 + chunks * 40 };
}

export interface IngestionDeps {
  prisma: Prisma;
  embedder: Embedder;
  /** Progress for the admins watching the agent's knowledge page. */
  onProgress(document: DocumentSummary): void;
}

export interface ClaimedDocument extends ClaimedJob {
  agentId: string;
  name: string;
  text: string;
}

/** A document to index is a leased job: queued → processing (leased) → ready, or failed with a reason. */
export const documentTable: JobTable = {
  name: "knowledge_documents",
  kind: "ingestion",
  waiting: sql`"status" = 'queued' AND "text" IS NOT NULL`,
  active: sql`"status" = 'processing'`,
  onClaim: sql`"status" = 'processing', "progress" = 0`,
  onRelease: sql`"status" = 'queued', "progress" = 0`,
  columns: sql`"id", "agentId", "name", "text", "attempt", "failures", "lastError"`,
};

async function report(prisma: Prisma | Transaction, onProgress: IngestionDeps["onProgress"], id: string): Promise<void> {
  const row = await prisma.knowledgeDocument.findUnique({ where: { id } });
  if (row) onProgress(toDocumentSummary(row));
}

/** A document's chunks in embed calls of the embedder's batch size. */
function stepsOf(embedder: Embedder, chunks: string[]): string[][] {
  const size = Math.max(1, embedder.batchFor?.(chunks.length) ?? DEFAULT_STEP);
  const steps: string[][] = [];
  for (let start = 0; start < chunks.length; start += size) steps.push(chunks.slice(start, start + size));
  return steps;
}

/**
 * The steps' vectors one step at a time, the next step already asked for while the caller works
 * on the last (writing progress or chunks), so the model never waits on the database. stop()
 * gives up what was asked for and not taken.
 */
function embedAhead(embedder: Embedder, steps: string[][], signal: AbortSignal) {
  const ask = (step: string[]) => {
    const vectors = embedder.embed(step);
    // It may fail while the last step is being written, before anyone awaits it: observed here,
    // its failure still reaches next().
    vectors.catch(() => undefined);
    return vectors;
  };
  let taken = 0;
  let pending: Promise<number[][]> | null = steps.length > 0 ? ask(steps[0]!) : null;
  const stop = () => {
    pending = null;
  };
  return {
    async next(): Promise<number[][]> {
      const current = pending;
      if (!current) throw new Error("no step left to embed");
      taken += 1;
      pending = taken < steps.length && !signal.aborted ? ask(steps[taken]!) : null;
      try {
        return await current;
      } catch (error) {
        stop();
        throw error;
      }
    },
    stop,
  };
}

/**
 * Chunks, embeds (in steps, reporting progress) and indexes one document, under its lease.
 * The chunks are written in the same transaction that marks it ready and removes the document
 * it replaces (same agent and name), only while this attempt holds it: searches see the old
 * version or the new one, never half of either, and each chunk once. A document deleted
 * meanwhile leaves nothing behind; a stalled node's late writes are refused.
 *
 * With a model on this machine (Embedder.local), that transaction starts as soon as writing
 * the chunks embedded so far should take about as long as embedding the rest (by the rate
 * measured so far): it writes them while the rest are embedded, then each further step as it
 * comes, so writing (pgvector's index costs a few milliseconds a row on the embedded database)
 * and embedding share the two cores. The transaction lasts about as long as writing all the
 * chunks did before; progress inside it reaches the admins' page as before, and the row when it
 * commits.
 */
export async function ingestDocument(deps: IngestionDeps, document: ClaimedDocument, lease: Lease): Promise<void> {
  const { prisma, embedder } = deps;
  const { onProgress } = whileHeld(deps, lease);
  const chunks = chunkText(document.text);
  const progress = (db: Prisma | Transaction, done: number) => updateHeldJob(db, documentTable, lease, sql`"progress" = ${done / chunks.length}`);
  await report(prisma, onProgress, document.id);
  const steps = stepsOf(embedder, chunks);
  const ahead = embedAhead(embedder, steps, lease.signal);
  try {
    const started = performance.now();
    const vectors: number[][] = [];
    let step = 0;
    while (step < steps.length) {
      // Lease lost or node stopping: the worker gives the document back (or another node has it).
      if (lease.signal.aborted) return;
      vectors.push(...(await ahead.next()));
      step += 1;
      if (!(await progress(prisma, vectors.length))) return lease.lose("deleted, or taken over by another attempt");
      await report(prisma, onProgress, document.id);
      // Writing what is embedded will take about as long as embedding the rest: start writing.
      const embedMsPerChunk = (performance.now() - started) / vectors.length;
      if (embedder.local && (chunks.length - vectors.length) * embedMsPerChunk <= vectors.length * WRITE_MS_PER_CHUNK) break;
    }
    if (lease.signal.aborted) return;
    lease.assertHeld();
    const indexed = await prisma.$transaction(async (tx) => {
      const held = await tx.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "knowledge_documents" WHERE "id" = ${document.id} AND "attempt" = ${document.attempt} AND "status" = 'processing' FOR UPDATE`;
      if (held.length === 0) return false;
      await tx.knowledgeDocument.deleteMany({ where: { agentId: document.agentId, name: document.name, id: { not: document.id }, status: { in: ["ready", "failed"] } } });
      await insertChunks(tx, { documentId: document.id, agentId: document.agentId, chunks: chunks.slice(0, vectors.length), vectors, firstOrdinal: 0 });
      for (; step < steps.length; step++) {
        const more = await ahead.next();
        // Rolled back: the worker gives the document back, or another attempt has it.
        if (lease.signal.aborted) throw new Error(`ingestion of ${document.id} stopped: ${String(lease.signal.reason)}`);
        await insertChunks(tx, { documentId: document.id, agentId: document.agentId, chunks: steps[step]!, vectors: more, firstOrdinal: vectors.length });
        vectors.push(...more);
        await progress(tx, vectors.length);
        await report(tx, onProgress, document.id);
      }
      await tx.knowledgeDocument.update({ where: { id: document.id }, data: { status: "ready", progress: 1, chunkCount: chunks.length, text: null, leaseUntil: null, leasedBy: null, error: null } });
      return true;
    }, writeTime(chunks.length));
    if (!indexed) return lease.lose("deleted, or taken over by another attempt");
  } finally {
    ahead.stop();
  }
  await refreshStatistics(prisma, ["knowledge_chunks"]);
  await report(prisma, onProgress, document.id);
}

/**
 * Why a document could not be indexed, in words an admin can act on: the embedding service's
 * own explanation, or, for anything internal, a reference to the server log (never the
 * database's message).
 */
export function ingestionFailureReason(documentId: string, error: unknown): string {
  if (error instanceof EmbeddingError) return `${error.message} Indexing was tried several times; check the embedding settings, then upload the file again.`;
  return `Indexing failed because of a server error (reference ${documentId.slice(0, 8)} in the server log). Upload the file again; if it keeps failing, tell your administrator.`;
}

/** Three tries, then the document is failed with the reason. */
async function giveUpDocument(deps: IngestionDeps, document: ClaimedDocument, lease: Lease, reason: unknown): Promise<void> {
  log.warn("knowledge document failed", { documentId: document.id, attempt: document.attempt, reason });
  const error = ingestionFailureReason(document.id, reason);
  if (await updateHeldJob(deps.prisma, documentTable, lease, sql`"status" = 'failed', "error" = ${error}, "text" = NULL, "leaseUntil" = NULL, "leasedBy" = NULL`)) {
    await report(deps.prisma, whileHeld(deps, lease).onProgress, document.id);
  }
}

export type KnowledgeWorker = LeasedWorker<ClaimedDocument>;

/** Ingests queued documents one at a time per node (lib/jobs), woken by uploads and polling for other nodes' and crashed work. */
export function startKnowledgeWorker(deps: IngestionDeps, { pollMs = 2_000, leaseMs = 60_000 }: { pollMs?: number; leaseMs?: number } = {}): KnowledgeWorker {
  return startLeasedWorker({
    prisma: deps.prisma,
    table: documentTable,
    run: (document, lease) => ingestDocument(deps, document, lease),
    giveUp: (document, lease, reason) => giveUpDocument(deps, document, lease, reason),
    leaseMs,
    pollMs,
    concurrency: 1,
    maxFailures: 3,
    backoff: { baseMs: 2_000, maxMs: 60_000 },
  });
}
