import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import type { Embedder } from "@/lib/memory/embedder";
import { refreshStatistics } from "@/lib/memory/vector-store";
import { chunkText } from "./chunk-text";
import { toDocumentSummary, type DocumentSummary } from "./document-summary";

const EMBED_BATCH = 32;
const LEASE_MS = 60_000;

export interface IngestionDeps {
  prisma: Prisma;
  embedder: Embedder;
  /** Progress for the admins watching the agent's knowledge page. */
  onProgress(document: DocumentSummary): void;
}

interface Claimed {
  id: string;
  agentId: string;
  name: string;
  text: string;
}

/**
 * Takes the oldest queued document (or one whose worker died mid-way), leased to this node.
 * SKIP LOCKED lets every node ingest in parallel without taking the same file.
 */
async function claimDocument(prisma: Prisma): Promise<Claimed | null> {
  const [claimed] = await prisma.$queryRaw<Claimed[]>`
    UPDATE "knowledge_documents" SET "status" = 'processing', "progress" = 0, "leaseUntil" = now() + ${LEASE_MS} * interval '1 millisecond', "updatedAt" = now()
    WHERE "id" = (
      SELECT "id" FROM "knowledge_documents"
      WHERE ("status" = 'queued' OR ("status" = 'processing' AND "leaseUntil" < now())) AND "text" IS NOT NULL
      ORDER BY "createdAt" LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING "id", "agentId", "name", "text"`;
  return claimed ?? null;
}

async function report(deps: IngestionDeps, id: string): Promise<boolean> {
  const row = await deps.prisma.knowledgeDocument.findUnique({ where: { id } });
  if (row) deps.onProgress(toDocumentSummary(row));
  return row !== null;
}

/**
 * Chunks, embeds (in batches, reporting progress) and indexes one document. The chunks are
 * written in the same transaction that marks it ready and removes the document it replaces (same
 * agent and name), so searches see the old version or the new one, never half of either; a
 * document deleted meanwhile leaves nothing behind.
 */
export async function ingestDocument(deps: IngestionDeps, document: Claimed, stopping: () => boolean = () => false): Promise<void> {
  const { prisma, embedder } = deps;
  try {
    const chunks = chunkText(document.text);
    const vectors: number[][] = [];
    for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
      if (stopping()) {
        // This node is shutting down: the document goes back to the queue for another node.
        await prisma.knowledgeDocument.updateMany({ where: { id: document.id, status: "processing" }, data: { status: "queued", progress: 0, leaseUntil: null } });
        return;
      }
      vectors.push(...(await embedder.embed(chunks.slice(start, start + EMBED_BATCH))));
      const { count } = await prisma.knowledgeDocument.updateMany({
        where: { id: document.id, status: "processing" },
        data: { progress: vectors.length / chunks.length, leaseUntil: new Date(Date.now() + LEASE_MS) },
      });
      if (count === 0) return; // deleted while being ingested
      await report(deps, document.id);
    }
    const indexed = await prisma.$transaction(async (tx) => {
      const still = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "knowledge_documents" WHERE "id" = ${document.id} AND "status" = 'processing' FOR UPDATE`;
      if (still.length === 0) return false;
      await tx.knowledgeDocument.deleteMany({ where: { agentId: document.agentId, name: document.name, id: { not: document.id }, status: { in: ["ready", "failed"] } } });
      await tx.knowledgeChunk.createMany({
        data: chunks.map((content, ordinal) => ({ id: randomUUID(), documentId: document.id, agentId: document.agentId, ordinal, content, embedding: vectors[ordinal]! })),
      });
      await tx.knowledgeDocument.update({ where: { id: document.id }, data: { status: "ready", progress: 1, chunkCount: chunks.length, text: null, leaseUntil: null } });
      return true;
    });
    if (indexed) {
      await refreshStatistics(prisma, ["knowledge_chunks"]);
      await report(deps, document.id);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log.warn("knowledge document failed", { documentId: document.id, reason });
    await prisma.knowledgeDocument.updateMany({ where: { id: document.id }, data: { status: "failed", error: reason, text: null, leaseUntil: null } });
    await report(deps, document.id);
  }
}

export interface KnowledgeWorker {
  wake(): void;
  stop(): Promise<void>;
}

/** Ingests queued documents one at a time, woken by uploads and polling for other nodes' and crashed work. */
export function startKnowledgeWorker(deps: IngestionDeps, { pollMs = 2_000 }: { pollMs?: number } = {}): KnowledgeWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const drain = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          for (let document = await claimDocument(deps.prisma); document && !stopped; document = await claimDocument(deps.prisma)) {
            await report(deps, document.id);
            await ingestDocument(deps, document, () => stopped);
          }
        } while (again && !stopped);
      } catch (error) {
        log.error("knowledge ingestion failed", { error });
      } finally {
        running = null;
      }
    })();
  };
  const poll = setInterval(drain, pollMs);
  poll.unref();
  drain();
  return {
    wake: drain,
    async stop() {
      stopped = true;
      clearInterval(poll);
      await running;
    },
  };
}
