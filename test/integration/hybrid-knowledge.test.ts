import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/open-database";
import { normalise } from "@/lib/memory/embedder";
import { CANDIDATES, RRF_K } from "@/lib/memory/knowledge-search";
import { createMemoryStores } from "@/lib/memory/memory-stores";
import type { MemoryQuery } from "@/lib/memory/retrieve-memory";
import { refreshStatistics, vectorStore, type VectorStore } from "@/lib/memory/vector-store";
import { createOfflineAgent } from "../support/fixtures";
import { createTestDatabase } from "../support/test-database";

const DIMENSIONS = 8;
const axis = (index: number) => Array.from({ length: DIMENSIONS }, (_, at) => (at === index ? 1 : 0));
/** The question's direction: the fillers lie closer and closer to it, the chunks naming codes across it. */
const QUESTION = axis(0);
const filler = (rank: number) => normalise([Math.cos(rank / 60), Math.sin(rank / 60), 0, 0, 0, 0, 0, 0]);
const FILLERS = 35;

/**
 * Hybrid retrieval over the real database (the embedded one, or PostgreSQL without pgvector): the
 * full-text ranking of the migration's column and function fused with the vector ranking, against
 * vector retrieval alone. Vectors are made by hand, so the vector ranking is known.
 */
describe("hybrid knowledge retrieval", () => {
  let db: Database;
  let vectors: VectorStore;
  let agentId: string;
  const chunkIds = new Map<string, string>();

  /** A ready (or other status) document of these chunks, each with its vector. */
  const addDocument = async (agent: string, chunks: [string, number[]][], status: "ready" | "processing" = "ready") => {
    const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId: agent, name: `manual-${chunkIds.size}.md`, mediaType: "text/markdown", bytes: 1, status } });
    const rows = chunks.map(([content, embedding], ordinal) => ({ id: randomUUID(), documentId: document.id, agentId: agent, ordinal, content, embedding }));
    await db.prisma.knowledgeChunk.createMany({ data: rows });
    for (const row of rows) chunkIds.set(row.content, row.id);
  };
  const search = (text: string, knowledgeRetrieval: MemoryQuery["knowledgeRetrieval"], agent = agentId) =>
    createMemoryStores({ prisma: db.prisma, vectors, embedder: { name: "hand", dimensions: DIMENSIONS } as never }).semantic({
      agentId: agent, userId: null, conversationId: "none", text, semanticTopK: 5, knowledgeRetrieval, episodicTopK: 0, procedureThreshold: 1,
      presence: { knowledge: true, episodes: false, procedures: [] },
      embedding: async () => QUESTION,
    });
  const IDENTIFIED = "Error E-4471 means the pressure sensor lost power: reset the controller.";
  const NEIGHBOUR = "Error E-4472 means the valve is stuck: call the service desk.";

  beforeAll(async () => {
    db = await createTestDatabase();
    // pgvector on the embedded database (no index for 8 dimensions: a scan, the same ranking), exact search on PostgreSQL.
    vectors = vectorStore(db, db.engine === "pglite" ? "pgvector" : "exact", DIMENSIONS);
    ({ id: agentId } = await createOfflineAgent(db.prisma, "manuals"));
    await addDocument(agentId, [
      ...Array.from({ length: FILLERS }, (_, rank): [string, number[]] => [`Section ${rank}: the cooling fan runs quietly through the night shift.`, filler(rank)]),
      [IDENTIFIED, axis(2)],
      [NEIGHBOUR, axis(3)],
    ]);
    // The same code in another agent's knowledge, and in a document still being indexed: never found.
    const { id: otherAgent } = await createOfflineAgent(db.prisma, "others");
    await addDocument(otherAgent, [["Error E-4471 is also in another agent's notes.", QUESTION]]);
    await addDocument(agentId, [["Error E-4471 in a document not yet ready.", QUESTION]], "processing");
  });
  afterAll(() => db.close());

  it("finds first, by its exact code, the chunk the vector ranking puts last", async () => {
    const vectorOnly = await search("What does error E-4471 mean?", "vector");
    expect(vectorOnly.map((chunk) => chunk.content)).toEqual(Array.from({ length: 5 }, (_, rank) => `Section ${rank}: the cooling fan runs quietly through the night shift.`));

    const hybrid = await search("What does error E-4471 mean?", "hybrid");
    // 37 chunks by vector: the code's 36th or 37th (cosine 0, as E-4472's), found first by text.
    expect(hybrid[0]).toMatchObject({ id: chunkIds.get(IDENTIFIED), textRank: 1, vectorRank: expect.any(Number) });
    expect(hybrid[0]!.vectorRank).toBeGreaterThan(FILLERS);
    expect(hybrid[0]!.score).toBeCloseTo(1 / (RRF_K + 1) + 1 / (RRF_K + hybrid[0]!.vectorRank!), 12);
    // E-4472 shares "error" and "means", not the code: one chunk holds every word, so text lists only that one.
    expect(hybrid.filter((chunk) => chunk.textRank !== null).map((chunk) => chunk.id)).toEqual([chunkIds.get(IDENTIFIED)]);
    // The rest is the vector ranking, each with no text rank, scored 1/(k + its rank).
    const rest = hybrid.filter((chunk) => chunk.textRank === null);
    expect(rest.map((chunk) => chunk.content)).toEqual(vectorOnly.slice(0, rest.length).map((chunk) => chunk.content));
    for (const chunk of rest) expect(chunk.score).toBeCloseTo(1 / (RRF_K + chunk.vectorRank!), 12);
  });

  it("when no chunk holds every word of the question, ranks by text the chunks holding any of them", async () => {
    const hybrid = await search("Is it error E-4471 or E-4472?", "hybrid");
    const byText = hybrid.filter((chunk) => chunk.textRank !== null).sort((a, b) => a.textRank! - b.textRank!);
    expect(new Set(byText.map((chunk) => chunk.id))).toEqual(new Set([chunkIds.get(IDENTIFIED), chunkIds.get(NEIGHBOUR)]));
    expect(byText.map((chunk) => chunk.textRank)).toEqual([1, 2]);
  });

  it("in vector mode returns the vector ranking only: cosine scores, vector ranks, no text rank", async () => {
    const found = await search("error E-4471", "vector");
    expect(found.map((chunk) => chunk.vectorRank)).toEqual([1, 2, 3, 4, 5]);
    expect(found.every((chunk) => chunk.textRank === undefined)).toBe(true);
    expect(found[0]!.score).toBeCloseTo(1, 6);
    expect(found.map((chunk) => chunk.score)).toEqual([...found.map((chunk) => chunk.score)].sort((a, b) => b - a));
  });

  it("searches by vector alone for a question of stop words or punctuation, never failing", async () => {
    const vectorOnly = (await search("x", "vector")).map((chunk) => chunk.id);
    for (const question of ["What is the of and to it?", "?!… -- ;;", "", "'\"()&|!<->:*"]) {
      const found = await search(question, "hybrid");
      expect(found.map((chunk) => chunk.id), question).toEqual(vectorOnly);
      expect(found.every((chunk) => chunk.textRank === null)).toBe(true);
    }
  });

  it("cuts a 10,000-character question to its first 1,000 characters", async () => {
    const padding = "please tell me everything you know about this ".repeat(220);
    expect(padding.length).toBeGreaterThan(10_000);
    // Named first: found by text.
    expect((await search(`E-4471 ${padding}`, "hybrid"))[0]).toMatchObject({ id: chunkIds.get(IDENTIFIED), textRank: 1 });
    // Named after the cut: the text query never sees it.
    const late = await search(`${padding} E-4471`, "hybrid");
    expect(late.some((chunk) => chunk.id === chunkIds.get(IDENTIFIED))).toBe(false);
  });

  it("leaves out words most chunks hold, once the statistics know them", async () => {
    const { id: pumps } = await createOfflineAgent(db.prisma, "pumps");
    await addDocument(pumps, [
      ...Array.from({ length: 80 }, (_, rank): [string, number[]] => [`Pump ${rank} keeps the pump pressure steady.`, filler(rank)]),
      ["The pump reports code ZX-9000 when its seal wears out.", axis(4)],
    ]);
    await refreshStatistics(db.prisma, ["knowledge_chunks"]);
    // "pump" is in 81 of the table's 120 chunks: no text ranking; the code still ranks by text.
    expect((await search("pump", "hybrid", pumps)).every((chunk) => chunk.textRank === null)).toBe(true);
    const found = await search("Which pump shows ZX-9000?", "hybrid", pumps);
    expect(found[0]).toMatchObject({ content: "The pump reports code ZX-9000 when its seal wears out.", textRank: 1 });
    expect(found.filter((chunk) => chunk.textRank !== null)).toHaveLength(1);
  });

  // Assumed to return 1,000 rows (CREATE OR REPLACE FUNCTION without ROWS sets that again), the
  // text ranking read every chunk of the table into a hash to join the ids it found.
  it("plans the text search as returning its depth, so the chunks it finds are looked up by id", async () => {
    const [declared] = await db.prisma.$queryRaw<{ rows: number }[]>`SELECT "prorows"::float8 AS "rows" FROM "pg_proc" WHERE "proname" = 'chorus_knowledge_text_search'`;
    expect(declared?.rows).toBe(CANDIDATES);
  });

  it("refuses an unknown retrieval mode in the database", async () => {
    await expect(db.prisma.agent.update({ where: { id: agentId }, data: { contextSettings: { knowledgeRetrieval: "bm25" } } })).rejects.toThrow();
    await db.prisma.agent.update({ where: { id: agentId }, data: { contextSettings: { knowledgeRetrieval: "vector" } } });
  });
});
