import type { RetrievedEpisode, RetrievedKnowledge, RetrievedProcedure } from "@/lib/context/types";
import { raw, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import type { Prisma } from "@/lib/db/open-database";
import type { Embedder } from "./embedder";
import { searchKnowledge } from "./knowledge-search";
import type { MemoryQuery, MemoryStores } from "./retrieve-memory";
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
 * - semantic: the agent's knowledge chunks, by meaning or by meaning and words (hybrid: one
 *   more statement, run while the question is embedded; lib/memory/knowledge-search.ts), each
 *   with its document's name;
 * - procedural: the agent's approved procedures: a trigger match first, else the most similar
 *   one if it clears the threshold; at most one.
 * The turn's loading statement says what exists (MemoryQuery.presence), so an agent without
 * memory costs no embedding.
 */
export function createMemoryStores({ prisma, vectors, embedder }: { prisma: Prisma; vectors: VectorStore; embedder: Embedder }): MemoryStores {
  return {
    embed: async (text) => (await embedder.embed([text]))[0]!,

    async semantic(query): Promise<RetrievedKnowledge[]> {
      if (query.semanticTopK === 0 || !query.presence.knowledge) return [];
      return searchKnowledge({ prisma, vectors }, query);
    },

    async episodic(query): Promise<RetrievedEpisode[]> {
      if (query.episodicTopK === 0 || !query.presence.episodes) return [];
      const rows = await vectors.nearest<{ id: string; score: number; summary: string; facts: string[]; endedAt: Date | string }>({
        table: "episodes",
        // With its zone: a search that shares its statement returns its rows as JSON (lib/memory/vector-store.ts).
        columns: sql`t."summary", t."facts", (t."endedAt" AT TIME ZONE 'UTC') AS "endedAt"`,
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
      // Ranked in the database, in the statement of the turn's other vector searches: the turn
      // loads the procedures without their embeddings. On a tie, the newest.
      const [best] = await vectors.nearest({
        table: "procedures",
        columns: sql`t."updatedAt"`,
        where: sql`t."agentId" = ${query.agentId} AND t."status" = 'approved'`,
        vector: await query.embedding(),
        k: 1,
        tieBreak: raw(`t."updatedAt" DESC`),
      });
      if (!best || best.score < query.procedureThreshold) return null;
      // One approved since the turn loaded is left for the next turn.
      const procedure = approved.find((each) => each.id === best.id);
      return procedure ? { id: procedure.id, name: procedure.name, steps: procedure.steps, score: best.score, matchedBy: "embedding" } : null;
    },
  };
}
