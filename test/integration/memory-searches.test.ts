import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/open-database";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { normalise } from "@/lib/memory/embedder";
import { createMemoryStores } from "@/lib/memory/memory-stores";
import { retrieveMemory } from "@/lib/memory/retrieve-memory";
import { vectorStore } from "@/lib/memory/vector-store";
import { databaseMode } from "../support/database-mode";
import { createProjectWithChannel } from "../support/fixtures";
import { createTestDatabase } from "../support/test-database";

const DIMENSIONS = 256;
const random = () => normalise(Array.from({ length: DIMENSIONS }, () => Math.random() - 0.5));

/**
 * A turn's episodic and knowledge searches wait for the same embedding and ask at once; with
 * pgvector they share one statement (the embedded database has pgvector, this machine's
 * PostgreSQL has not). What each finds must be what it finds alone, exact search being the truth.
 */
describe.runIf(databaseMode === "pglite")("a turn's memory searches", () => {
  let db: Database;
  const statements: string[] = [];
  const question = random();
  let agentId: string;
  let conversationId: string;
  let procedures: { id: string; name: string; trigger: string | null; steps: string[] }[];
  const endedAt = (minute: number) => new Date(Date.UTC(2026, 10, 27, 9, minute, 30, 123));

  beforeAll(async () => {
    db = await createTestDatabase({ onQuery: (statement) => statements.push(statement) });
    const { project, channel } = await createProjectWithChannel(db.prisma);
    conversationId = channel.id;
    agentId = (await db.prisma.agent.create({ data: { projectId: project.id, handle: "recall", displayName: "Recall", color: "#000000", systemPrompt: "x", model: "offline" } })).id;
    const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId, name: "handbook.md", mediaType: "text/markdown", bytes: 1, status: "ready" } });
    await db.prisma.knowledgeChunk.createMany({
      data: Array.from({ length: 200 }, (_, ordinal) => ({ id: randomUUID(), documentId: document.id, agentId, ordinal, content: `passage ${ordinal}`, embedding: random() })),
    });
    // Three summaries of this channel as close as can be, ended at different times: the newest first.
    // A channel's summary per session end (the table allows one).
    const minutes = [1, 3, 2, ...Array.from({ length: 50 }, (_, index) => 10 + index)];
    const sessionEnds = new Map(minutes.map((minute) => [minute, randomUUID()]));
    await db.prisma.sessionEnd.createMany({ data: minutes.map((minute) => ({ id: sessionEnds.get(minute)!, conversationId, fromSeq: minute, toSeq: minute, status: "done" })) });
    const episode = (minute: number, embedding: number[]) => ({
      id: randomUUID(), agentId, userId: null, sessionEndId: sessionEnds.get(minute)!, conversationId, summary: `Summary at ${minute}`, facts: minute === 2 ? ["a fact"] : [], fromSeq: 1, toSeq: 2, startedAt: endedAt(0), endedAt: endedAt(minute), embedding,
    });
    await db.prisma.episode.createMany({ data: minutes.map((minute) => episode(minute, minute < 10 ? question : random())) });
    // Two procedures as close as can be (the newer wins the tie), one far.
    const procedure = (name: string, embedding: number[], updatedAt: Date) => ({ id: randomUUID(), agentId, name, trigger: null, steps: [`${name} step`], status: "approved", embedding, updatedAt });
    await db.prisma.procedure.createMany({ data: [procedure("older", question, endedAt(1)), procedure("newer", question, endedAt(2)), procedure("far", random(), endedAt(3))] });
    procedures = await db.prisma.procedure.findMany({ orderBy: { updatedAt: "desc" }, select: { id: true, name: true, trigger: true, steps: true } });
    for (const table of ["knowledge_chunks", "episodes", "procedures"]) await db.sql.query(`ANALYZE "${table}"`);
  });
  afterAll(() => db.close());

  const recall = (mode: "pgvector" | "exact") => {
    const embedder = { name: "test:fixed", dimensions: DIMENSIONS, embed: async (texts: string[]) => texts.map(() => question), close: async () => undefined };
    const stores = createMemoryStores({ prisma: db.prisma, vectors: vectorStore(db, mode, DIMENSIONS), embedder });
    const query = {
      agentId, userId: null, conversationId, text: "what did we say?", semanticTopK: 5, knowledgeRetrieval: "vector" as const, episodicTopK: 3, procedureThreshold: 0.8,
      presence: { knowledge: true, episodes: true, procedures },
    };
    return retrieveMemory(stores, query, performance.now());
  };

  it("share one statement and find what each finds alone: an episode's time, the newest of equally close procedures", async () => {
    const truth = await recall("exact");
    statements.length = 0;
    const { retrieved } = await recall("pgvector");

    expect(statements.filter((statement) => statement.includes("<=>"))).toHaveLength(1);
    expect(retrieved.episodes.map(({ content, occurredAt }) => ({ content, occurredAt }))).toEqual([
      { content: "Summary at 3", occurredAt: endedAt(3).toISOString() },
      { content: "Summary at 2 Key facts: a fact.", occurredAt: endedAt(2).toISOString() },
      { content: "Summary at 1", occurredAt: endedAt(1).toISOString() },
    ]);
    expect(retrieved.episodes.map((episode) => episode.id)).toEqual(truth.retrieved.episodes.map((episode) => episode.id));
    expect(retrieved.knowledge.map((chunk) => chunk.id)).toEqual(truth.retrieved.knowledge.map((chunk) => chunk.id));
    retrieved.knowledge.forEach((chunk, index) => expect(chunk.score).toBeCloseTo(truth.retrieved.knowledge[index]!.score, 5));
    expect(retrieved.knowledge.map((chunk) => chunk.source)).toEqual(Array(5).fill("handbook.md"));
    expect(retrieved.procedure).toEqual({ id: procedures.find((each) => each.name === "newer")!.id, name: "newer", steps: ["newer step"], score: expect.closeTo(1, 5), matchedBy: "embedding" });
    expect(truth.retrieved.procedure?.id).toBe(retrieved.procedure?.id);
  });

  it("a search asked for alone is its own statement, with the same results", async () => {
    const store = vectorStore(db, "pgvector", DIMENSIONS);
    const search = { table: "knowledge_chunks" as const, where: sql`t."agentId" = ${agentId}`, vector: question, k: 4 };
    const together = await Promise.all([store.nearest(search), store.nearest({ ...search, k: 2 })]);
    statements.length = 0;
    const alone = await store.nearest(search);
    expect(statements.filter((statement) => statement.includes("<=>"))).toHaveLength(1);
    expect(statements[0]).not.toContain("json_agg");
    expect(together).toEqual([alone, alone.slice(0, 2)]);
  });
});
