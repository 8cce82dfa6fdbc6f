import type { Prisma, Transaction } from "@/lib/db/open-database";
import { raw, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { updateHeldJob, type JobTable } from "@/lib/jobs/job-table";
import { whileHeld, type Lease } from "@/lib/jobs/lease";
import { startLeasedWorker, type ClaimedJob, type LeasedWorker } from "@/lib/jobs/leased-worker";
import { log } from "@/lib/log/logger";
import { EmbeddingError, type Embedder } from "@/lib/memory/embedder";
import { refreshStatistics } from "@/lib/memory/vector-store";
import { chunkText } from "./chunk-text";
import { toDocumentSummary, type DocumentSummary } from "./document-summary";
import { insertChunks } from "./insert-chunks";

/** Texts per embed call when the embedder does not say (Embedder.batchFor); also the most chunks one write holds. */
const DEFAULT_STEP = 32;

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
 *
 * Each step's chunks are written as soon as they are embedded, in a transaction of their own that
 * holds the document's row (this attempt, still processing) while it writes them and the
 * progress: no transaction grows with the document, and the next step is embedded meanwhile.
 * Searches see only ready documents, so these chunks stay invisible until the end, when one short
 * transaction makes the document ready and removes the version it replaces (same agent and name):
 * searches see the old version or the new one, never half of either. A retry first removes what
 * an earlier attempt wrote. A document deleted meanwhile leaves nothing behind (its chunks go with
 * it); a stalled node's late writes are refused by the attempt they carry.
 */
export async function ingestDocument(deps: IngestionDeps, document: ClaimedDocument, lease: Lease): Promise<void> {
  const { prisma, embedder } = deps;
  const { onProgress } = whileHeld(deps, lease);
  const chunks = chunkText(document.text);
  await report(prisma, onProgress, document.id);
  if (!(await startOver(prisma, document))) return lease.lose("deleted, or taken over by another attempt");
  const steps = stepsOf(embedder, chunks);
  const ahead = embedAhead(embedder, steps, lease.signal);
  try {
    let written = 0;
    for (const step of steps) {
      // Lease lost or node stopping: the worker gives the document back (or another node has it).
      if (lease.signal.aborted) return;
      const vectors = await ahead.next();
      if (lease.signal.aborted) return;
      lease.assertHeld();
      const kept = await prisma.$transaction(async (tx) => {
        if (!(await holdDocument(tx, document, "FOR SHARE"))) return false;
        await insertChunks(tx, { documentId: document.id, agentId: document.agentId, chunks: step, vectors, firstOrdinal: written });
        return updateHeldJob(tx, documentTable, lease, sql`"progress" = ${(written + step.length) / chunks.length}`);
      });
      if (!kept) return lease.lose("deleted, or taken over by another attempt");
      written += step.length;
      await report(prisma, onProgress, document.id);
    }
  } finally {
    ahead.stop();
  }
  lease.assertHeld();
  const ready = await prisma.$transaction(async (tx) => {
    if (!(await holdDocument(tx, document, "FOR UPDATE"))) return false;
    await tx.knowledgeDocument.deleteMany({ where: { agentId: document.agentId, name: document.name, id: { not: document.id }, status: { in: ["ready", "failed"] } } });
    await tx.knowledgeDocument.update({ where: { id: document.id }, data: { status: "ready", progress: 1, chunkCount: chunks.length, text: null, leaseUntil: null, leasedBy: null, error: null } });
    return true;
  });
  if (!ready) return lease.lose("deleted, or taken over by another attempt");
  await refreshStatistics(prisma, ["knowledge_chunks"]);
  await report(prisma, onProgress, document.id);
}

/**
 * The document's row, locked, while this attempt still has it processing. FOR SHARE for a step's
 * write: a new claim (which moves the attempt) waits for the write to commit, then the write of
 * the old attempt finds nothing; FOR UPDATE for the switch to ready.
 */
async function holdDocument(tx: Transaction, document: ClaimedDocument, lock: "FOR SHARE" | "FOR UPDATE"): Promise<boolean> {
  const held = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "knowledge_documents" WHERE "id" = ${document.id} AND "attempt" = ${document.attempt} AND "status" = 'processing' ${raw(lock)}`;
  return held.length > 0;
}

/** What an earlier attempt wrote of this document, removed while this attempt holds it; false when it does not. */
async function startOver(prisma: Prisma, document: ClaimedDocument): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    if (!(await holdDocument(tx, document, "FOR UPDATE"))) return false;
    await tx.knowledgeChunk.deleteMany({ where: { documentId: document.id } });
    return true;
  });
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
