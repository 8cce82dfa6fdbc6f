import type { RetrievedEpisode, RetrievedKnowledge, RetrievedProcedure } from "@/lib/context/types";
import type { Prisma } from "@/lib/db/open-database";
import { raw, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import type { Embedder } from "./embedder";
import type { MemoryStores } from "./retrieve-memory";
import { matchesTrigger } from "./trigger-pattern";
import type { VectorStore } from "./vector-store";

/**
 * The three memory searches over the database:
 * - episodic: the asking person's episodes with this agent, most similar first, newer first on a tie;
 * - semantic: the agent's knowledge chunks, most similar first, each with its document's name;
 * - procedural: the agent's approved procedures: a trigger match first, else the most similar
 *   one if it clears the threshold; at most one.
 */
export function createMemoryStores({ prisma, vectors, embedder }: { prisma: Prisma; vectors: VectorStore; embedder: Embedder }): MemoryStores {
  return {
    embed: async (text) => (await embedder.embed([text]))[0]!,

    async semantic(query): Promise<RetrievedKnowledge[]> {
      if (query.semanticTopK === 0 || !(await hasRows(prisma, sql`SELECT 1 FROM "knowledge_chunks" WHERE "agentId" = ${query.agentId} LIMIT 1`))) return [];
      const nearest = await vectors.nearest("knowledge_chunks", sql`"agentId" = ${query.agentId}`, await query.embedding(), query.semanticTopK);
      const rows = await prisma.knowledgeChunk.findMany({ where: { id: { in: nearest.map((row) => row.id) } }, select: { id: true, content: true, document: { select: { name: true } } } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return nearest.flatMap(({ id, score }) => {
        const row = byId.get(id);
        return row ? [{ id, content: row.content, source: row.document.name, score }] : [];
      });
    },

    async episodic(query): Promise<RetrievedEpisode[]> {
      if (!query.userId || query.episodicTopK === 0) return [];
      const where = sql`"agentId" = ${query.agentId} AND "userId" = ${query.userId}`;
      if (!(await hasRows(prisma, sql`SELECT 1 FROM "episodes" WHERE ${where} LIMIT 1`))) return [];
      const nearest = await vectors.nearest("episodes", where, await query.embedding(), query.episodicTopK, raw(`"endedAt" DESC`));
      const rows = await prisma.episode.findMany({ where: { id: { in: nearest.map((row) => row.id) } }, select: { id: true, summary: true, facts: true, endedAt: true } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return nearest.flatMap(({ id, score }) => {
        const row = byId.get(id);
        if (!row) return [];
        const facts = row.facts.length > 0 ? ` Key facts: ${row.facts.join("; ")}.` : "";
        return [{ id, content: `${row.summary}${facts}`, occurredAt: row.endedAt.toISOString(), score }];
      });
    },

    async procedural(query): Promise<RetrievedProcedure | null> {
      const approved = await prisma.procedure.findMany({
        where: { agentId: query.agentId, status: "approved" },
        orderBy: { updatedAt: "desc" },
        select: { id: true, name: true, trigger: true, steps: true },
      });
      if (approved.length === 0) return null;
      const triggered = approved.find((procedure) => procedure.trigger && matchesTrigger(procedure.trigger, query.text));
      if (triggered) return { id: triggered.id, name: triggered.name, steps: triggered.steps, score: 1, matchedBy: "regex" };
      const [best] = await vectors.nearest("procedures", sql`"agentId" = ${query.agentId} AND "status" = 'approved'`, await query.embedding(), 1);
      const procedure = best && best.score >= query.procedureThreshold ? approved.find((candidate) => candidate.id === best.id) : undefined;
      return procedure && best ? { id: procedure.id, name: procedure.name, steps: procedure.steps, score: best.score, matchedBy: "embedding" } : null;
    },
  };
}

/** Most agents have no knowledge or episodes yet: a cheap check spares embedding the message. */
async function hasRows(prisma: Prisma, query: ReturnType<typeof sql>): Promise<boolean> {
  return (await prisma.$queryRaw<unknown[]>(query)).length > 0;
}
