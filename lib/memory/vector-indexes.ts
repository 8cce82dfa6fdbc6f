import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";

/** The tables whose rows carry an `embedding real[]`. */
export const VECTOR_TABLES = ["knowledge_chunks", "episodes", "procedures"] as const;
export type VectorTable = (typeof VECTOR_TABLES)[number];

/** pgvector's HNSW indexes hold `vector` values of at most this many dimensions. */
const HNSW_MAX_DIMENSIONS = 2_000;

/**
 * A table's HNSW index for one dimension, as migration 20261125010000_retention_and_vector_indexes
 * creates it for the common dimensions; `sql` is what an owner runs for any other.
 */
export function hnswIndex(table: VectorTable, dimensions: number): { name: string; sql: string } {
  const name = `${table}_embedding_${dimensions}_hnsw_idx`;
  return {
    name,
    sql: `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON "${table}" USING hnsw (("embedding"::vector(${dimensions})) vector_cosine_ops) WHERE cardinality("embedding") = ${dimensions};`,
  };
}

/**
 * Which search this database can do for `dimensions`, found by looking only, so start-up needs
 * no owner rights: "pgvector" when the extension is installed and every table has its index for
 * this dimension; "exact" otherwise, said once in the log with what a database owner can run.
 */
export async function chooseSearchMode(prisma: Prisma, dimensions: number): Promise<"pgvector" | "exact"> {
  const [found] = await prisma.$queryRaw<{ available: boolean; installed: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS "available",
           EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS "installed"`;
  if (!found?.available) {
    log.info("memory search: exact cosine search (this PostgreSQL has no pgvector)");
    return "exact";
  }
  if (dimensions > HNSW_MAX_DIMENSIONS) {
    log.warn(`memory search: exact cosine search, every row compared: pgvector's HNSW indexes hold at most ${HNSW_MAX_DIMENSIONS} dimensions, and the embedding model gives ${dimensions}`);
    return "exact";
  }
  const wanted = VECTOR_TABLES.map((table) => hnswIndex(table, dimensions));
  const present = found.installed
    ? await prisma.$queryRaw<{ name: string }[]>`SELECT indexname AS "name" FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ANY(${wanted.map((index) => index.name)})`
    : [];
  const missing = wanted.filter((index) => !present.some((row) => row.name === index.name));
  if (found.installed && missing.length === 0) {
    log.info(`memory search: pgvector HNSW indexes (${dimensions} dimensions)`);
    return "pgvector";
  }
  const why = found.installed ? `there is no HNSW index for ${dimensions} dimensions` : "pgvector is available but not enabled in this database";
  const statements = [...(found.installed ? [] : ["CREATE EXTENSION IF NOT EXISTS vector;"]), ...missing.map((index) => index.sql)];
  log.warn(`memory search: exact cosine search, every row compared: ${why}. For indexed search, run as the database owner, then restart Chorus: ${statements.join(" ")}`);
  return "exact";
}
