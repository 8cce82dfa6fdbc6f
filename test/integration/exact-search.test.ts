import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrator";
import type { Database, Prisma } from "@/lib/db/open-database";
import { raw, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { rankByCosine } from "@/lib/memory/exact-search";
import { vectorStore, type NearestQuery } from "@/lib/memory/vector-store";
import { createProjectWithChannel } from "../support/fixtures";
import { createTestDatabase } from "../support/test-database";
import { databaseBefore } from "../support/database-before";
import { cosine } from "../support/cosine";

const DIMENSIONS = 16;


async function createAgent(prisma: Prisma, projectId: string): Promise<{ agentId: string; documentId: string }> {
  // In SQL: the upgrade test runs before later migrations, whose columns Prisma's client would read back.
  const [agent] = await prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO "agents" ("id", "projectId", "handle", "displayName", "color", "systemPrompt", "model", "updatedAt")
    VALUES (${randomUUID()}, ${projectId}, ${`a${randomUUID().slice(0, 8)}`}, 'Vectors', '#000000', 'x', 'offline', now()) RETURNING "id"`;
  const document = await prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId: agent!.id, name: "random.txt", mediaType: "text/plain", bytes: 1, status: "ready" } });
  return { agentId: agent!.id, documentId: document.id };
}

/** A new agent with these chunks (and chunks of `otherVectors`, for other dimensions). */
async function storeChunks(prisma: Prisma, projectId: string, vectors: number[][], otherVectors: number[][] = []): Promise<{ agentId: string; ids: string[] }> {
  const { agentId, documentId } = await createAgent(prisma, projectId);
  const ids = vectors.map(() => randomUUID());
  await prisma.knowledgeChunk.createMany({
    data: [...vectors, ...otherVectors].map((embedding, ordinal) => ({ id: ids[ordinal] ?? randomUUID(), documentId, agentId, ordinal, content: `chunk ${ordinal}`, embedding })),
  });
  return { agentId, ids };
}

/**
 * Exact search without pgvector (the codes scan, then the few candidates ranked in SQL) against a
 * brute-force reference and against the full scan it replaces; on the embedded database the
 * exact store is built directly, on PostgreSQL it is what start-up chooses.
 */
describe("exact vector search", () => {
  let db: Database;
  let projectId: string;
  const exact = () => vectorStore(db, "exact", DIMENSIONS);
  const chunksOf = (agentId: string, vector: number[], k: number): NearestQuery => ({ table: "knowledge_chunks", where: sql`t."agentId" = ${agentId}`, vector, k });

  beforeAll(async () => {
    db = await createTestDatabase();
    projectId = (await createProjectWithChannel(db.prisma)).project.id;
  });
  afterAll(() => db.close());

  it("ranks random vectors as a brute-force reference does, with the full scan's scores, ties and other dimensions included", async () => {
    // Thousandths: zeros and equal components come up, as ties should.
    const component = fc.integer({ min: -1_000, max: 1_000 }).map((value) => value / 1_000);
    const vector = fc.array(component, { minLength: DIMENSIONS, maxLength: DIMENSIONS }).filter((values) => values.some((value) => value !== 0));
    await fc.assert(
      fc.asyncProperty(
        // Rows, some repeated or scaled (equal cosines: ties), and a query and k.
        fc.array(vector, { minLength: 1, maxLength: 80 }).chain((rows) => fc.tuple(fc.constant(rows), fc.array(fc.tuple(fc.nat(rows.length - 1), fc.integer({ min: 1, max: 100 }).map((value) => value / 10)), { maxLength: 20 }))),
        vector,
        fc.integer({ min: 1, max: 10 }),
        async ([distinct, copies], query, k) => {
          const vectors = [...distinct, ...copies.map(([index, scale]) => distinct[index]!.map((value) => value * scale))];
          // A row of another dimension belongs to no search of this one.
          const { agentId, ids } = await storeChunks(db.prisma, projectId, vectors, [Array.from({ length: 8 }, () => 1)]);

          const found = await exact().nearest(chunksOf(agentId, query, k));

          const truth = new Map(vectors.map((stored, index) => [ids[index]!, cosine(query, stored)]));
          const kth = [...truth.values()].sort((a, b) => b - a)[Math.min(k, vectors.length) - 1]!;
          expect(found).toHaveLength(Math.min(k, vectors.length));
          for (const [index, row] of found.entries()) {
            expect(truth.has(row.id)).toBe(true);
            expect(row.score).toBeCloseTo(truth.get(row.id)!, 9);
            expect(truth.get(row.id)!).toBeGreaterThanOrEqual(kth - 1e-9);
            if (index > 0) expect(row.score).toBeLessThanOrEqual(found[index - 1]!.score);
          }
          // The same scores as every row compared in SQL (the same rows, but for the order of exact ties).
          const full = await rankByCosine(db.prisma, DIMENSIONS, chunksOf(agentId, query, k));
          expect(found.map((row) => row.score)).toEqual(full.map((row) => row.score));
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);

  // 500 dimensions: no migration indexes them, so the embedded database stores them quickly.
  it("returns what the full scan returns for 600 vectors of 500 dimensions in clusters", async () => {
    const random = () => Array.from({ length: 500 }, () => Math.random() - 0.5);
    const centres = Array.from({ length: 12 }, random);
    const vectors = Array.from({ length: 600 }, (_, index) => centres[index % 12]!.map((value) => value + (Math.random() - 0.5) * 0.3));
    const { agentId } = await storeChunks(db.prisma, projectId, vectors);
    const store = vectorStore(db, "exact", 500);
    for (let attempt = 0; attempt < 4; attempt++) {
      const query = attempt % 2 ? random() : centres[attempt]!.map((value) => value + (Math.random() - 0.5) * 0.3);
      const search: NearestQuery = { ...chunksOf(agentId, query, 8), columns: sql`t."content"` };
      expect(await store.nearest(search)).toEqual(await rankByCosine(db.prisma, 500, search));
    }
  }, 60_000);

  it("gives each of several searches running at once its own answer, the full scan's", async () => {
    const random = () => Array.from({ length: DIMENSIONS }, () => Math.random() - 0.5);
    const { agentId } = await storeChunks(db.prisma, projectId, Array.from({ length: 300 }, random));
    const searches = Array.from({ length: 6 }, () => chunksOf(agentId, random(), 4));
    const found = await Promise.all(searches.map((search) => exact().nearest(search)));
    for (const [index, search] of searches.entries()) expect(found[index]).toEqual(await rankByCosine(db.prisma, DIMENSIONS, search));
  });

  it("breaks ties as the full scan does (episodes: the newer first)", async () => {
    const { agentId } = await createAgent(db.prisma, projectId);
    // One person per episode: an episode is unique per session end, agent and person.
    const users = await Promise.all(Array.from({ length: 6 }, () => db.prisma.user.create({ data: { id: randomUUID(), name: "Ann", email: `${randomUUID()}@example.com`, handle: `ann${randomUUID().slice(0, 8)}` } })));
    const { channel } = await createProjectWithChannel(db.prisma, `c${randomUUID().slice(0, 8)}`);
    const same = Array.from({ length: DIMENSIONS }, (_, index) => (index % 3) - 1);
    await db.prisma.episode.createMany({
      data: Array.from({ length: 6 }, (_, index) => ({
        id: randomUUID(), agentId, userId: users[index]!.id, conversationId: channel.id, summary: `episode ${index}`, facts: [], fromSeq: 1, toSeq: 2,
        startedAt: new Date(Date.UTC(2026, 0, 1 + index)), endedAt: new Date(Date.UTC(2026, 0, 1 + index)), embedding: index < 4 ? same : same.map((value) => -value),
      })),
    });
    const search: NearestQuery = { table: "episodes", columns: sql`t."summary"`, where: sql`t."agentId" = ${agentId}`, vector: same, k: 3, tieBreak: raw(`t."endedAt" DESC`) };
    const found = await exact().nearest<{ id: string; score: number; summary: string }>(search);
    expect(found.map((row) => row.summary)).toEqual(["episode 3", "episode 2", "episode 1"]);
    expect(found).toEqual(await rankByCosine(db.prisma, DIMENSIONS, search));
  });

  it("falls back to the full scan where the codes cannot tell: fewer rows than k, a zero vector, a zero query", async () => {
    const zero = Array.from({ length: DIMENSIONS }, () => 0);
    const one = Array.from({ length: DIMENSIONS }, (_, index) => (index === 0 ? 1 : 0));
    const { agentId } = await storeChunks(db.prisma, projectId, [one, zero, one.map((value) => value * 2)]);
    for (const [query, k] of [[one, 5], [one, 3], [zero, 2]] as const) {
      const search = chunksOf(agentId, query, k);
      const found = await exact().nearest(search);
      expect(found).toEqual(await rankByCosine(db.prisma, DIMENSIONS, search));
      expect(found).toHaveLength(k === 5 ? 3 : k);
    }
    // The zero vector has no cosine: ranked last, without a score.
    expect((await exact().nearest(chunksOf(agentId, one, 3))).map((row) => row.score)).toEqual([1, 1, null]);
  });
});

describe("upgrading a database with embeddings stored before the codes", () => {
  let db: Database;
  beforeAll(async () => {
    db = await databaseBefore("20261127010000");
  });
  afterAll(() => db.close());

  it("the migration gives every stored row its codes, and exact search finds them", async () => {
    const { project } = await createProjectWithChannel(db.prisma);
    const random = () => Array.from({ length: 64 }, () => Math.random() - 0.5);
    const vectors = Array.from({ length: 200 }, random);
    const { agentId } = await storeChunks(db.prisma, project.id, vectors);

    await migrate(db.sql);

    const [counts] = await db.prisma.$queryRaw<{ rows: number; coded: number }[]>`
      SELECT count(*)::int AS "rows", (count(*) FILTER (WHERE octet_length("embeddingCodes") = 32 + 64))::int AS "coded" FROM "knowledge_chunks"`;
    expect(counts).toEqual({ rows: 200, coded: 200 });
    const search: NearestQuery = { table: "knowledge_chunks", where: sql`t."agentId" = ${agentId}`, vector: random(), k: 5 };
    expect(await vectorStore(db, "exact", 64).nearest(search)).toEqual(await rankByCosine(db.prisma, 64, search));
  });
});
