import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { migrate } from "@/lib/db/migrator";
import type { Database } from "@/lib/db/open-database";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { log } from "@/lib/log/logger";
import { VECTOR_TABLES } from "@/lib/memory/vector-indexes";
import { prepareVectorStore } from "@/lib/memory/vector-store";
import { databaseMode } from "../support/database-mode";
import { createTestDatabase } from "../support/test-database";
import { databaseBefore } from "../support/database-before";

const onPglite = databaseMode === "pglite";

/**
 * pgvector's HNSW indexes come from the migrations; start-up only looks (no owner rights needed).
 * The embedded database has pgvector; this machine's PostgreSQL has not.
 */
describe("vector indexes", () => {
  let db: Database;
  const statements: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase({ onQuery: (statement) => statements.push(statement) });
  });
  afterAll(() => db.close());
  afterEach(async () => {
    vi.restoreAllMocks();
    await db.prisma.memorySetting.deleteMany();
  });

  it("start-up changes nothing in the database: no DDL, no ALTER DATABASE; filtered scans are a session setting", async () => {
    statements.length = 0;
    const store = await prepareVectorStore(db, { name: "test:512", dimensions: 512 });

    expect(store.mode).toBe(onPglite ? "pgvector" : "exact");
    expect(statements.filter((statement) => /^\s*(CREATE|ALTER|DROP|DO|GRANT)\b/i.test(statement))).toEqual([]);
    const [setting] = await db.prisma.$queryRaw<{ value: string }[]>`SELECT current_setting('hnsw.iterative_scan', true) AS "value"`;
    expect(setting?.value).toBe("strict_order");
    const [perDatabase] = await db.prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS "count" FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = current_database()`;
    expect(perDatabase?.count).toBe(0);
  });

  it.runIf(onPglite)("the migration gives every table a partial HNSW index per common dimension, which a search of that dimension uses", async () => {
    const indexes = await db.sql.query<{ indexname: string; indexdef: string }>(`SELECT indexname, indexdef FROM pg_indexes WHERE indexname LIKE '%_hnsw_idx'`);
    for (const table of VECTOR_TABLES) {
      for (const dimensions of [256, 384, 512, 768, 1024, 1536]) {
        const index = indexes.find((row) => row.indexname === `${table}_embedding_${dimensions}_hnsw_idx`);
        expect(index?.indexdef, `${table} ${dimensions}`).toContain(`USING hnsw (((embedding)::vector(${dimensions})) vector_cosine_ops) WHERE (cardinality(embedding) = ${dimensions})`);
      }
    }

    const store = await prepareVectorStore(db, { name: "test:512", dimensions: 512 });
    statements.length = 0;
    await store.nearest({ table: "knowledge_chunks", where: sql`true`, vector: Array.from({ length: 512 }, (_, index) => index % 7), k: 5 });
    const search = statements.find((statement) => statement.includes("<=>"))!;
    // The plan every execution may get (parameters unknown), with scans ruled out: only a usable index is left.
    const plan = await db.pglite!.transaction(async (tx) => {
      // The simple protocol: a statement with $n placeholders and no values is explained as is.
      const results = await tx.exec(`SET LOCAL enable_seqscan = off; EXPLAIN (GENERIC_PLAN) ${search}`);
      return results.at(-1)!.rows.map((row) => (row as { "QUERY PLAN": string })["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("Index Scan using knowledge_chunks_embedding_512_hnsw_idx");
  });

  it.runIf(onPglite)("a dimension without an index: exact search, and the log gives the statements that make the index", async () => {
    const warnings = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const unindexed = { name: "test:8", dimensions: 8 };

    expect((await prepareVectorStore(db, unindexed)).mode).toBe("exact");

    const message = String(warnings.mock.calls.find(([text]) => text.includes("no HNSW index for 8 dimensions"))?.[0]);
    const advice = message.match(/CREATE INDEX CONCURRENTLY [^;]+;/g) ?? [];
    expect(advice).toHaveLength(VECTOR_TABLES.length);
    for (const statement of advice) await db.sql.query(statement);
    expect((await prepareVectorStore(db, unindexed)).mode).toBe("pgvector");
  });

  it.runIf(!onPglite)("without pgvector, search is exact and start-up says so", async () => {
    const info = vi.spyOn(log, "info").mockImplementation(() => undefined);
    expect((await prepareVectorStore(db, { name: "test:512", dimensions: 512 })).mode).toBe("exact");
    expect(info).toHaveBeenCalledWith("memory search: exact cosine search (this PostgreSQL has no pgvector)");
  });
});

describe.runIf(onPglite)("upgrading a database whose indexes start-up used to create", () => {
  let db: Database;
  beforeAll(async () => {
    db = await databaseBefore("20261125010000");
  });
  afterAll(() => db.close());

  it("replaces <table>_embedding_hnsw_<D> with the partial indexes", async () => {
    // What lib/memory/vector-store.ts did at start-up before this migration.
    await db.sql.query("CREATE EXTENSION IF NOT EXISTS vector");
    for (const table of VECTOR_TABLES) {
      await db.sql.query(`CREATE INDEX "${table}_embedding_hnsw_512" ON "${table}" USING hnsw (("embedding"::vector(512)) vector_cosine_ops) WHERE cardinality("embedding") > 0`);
    }

    await migrate(db.sql);

    const names = (await db.sql.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE indexname LIKE '%hnsw%'`)).map((row) => row.indexname);
    expect(names.filter((name) => /_embedding_hnsw_\d+$/.test(name))).toEqual([]);
    for (const table of VECTOR_TABLES) expect(names).toContain(`${table}_embedding_512_hnsw_idx`);
  });
});
