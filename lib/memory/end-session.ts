import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/db/open-database";
import { EPISODE_INSTRUCTION } from "@/lib/llm/instructions";
import type { ProviderFor } from "@/lib/llm/provider-registry";
import type { LlmProvider } from "@/lib/llm/types";
import { log } from "@/lib/log/logger";
import type { Embedder } from "./embedder";


export interface SessionDeps {
  prisma: Prisma;
  embedder: Embedder;
  providerFor: ProviderFor;
}

interface SessionMessage {
  seq: number;
  content: string;
  createdAt: Date;
  authorUserId: string | null;
  authorAgentId: string | null;
  authorHandle: string | null;
}

/**
 * Ends a conversation's open session (seed 002's write phase): one episode for each person and
 * agent who both spoke in it, with a summary, key facts, the time range and an embedding. The
 * session is claimed first (its end seq moves in one statement), so two nodes, or the idle sweep
 * and a person pressing "End session", never write it twice. Returns how many episodes it wrote.
 */
export async function endSession(deps: SessionDeps, { conversationId }: { conversationId: string }): Promise<number> {
  const { prisma } = deps;
  const [claimed] = await prisma.$queryRaw<{ fromSeq: number; toSeq: number }[]>`
    WITH previous AS (SELECT "sessionClosedSeq" AS "fromSeq" FROM "conversations" WHERE "id" = ${conversationId} FOR UPDATE)
    UPDATE "conversations" c SET "sessionClosedSeq" = c."lastSeq"
    FROM previous WHERE c."id" = ${conversationId} AND c."lastSeq" > previous."fromSeq"
    RETURNING previous."fromSeq" AS "fromSeq", c."lastSeq" AS "toSeq"`;
  if (!claimed) return 0;
  const messages = await prisma.$queryRaw<SessionMessage[]>`
    SELECT m."seq", m."content", m."createdAt", m."authorUserId", m."authorAgentId", COALESCE(u."handle", a."handle") AS "authorHandle"
    FROM "messages" m LEFT JOIN "users" u ON u."id" = m."authorUserId" LEFT JOIN "agents" a ON a."id" = m."authorAgentId"
    WHERE m."conversationId" = ${conversationId} AND m."seq" > ${claimed.fromSeq} AND m."seq" <= ${claimed.toSeq} AND m."role" <> 'system'
    ORDER BY m."seq"`;
  const people = [...new Set(messages.flatMap((message) => (message.authorUserId ? [message.authorUserId] : [])))];
  const agentIds = [...new Set(messages.flatMap((message) => (message.authorAgentId ? [message.authorAgentId] : [])))];
  if (people.length === 0 || agentIds.length === 0) return 0;
  const agents = await prisma.agent.findMany({ where: { id: { in: agentIds } }, select: { id: true, provider: true, model: true } });
  const transcript = messages.map((message) => `${message.authorHandle ?? "someone"}: ${message.content}`).join("\n");
  let written = 0;
  for (const agent of agents) {
    const { summary, facts } = await summariseSession(deps.providerFor(agent), agent.model, transcript);
    const [embedding] = await deps.embedder.embed([episodeEmbeddingText({ summary, facts })]);
    await prisma.episode.createMany({
      data: people.map((userId) => ({
        id: randomUUID(),
        agentId: agent.id,
        userId,
        conversationId,
        summary,
        facts,
        fromSeq: messages[0]!.seq,
        toSeq: messages.at(-1)!.seq,
        startedAt: messages[0]!.createdAt,
        endedAt: messages.at(-1)!.createdAt,
        embedding: embedding!,
      })),
    });
    written += people.length;
  }
  log.info("session ended", { conversationId, episodes: written });
  return written;
}

/** What an episode is recalled by: its summary and facts. */
export const episodeEmbeddingText = (episode: { summary: string; facts: string[] }) => `${episode.summary} ${episode.facts.join(" ")}`;

async function summariseSession(provider: LlmProvider, model: string, transcript: string): Promise<{ summary: string; facts: string[] }> {
  let text = "";
  for await (const event of provider.stream({ model, messages: [{ role: "user", content: `${EPISODE_INSTRUCTION}\n${transcript}` }], temperature: 0, maxOutputTokens: 400 })) {
    if (event.type === "delta") text += event.text;
  }
  const lines = text.split("\n").map((line) => line.trim()).filter(Boolean);
  const facts = lines.filter((line) => line.startsWith("- ")).map((line) => line.slice(2).trim()).slice(0, 10);
  const summary = lines.filter((line) => !line.startsWith("- ")).join(" ").trim() || transcript.slice(0, 300);
  return { summary, facts };
}

/** Conversations quiet for longer than `idleMinutes` with an open session: the sweep ends them. */
export async function idleSessions(prisma: Prisma, idleMinutes: number): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "conversations"
    WHERE "lastSeq" > "sessionClosedSeq" AND "updatedAt" < now() - ${idleMinutes} * interval '1 minute'
    ORDER BY "updatedAt" LIMIT 50`;
  return rows.map((row) => row.id);
}
