import type { Database, Prisma } from "@/lib/db/open-database";
import { empty, join as joinSql, raw, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { log } from "@/lib/log/logger";
import type { Embedder } from "./embedder";
import { byDistance, exactNearest, scored } from "./exact-search";
import { chooseSearchMode, VECTOR_TABLES, type VectorTable } from "./vector-indexes";
import { rawRows } from "@/lib/db/raw-statements";

export class MemoryStartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MemoryStartupError";
  }
}

export interface Neighbour {
  id: string;
  /** Cosine similarity, 1 = same direction. */
  score: number;
}

/** Extra columns to return with each neighbour: a SQL select list over the table aliased `t` (and joins). */
export interface NearestQuery {
  table: VectorTable;
  /** Joins after `FROM table t`. */
  join?: ReturnType<typeof sql>;
  /** Columns besides id and score, e.g. sql`t."content", d."name"`. */
  columns?: ReturnType<typeof sql>;
  /** A filter over `t` alone (exact search reads the rows' codes without the join). */
  where: ReturnType<typeof sql>;
  vector: number[];
  k: number;
  /** Ordering after distance, over a column the search also returns, e.g. raw(`t."endedAt" DESC`). */
  tieBreak?: ReturnType<typeof raw>;
}

export interface VectorStore {
  /** "pgvector": HNSW indexes; "exact": every row's compact codes compared, the closest ranked exactly (no pgvector, or no index for the dimension: lib/memory/exact-search.ts). */
  readonly mode: "pgvector" | "exact";
  readonly dimensions: number;
  /**
   * The `k` rows nearest `vector` among those matching `where`: one statement with pgvector (the
   * searches asked for in the same tick share it), two for exact search.
   */
  nearest<Row extends Neighbour = Neighbour>(query: NearestQuery): Promise<Row[]>;
}

/**
 * Checks the deployment's embedding dimension (stored on first start; another dimension stops
 * start-up with both numbers) and chooses the search: pgvector with the migrations' HNSW cosine
 * indexes on (embedding::vector(D)) where they exist for D, exact search otherwise
 * (lib/memory/vector-indexes.ts says which, once).
 */
export async function prepareVectorStore(db: Database, embedder: Pick<Embedder, "name" | "dimensions">): Promise<VectorStore> {
  const { prisma } = db;
  const stored = new Map((await prisma.memorySetting.findMany()).map((row) => [row.key, row.value]));
  const storedDimensions = stored.get("embedding.dimensions");
  if (storedDimensions === undefined) {
    await prisma.memorySetting.createMany({
      data: [
        { key: "embedding.dimensions", value: String(embedder.dimensions) },
        { key: "embedding.model", value: embedder.name },
      ],
      skipDuplicates: true,
    });
  } else if (Number(storedDimensions) !== embedder.dimensions) {
    throw new MemoryStartupError(
      `The embedding model ${embedder.name} gives ${embedder.dimensions} dimensions, but this database's memory was embedded with ${storedDimensions} (${stored.get("embedding.model") ?? "unknown model"}). ` +
        "Run `npm run reembed` to re-embed everything with the configured model, or configure the previous one again.",
    );
  } else if (stored.get("embedding.model") !== embedder.name) {
    log.warn("embeddings come from another model than the stored ones: run `npm run reembed` for consistent search", { stored: stored.get("embedding.model"), configured: embedder.name });
  }

  const mode = await chooseSearchMode(prisma, embedder.dimensions);
  if (mode === "pgvector") await keepScanningFilteredResults(db);
  await refreshStatistics(prisma);
  return vectorStore(db, mode, embedder.dimensions);
}

/** A database's Prisma client and, for exact search's scan, its driver. */
export type VectorDatabase = Pick<Database, "prisma" | "sql">;

export function vectorStore(db: VectorDatabase, mode: VectorStore["mode"], dimensions: number): VectorStore {
  if (mode === "exact") return { mode, dimensions, nearest: (query) => exactNearest(db, dimensions, query) };
  const searchIndexed = indexedSearch(db, dimensions);
  return {
    mode,
    dimensions,
    nearest: <Row extends Neighbour>(query: NearestQuery) => (query.k <= 0 ? Promise.resolve([]) : (searchIndexed(query) as Promise<Row[]>)),
  };
}

/**
 * pgvector's HNSW search. A turn's episodic and knowledge searches wait for the same embedding
 * and ask at once: the searches asked for in one tick go to the database as one statement, each
 * its own scan, its rows aggregated in its order, since on the embedded database every statement
 * costs its own round of parsing, planning and the driver's work.
 */
function indexedSearch({ prisma }: VectorDatabase, dimensions: number): (query: NearestQuery) => Promise<Neighbour[]> {
  const vectorType = raw(`vector(${Math.trunc(dimensions)})`);
  // A literal, not a parameter: the planner must see it to use the partial index of this dimension.
  const ofDimension = raw(`cardinality(t."embedding") = ${Math.trunc(dimensions)}`);
  const scan = ({ table, join, columns, where, vector, k, tieBreak }: NearestQuery) => {
    const distance = sql`(t."embedding"::${vectorType}) <=> ${`[${vector.join(",")}]`}::${vectorType}`;
    return sql`
      SELECT t."id", ${distance} AS "distance"${columns ? sql`, ${columns}` : empty}
      FROM ${raw(`"${table}" t`)} ${join ?? empty} WHERE ${ofDimension} AND ${where}
      ORDER BY 2${tieBreak ? sql`, ${tieBreak}` : empty} LIMIT ${k}`;
  };
  let batch: { query: NearestQuery; resolve: (rows: Neighbour[]) => void; reject: (error: unknown) => void }[] = [];
  const run = async (asked: typeof batch) => {
    if (asked.length === 1) return [await byDistance(rawRows(prisma, scan(asked[0]!.query)))];
    // Each scan's rows as JSON, ordered as the scan ordered them (the alias t is the scan's rows here).
    const aggregated = asked.map(({ query }, index) =>
      sql`(SELECT COALESCE(json_agg(t ORDER BY t."distance"${query.tieBreak ? sql`, ${query.tieBreak}` : empty}), '[]'::json) FROM (${scan(query)}) t) AS ${raw(`"${index}"`)}`,
    );
    const [row] = await rawRows<Record<string, unknown[]>>(prisma, sql`SELECT ${joinSql(aggregated)}`);
    return asked.map((_, index) => scored(row![String(index)]!));
  };
  return (query) =>
    new Promise((resolve, reject) => {
      if (batch.length === 0) {
        process.nextTick(() => {
          const asked = batch;
          batch = [];
          run(asked).then(
            (results) => asked.forEach(({ resolve: answer }, index) => answer(results[index]!)),
            (error: unknown) => asked.forEach(({ reject: fail }) => fail(error)),
          );
        });
      }
      batch.push({ query, resolve, reject });
    });
}

/**
 * A filtered HNSW scan (one agent's rows) keeps searching until k rows pass the filter (pgvector
 * 0.8's iterative scans). A session setting: here for the embedded database's one connection;
 * PostgreSQL's connections get it as they open (lib/db/open-database.ts).
 */
async function keepScanningFilteredResults(db: Database): Promise<void> {
  if (db.engine !== "pglite") return;
  try {
    await db.prisma.$executeRawUnsafe("SET hnsw.iterative_scan = strict_order");
  } catch (error) {
    log.warn("pgvector iterative scans could not be switched on: a search filtered to one agent may return fewer results", { error });
  }
}

/**
 * Up-to-date row counts, so the planner picks the HNSW index over a scan once a table is large.
 * The embedded database has no autovacuum to do it: start-up and each ingestion ask for it. The
 * knowledge chunks' common words, which text search leaves out, are copied from the new
 * statistics (migration 20261201030000_knowledge_common_lexemes).
 */
export async function refreshStatistics(prisma: Prisma, tables: readonly VectorTable[] = VECTOR_TABLES): Promise<void> {
  for (const table of tables) await prisma.$executeRawUnsafe(`ANALYZE "${table}"`);
  if (tables.includes("knowledge_chunks")) await prisma.$executeRaw`SELECT "chorus_refresh_common_lexemes"()`;
}
