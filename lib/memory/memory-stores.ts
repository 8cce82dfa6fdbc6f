import type { RetrievedEpisode, RetrievedKnowledge, RetrievedProcedure } from "@/lib/context/types";
import { raw, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import type { Embedder } from "./embedder";
import type { MemoryPresence, MemoryQuery, MemoryStores } from "./retrieve-memory";
import { matchesPattern } from "@/lib/validation/safe-pattern";
import type { VectorStore } from "./vector-store";

/** The episodes an agent may recall for this person here: their own, and this conversation's own summaries (over alias `t`, or the table itself). */
function recallable(alias: string, { agentId, userId, conversationId }: Pick<MemoryQuery, "agentId" | "userId" | "conversationId">) {
  const column = (name: string) => raw(`${alias}"${name}"`);
  return sql`${column("agentId")} = ${agentId} AND (${column("userId")} = ${userId} OR (${column("userId")} IS NULL AND ${column("conversationId")} = ${conversationId}))`;
}

/**
 * The three memory searches over the database, one statement each:
 * - episodic: the asking person's episodes with this agent, and this channel's own summaries,
 *   most similar first, newer first on a tie (never another person's);
 * - semantic: the agent's knowledge chunks, most similar first, each with its document's name;
 * - procedural: the agent's approved procedures: a trigger match first, else the most similar
 *   one if it clears the threshold; at most one.
 * The turn's loading statement says what exists (MemoryQuery.presence), so an agent without
 * memory costs no embedding.
 */
export function createMemoryStores({ vectors, embedder }: { vectors: VectorStore; embedder: Embedder }): MemoryStores {
  return {
    embed: async (text) => (await embedder.embed([text]))[0]!,

    async semantic(query): Promise<RetrievedKnowledge[]> {
      if (query.semanticTopK === 0 || !query.presence.knowledge) return [];
      const rows = await vectors.nearest<{ id: string; score: number; content: string; source: string; documentId: string; ordinal: number }>({
        table: "knowledge_chunks",
        join: sql`JOIN "knowledge_documents" d ON d."id" = t."documentId"`,
        columns: sql`t."content", d."name" AS "source", t."documentId", t."ordinal"`,
        // A document being indexed has its chunks written step by step: only ready ones are searched
        // (a filter over t alone, as exact search reads the rows without the join).
        where: sql`t."agentId" = ${query.agentId} AND t."documentId" IN (SELECT "id" FROM "knowledge_documents" WHERE "agentId" = ${query.agentId} AND "status" = 'ready')`,
        vector: await query.embedding(),
        k: query.semanticTopK,
      });
      return rows.map(({ id, content, source, documentId, ordinal, score }) => ({ id, content, source, documentId, ordinal, score }));
    },

    async episodic(query): Promise<RetrievedEpisode[]> {
      if (query.episodicTopK === 0 || !query.presence.episodes) return [];
      const rows = await vectors.nearest<{ id: string; score: number; summary: string; facts: string[]; endedAt: Date }>({
        table: "episodes",
        columns: sql`t."summary", t."facts", t."endedAt"`,
        where: recallable("t.", query),
        vector: await query.embedding(),
        k: query.episodicTopK,
        tieBreak: raw(`t."endedAt" DESC`),
      });
      return rows.map(({ id, score, summary, facts, endedAt }) => ({ id, score, content: facts.length > 0 ? `${summary} Key facts: ${facts.join("; ")}.` : summary, occurredAt: new Date(endedAt).toISOString() }));
    },

    async procedural(query): Promise<RetrievedProcedure | null> {
      const approved = query.presence.procedures;
      if (approved.length === 0) return null;
      const triggered = approved.find((procedure) => procedure.trigger && matchesPattern(procedure.trigger, query.text));
      if (triggered) return { id: triggered.id, name: triggered.name, steps: triggered.steps, score: 1, matchedBy: "regex" };
      // An agent has a handful of procedures: comparing them here spares a statement.
      const vector = await query.embedding();
      let best: { procedure: MemoryPresence["procedures"][number]; score: number } | null = null;
      for (const procedure of approved) {
        const score = procedure.embedding.length === vector.length ? dot(procedure.embedding, vector) : -1;
        if (!best || score > best.score) best = { procedure, score };
      }
      return best && best.score >= query.procedureThreshold ? { id: best.procedure.id, name: best.procedure.name, steps: best.procedure.steps, score: best.score, matchedBy: "embedding" } : null;
    },
  };
}

/** Embeddings are unit length: their dot product is their cosine similarity. */
function dot(a: number[], b: number[]): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index]! * b[index]!;
  return sum;
}
