import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/open-database";
import { startKnowledgeWorker } from "@/lib/knowledge/ingest-documents";
import { EmbeddingError, type Embedder } from "@/lib/memory/embedder";
import { createOfflineAgent } from "../support/fixtures";
import { createTestDatabase } from "../support/test-database";
import { until } from "../support/until";

/** A document whose indexing keeps failing ends failed, with a reason an admin can act on, after its retries. */
describe("ingestion failures", () => {
  let db: Database;
  let agentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    agentId = (await createOfflineAgent(db.prisma)).id;
  });
  afterAll(() => db.close());

  const ingestWith = async (error: Error) => {
    let calls = 0;
    const embedder: Embedder = {
      name: "test:failing",
      dimensions: 8,
      embed: async () => {
        calls += 1;
        throw error;
      },
      close: async () => undefined,
    };
    const worker = startKnowledgeWorker({ prisma: db.prisma, embedder, onProgress: () => undefined }, { pollMs: 100 });
    const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId, name: `notes-${randomUUID()}.md`, mediaType: "text/markdown", bytes: 20, text: "Releases are on Fridays." } });
    try {
      await until(async () => (await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: document.id } })).status === "failed", "the document to be given up", 20_000);
    } finally {
      await worker.stop();
    }
    return { document: await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: document.id } }), calls };
  };

  it("an internal error is retried, then stored as a reason with a reference, never the database's own words", async () => {
    const { document, calls } = await ingestWith(new Error('relation "knowledge_chunks" does not exist'));
    expect(calls).toBe(3);
    expect(document).toMatchObject({ status: "failed", failures: 2, text: null, leaseUntil: null });
    expect(document.error).toMatch(/^Indexing failed because of a server error \(reference [0-9a-f]{8} in the server log\)\. Upload the file again/);
    expect(document.error).not.toContain("relation");
    expect(await db.prisma.knowledgeChunk.count({ where: { documentId: document.id } })).toBe(0);
  }, 30_000);

  it("an embedding service failure says so, and what to check", async () => {
    const { document } = await ingestWith(new EmbeddingError("The embeddings endpoint failed: 401 invalid key."));
    expect(document.error).toBe("The embeddings endpoint failed: 401 invalid key. Indexing was tried several times; check the embedding settings, then upload the file again.");
  }, 30_000);
});
