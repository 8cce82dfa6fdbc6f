import type { RetrievedKnowledge } from "@/lib/context/types";
import type { Prisma } from "@/lib/db/open-database";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import type { MemoryQuery } from "./retrieve-memory";
import type { VectorStore } from "./vector-store";
import { rawRows } from "@/lib/db/raw-statements";

/**
 * Reciprocal rank fusion's constant: a chunk's fused score is Σ 1/(RRF_K + rank) over the
 * rankings that found it. 60 is the value of the method's paper (Cormack, Clarke and Büttcher,
 * 2009), which held across their collections: large enough that being first in one ranking is
 * worth little more than being fifth, so a chunk both rankings find outranks one only a single
 * ranking puts first — and no ranking's scores, cosine or ts_rank, need be comparable.
 */
export const RRF_K = 60;
/** How deep each ranking is read before fusing (at least the agent's top K): pgvector's default ef_search, so an HNSW scan returns them in one pass. */
export const CANDIDATES = 40;
/** The text query reads the question's first 1,000 characters, and of those its first 32 distinct words: a long question costs no more than this. */
export const TEXT_QUERY_CHARS = 1_000;
export const TEXT_QUERY_WORDS = 32;
/**
 * A word is too common to search by text when ANALYZE's statistics find it in more than 5 % of
 * the chunks and in more than 50 of them (chorus_knowledge_text_search, reading the statistics'
 * copy that refreshStatistics makes): it would rank nothing, and ranking its matches is what costs.
 */
const COMMON_FRACTION = 0.05;
const COMMON_CHUNKS = 50;

export type KnowledgeRetrieval = MemoryQuery["knowledgeRetrieval"];
type ChunkRow = Omit<RetrievedKnowledge, "score" | "vectorRank" | "textRank">;

/**
 * The words of a question that the text query is made of: its first TEXT_QUERY_CHARS characters
 * (a word cut there is dropped), split at white space, those with a letter or digit, each once,
 * the first TEXT_QUERY_WORDS. None (punctuation only): no text search.
 */
export function textQueryWords(question: string): string[] {
  const cut = question.length > TEXT_QUERY_CHARS;
  const words = question.slice(0, TEXT_QUERY_CHARS).split(/\s+/u);
  if (cut) words.pop();
  const seen = new Set<string>();
  return words.filter((word) => /[\p{L}\p{N}]/u.test(word) && !seen.has(word.toLowerCase()) && seen.add(word.toLowerCase())).slice(0, TEXT_QUERY_WORDS);
}

/**
 * Both rankings, each with its rank (1 = first), fused by reciprocal rank fusion into the best
 * `k`: score = Σ 1/(RRF_K + rank), a ranking that did not find a chunk adding nothing. Ties go to
 * the chunk with the better single rank, then to the text ranking's: it lists only chunks that
 * hold a word of the question, where the vector ranking ranks every chunk.
 */
export function fuseRankings<Row extends { id: string }>(byVector: Row[], byText: Row[], k: number): (Row & { score: number; vectorRank: number | null; textRank: number | null })[] {
  const fused = new Map<string, { row: Row; vectorRank: number | null; textRank: number | null }>();
  byVector.forEach((row, index) => fused.set(row.id, { row, vectorRank: index + 1, textRank: null }));
  byText.forEach((row, index) => {
    const found = fused.get(row.id);
    if (found) found.textRank = index + 1;
    else fused.set(row.id, { row, vectorRank: null, textRank: index + 1 });
  });
  const share = (rank: number | null) => (rank === null ? 0 : 1 / (RRF_K + rank));
  const best = ({ vectorRank, textRank }: { vectorRank: number | null; textRank: number | null }) => Math.min(vectorRank ?? Infinity, textRank ?? Infinity);
  return [...fused.values()]
    .map(({ row, vectorRank, textRank }) => ({ ...row, score: share(vectorRank) + share(textRank), vectorRank, textRank }))
    .sort((a, b) => b.score - a.score || best(a) - best(b) || (a.textRank ?? Infinity) - (b.textRank ?? Infinity))
    .slice(0, k);
}

// What a retrieved chunk carries, and the chunks an agent's searches read: only those of its ready
// documents (a document being indexed has its chunks written step by step; the filter is over t
// alone, as exact search reads the rows without the join).
const columns = sql`t."content", d."name" AS "source", t."documentId", t."ordinal"`;
const documentJoin = sql`JOIN "knowledge_documents" d ON d."id" = t."documentId"`;
const readyChunksOf = (agentId: string) => sql`t."agentId" = ${agentId} AND t."documentId" IN (SELECT "id" FROM "knowledge_documents" WHERE "agentId" = ${agentId} AND "status" = 'ready')`;

/**
 * The agent's knowledge for a question. Vector: the top K by cosine similarity (score = cosine).
 * Hybrid: the vector ranking and the full-text ranking, CANDIDATES deep each, fused (score = the
 * fused score). The text statement needs no embedding: it runs while the question is embedded.
 */
export async function searchKnowledge({ prisma, vectors }: { prisma: Prisma; vectors: VectorStore }, query: MemoryQuery): Promise<RetrievedKnowledge[]> {
  const nearest = async (k: number) =>
    vectors.nearest<ChunkRow & { score: number }>({ table: "knowledge_chunks", join: documentJoin, columns, where: readyChunksOf(query.agentId), vector: await query.embedding(), k });
  if (query.knowledgeRetrieval === "vector") {
    // No text ranking was run: no textRank (the inspector shows the cosine score, not a fused one).
    return (await nearest(query.semanticTopK)).map(({ id, content, source, documentId, ordinal, score }, index) => ({ id, content, source, documentId, ordinal, score, vectorRank: index + 1 }));
  }
  const depth = Math.max(CANDIDATES, query.semanticTopK);
  const [byText, byVector] = await Promise.all([textRanking(prisma, query.agentId, textQueryWords(query.text), depth), nearest(depth)]);
  return fuseRankings(byVector, byText, query.semanticTopK).map(({ id, content, source, documentId, ordinal, score, vectorRank, textRank }) => ({ id, content, source, documentId, ordinal, score, vectorRank, textRank }));
}

/**
 * The agent's ready chunks holding every one of the words, or when none does any of them, best
 * ts_rank first, at most `depth`: one
 * call of chorus_knowledge_text_search (migrations 20261130010000, 20261201030000), which leaves
 * out stop words and common words and searches the GIN index on "searchVector". No words left: nothing (the fusion is
 * then the vector ranking).
 */
export async function textRanking(prisma: Prisma, agentId: string, words: string[], depth: number): Promise<ChunkRow[]> {
  if (words.length === 0) return [];
  return rawRows<ChunkRow>(prisma, sql`
    SELECT t."id", ${columns}
    FROM "chorus_knowledge_text_search"(${agentId}, ${words}::text[], ${depth}::int, ${COMMON_FRACTION}::real, ${COMMON_CHUNKS}::real) WITH ORDINALITY AS r("id", "rank")
    JOIN "knowledge_chunks" t ON t."id" = r."id"
    ${documentJoin}
    ORDER BY r."rank"`);
}
