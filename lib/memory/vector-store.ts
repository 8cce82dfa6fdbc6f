import type { Database, Prisma } from "@/lib/db/open-database";
import { empty, raw, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { log } from "@/lib/log/logger";
import type { Embedder } from "./embedder";

export class MemoryStartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MemoryStartupError";
  }
}

/** The tables whose rows carry an `embedding real[]`. */
export type VectorTable = "knowledge_chunks" | "episodes" | "procedures";
const TABLES: VectorTable[] = ["knowledge_chunks", "episodes", "procedures"];

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
  /** A filter over `t`. */
  where: ReturnType<typeof sql>;
  vector: number[];
  k: number;
  /** Ordering after distance, e.g. raw(`t."endedAt" DESC`). */
  tieBreak?: ReturnType<typeof raw>;
}

export interface VectorStore {
  /** "pgvector": HNSW indexes; "exact": every row compared (PostgreSQL without pgvector). */
  readonly mode: "pgvector" | "exact";
  readonly dimensions: number;
  /** The `k` rows nearest `vector` among those matching `where`, in one statement. */
  nearest<Row extends Neighbour = Neighbour>(query: NearestQuery): Promise<Row[]>;
}

/**
 * Checks the deployment's embedding dimension (stored on first start; another dimension stops
 * start-up with both numbers) and chooses the search: pgvector with HNSW cosine indexes on
 * (embedding::vector(D)) where the extension exists, exact cosine distance otherwise. Says once
 * which one is in use.
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

  const mode = (await enablePgvector(prisma)) ? "pgvector" : "exact";
  if (mode === "pgvector") {
    await ensureIndexes(prisma, embedder.dimensions);
    await keepScanningFilteredResults(db);
  }
  await refreshStatistics(prisma);
  log.info(`memory search: ${mode === "pgvector" ? `pgvector HNSW indexes (${embedder.dimensions} dimensions)` : "exact cosine search (pgvector is not installed on this PostgreSQL)"}`);
  return vectorStore(prisma, mode, embedder.dimensions);
}

export function vectorStore(prisma: Prisma, mode: VectorStore["mode"], dimensions: number): VectorStore {
  const vectorType = raw(`vector(${Math.trunc(dimensions)})`);
  return {
    mode,
    dimensions,
    async nearest<Row extends Neighbour>({ table, join, columns, where, vector, k, tieBreak }: NearestQuery): Promise<Row[]> {
      if (k <= 0) return [];
      const from = raw(`"${table}" t`);
      const then = tieBreak ? sql`, ${tieBreak}` : empty;
      const extra = columns ? sql`, ${columns}` : empty;
      const distance = mode === "exact" ? sql`chorus_cosine_distance(t."embedding", ${vector}::real[])` : sql`(t."embedding"::${vectorType}) <=> ${vector}::real[]::${vectorType}`;
      return prisma.$queryRaw<Row[]>`
        SELECT t."id", 1 - (${distance}) AS "score"${extra}
        FROM ${from} ${join ?? empty} WHERE cardinality(t."embedding") > 0 AND ${where}
        ORDER BY ${distance}${then} LIMIT ${k}`;
    },
  };
}

/**
 * A filtered HNSW scan (one agent's rows) keeps searching until k rows pass the filter (pgvector
 * 0.8's iterative scans): set for the embedded database's one connection, or for every new
 * connection to this PostgreSQL database.
 */
async function keepScanningFilteredResults(db: Database): Promise<void> {
  try {
    if (db.engine === "pglite") await db.prisma.$executeRawUnsafe("SET hnsw.iterative_scan = strict_order");
    else await db.prisma.$executeRawUnsafe(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET hnsw.iterative_scan = strict_order', current_database()); END $$`);
  } catch (error) {
    log.warn("pgvector iterative scans could not be switched on: a search filtered to one agent may return fewer results", { error });
  }
}

/**
 * Up-to-date row counts, so the planner picks the HNSW index over a scan once a table is large.
 * The embedded database has no autovacuum to do it: start-up and each ingestion ask for it.
 */
export async function refreshStatistics(prisma: Prisma, tables: VectorTable[] = TABLES): Promise<void> {
  for (const table of tables) await prisma.$executeRawUnsafe(`ANALYZE "${table}"`);
}

async function enablePgvector(prisma: Prisma): Promise<boolean> {
  const [available] = await prisma.$queryRaw<{ count: number }[]>`SELECT count(*)::int AS "count" FROM pg_available_extensions WHERE name = 'vector'`;
  if (!available?.count) return false;
  try {
    await prisma.$executeRawUnsafe("CREATE EXTENSION IF NOT EXISTS vector");
    return true;
  } catch (error) {
    log.warn("pgvector is available but could not be enabled: using exact search", { error });
    return false;
  }
}

/** One HNSW cosine index per table for this dimension; rows of another dimension cannot exist (start-up refuses). */
async function ensureIndexes(prisma: Prisma, dimensions: number): Promise<void> {
  for (const table of TABLES) {
    const name = `${table}_embedding_hnsw_${Math.trunc(dimensions)}`;
    // Empty embeddings (a procedure not embedded yet) stay out of the index.
    await prisma.$executeRawUnsafe(
      `CREATE INDEX IF NOT EXISTS "${name}" ON "${table}" USING hnsw (("embedding"::vector(${Math.trunc(dimensions)})) vector_cosine_ops) WHERE cardinality("embedding") > 0`,
    );
  }
}
