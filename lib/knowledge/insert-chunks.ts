import { randomUUID } from "node:crypto";
import type { Transaction } from "@/lib/db/open-database";

/**
 * A vector as PostgreSQL reads a real[]: each value to 9 significant digits, which is exactly the
 * float4 the column keeps (nearest to the value), in half the text of a double's 17 digits.
 */
function realArrayLiteral(vector: number[]): string {
  return `{${vector.map((value) => Math.fround(value).toPrecision(9)).join(",")}}`;
}

/**
 * A document's chunks (from the ordinal `firstOrdinal` on) in one statement: the rows travel as four arrays (ids, ordinals, texts,
 * vectors as real[] literals) and are unnested by the database. Prisma's createMany builds and
 * checks a value per column per row, which cost more than the database's own work (the HNSW
 * index included) for a few hundred 512-dimension vectors.
 */
export async function insertChunks(
  tx: Transaction,
  { documentId, agentId, chunks, vectors, firstOrdinal }: { documentId: string; agentId: string; chunks: string[]; vectors: number[][]; firstOrdinal: number },
): Promise<void> {
  if (chunks.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO "knowledge_chunks" ("id", "documentId", "agentId", "ordinal", "content", "embedding")
    SELECT row."id", ${documentId}, ${agentId}, row."ordinal", row."content", row."embedding"::real[]
    FROM unnest(${chunks.map(() => randomUUID())}::text[], ${chunks.map((_, index) => firstOrdinal + index)}::int[], ${chunks}::text[], ${vectors.map(realArrayLiteral)}::text[])
      AS row("id", "ordinal", "content", "embedding")`;
}
