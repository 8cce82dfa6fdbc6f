import type { Prisma } from "@/lib/db/open-database";
import { driverValue } from "@/lib/db/raw-statements";
import { empty, raw, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { candidateFilter, CODES_HEADER } from "./embedding-codes";
import type { NearestQuery, Neighbour, VectorDatabase } from "./vector-store";

/**
 * Exact cosine search without an index (no pgvector, or no HNSW index for the dimension), in
 * two statements. The first reads the matching rows' compact codes (lib/memory/embedding-codes.ts:
 * about D bytes a row, stored in the row, arriving as plain text) and bounds each row's cosine as
 * it arrives (the dot product in WebAssembly: lib/memory/codes-dot.ts), keeping only the rows
 * that may be in the top k; the second ranks those few with chorus_cosine_distance, exactly as a
 * full scan would: the same rows, scores and tie-breaks.
 * No cache: every search reads what the database holds now, whichever node wrote it.
 */
export async function exactNearest<Row extends Neighbour>({ prisma, sql: driver }: VectorDatabase, dimensions: number, query: NearestQuery): Promise<Row[]> {
  if (query.k <= 0) return [];
  const filter = candidateFilter(query.vector, query.k, dimensions);
  if (!filter) return rankByCosine<Row>(prisma, dimensions, query);
  const scan = sql`
    SELECT t."id", t."embeddingCodes" AS "codes"
    FROM ${raw(`"${query.table}" t`)}
    WHERE octet_length(t."embeddingCodes") = ${raw(String(CODES_HEADER + Math.trunc(dimensions)))} AND ${query.where}`;
  // Through the driver, each row bounded as it arrives: Prisma's mapping of 20,000 rows would cost
  // about as much as reading them, and 20,000 rows kept until the last would cost as much again in
  // garbage collection.
  await driver.forEachRow<{ id: string; codes: string }>(scan.text, scan.values.map(driverValue), (row) => filter.add(row.id, row.codes));
  const ids = filter.ids();
  if (!ids) return rankByCosine<Row>(prisma, dimensions, query);
  const ranked = await rankByCosine<Row>(prisma, dimensions, query, ids);
  // A candidate deleted between the two statements: rank every row instead (rare, and right).
  return ranked.length < query.k ? rankByCosine<Row>(prisma, dimensions, query) : ranked;
}

/**
 * The k rows nearest `vector` by chorus_cosine_distance among those matching (and among `ids`
 * when given), in one statement: every row compared in SQL. Without `ids` this is the full scan
 * (about 65 µs a row), kept for what the codes cannot decide and as the benchmark's baseline.
 */
export function rankByCosine<Row extends Neighbour>(prisma: Prisma, dimensions: number, { table, join, columns, where, vector, k, tieBreak }: NearestQuery, ids?: string[]): Promise<Row[]> {
  const distance = sql`chorus_cosine_distance(t."embedding", ${`{${vector.join(",")}}`}::real[])`;
  return byDistance<Row>(prisma.$queryRaw`
    SELECT t."id", ${distance} AS "distance"${columns ? sql`, ${columns}` : empty}
    FROM ${raw(`"${table}" t`)} ${join ?? empty}
    WHERE cardinality(t."embedding") = ${raw(String(Math.trunc(dimensions)))} AND ${where}${ids ? sql` AND t."id" = ANY(${ids})` : empty}
    ORDER BY 2${tieBreak ? sql`, ${tieBreak}` : empty} LIMIT ${k}`);
}

/**
 * A search's rows with their score, from a statement that selects the distance once, second, and
 * orders by it (`ORDER BY 2`, which an index serves as it would the expression): the query vector
 * is one parameter, as text, where a real[] of D numbers, sent for the score and again for the
 * order, cost about 1 ms a statement on the embedded database. 1 - distance is the same double
 * subtraction SQL would do; a zero vector has no distance, and no score.
 */
export async function byDistance<Row extends Neighbour>(statement: Promise<unknown[]>): Promise<Row[]> {
  return scored<Row>(await statement);
}

/** Rows with their distance as rows with their score (see byDistance). */
export function scored<Row extends Neighbour>(rows: unknown[]): Row[] {
  return (rows as (Omit<Row, "score"> & { distance: number | null })[]).map(({ distance, ...row }) => ({ ...row, score: distance === null ? null : 1 - distance }) as unknown as Row);
}
