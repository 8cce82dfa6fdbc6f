import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/db/open-database";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { updateHeldJob, type JobTable } from "@/lib/jobs/job-table";
import { whileHeld, type Lease } from "@/lib/jobs/lease";
import { startLeasedWorker, type ClaimedJob, type LeasedWorker } from "@/lib/jobs/leased-worker";
import { log } from "@/lib/log/logger";
import { EmbeddingError, type Embedder } from "@/lib/memory/embedder";
import { refreshStatistics } from "@/lib/memory/vector-store";
import { chunkText } from "./chunk-text";
import { toDocumentSummary, type DocumentSummary } from "./document-summary";

const EMBED_BATCH = 32;

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

async function report(prisma: Prisma, onProgress: IngestionDeps["onProgress"], id: string): Promise<void> {
  const row = await prisma.knowledgeDocument.findUnique({ where: { id } });
  if (row) onProgress(toDocumentSummary(row));
}

/**
 * Chunks, embeds (in batches, reporting progress) and indexes one document, under its lease.
 * The chunks are written in the same transaction that marks it ready and removes the document
 * it replaces (same agent and name), only while this attempt holds it: searches see the old
 * version or the new one, never half of either, and each chunk once. A document deleted
 * meanwhile leaves nothing behind; a stalled node's late writes are refused.
 */
export async function ingestDocument(deps: IngestionDeps, document: ClaimedDocument, lease: Lease): Promise<void> {
  const { prisma, embedder } = deps;
  const { onProgress } = whileHeld(deps, lease);
  const progress = (value: number) => updateHeldJob(prisma, documentTable, lease, sql`"progress" = ${value}`);
  await report(prisma, onProgress, document.id);
  const chunks = chunkText(document.text);
  const vectors: number[][] = [];
  for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
    // Lease lost or node stopping: the worker gives the document back (or another node has it).
    if (lease.signal.aborted) return;
    vectors.push(...(await embedder.embed(chunks.slice(start, start + EMBED_BATCH))));
    if (!(await progress(vectors.length / chunks.length))) return lease.lose("deleted, or taken over by another attempt");
    await report(prisma, onProgress, document.id);
  }
  lease.assertHeld();
  const indexed = await prisma.$transaction(async (tx) => {
    const held = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "knowledge_documents" WHERE "id" = ${document.id} AND "attempt" = ${document.attempt} AND "status" = 'processing' FOR UPDATE`;
    if (held.length === 0) return false;
    await tx.knowledgeDocument.deleteMany({ where: { agentId: document.agentId, name: document.name, id: { not: document.id }, status: { in: ["ready", "failed"] } } });
    await tx.knowledgeChunk.createMany({
      data: chunks.map((content, ordinal) => ({ id: randomUUID(), documentId: document.id, agentId: document.agentId, ordinal, content, embedding: vectors[ordinal]! })),
    });
    await tx.knowledgeDocument.update({ where: { id: document.id }, data: { status: "ready", progress: 1, chunkCount: chunks.length, text: null, leaseUntil: null, leasedBy: null, error: null } });
    return true;
  });
  if (!indexed) return lease.lose("deleted, or taken over by another attempt");
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
