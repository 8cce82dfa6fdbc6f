import { randomUUID } from "node:crypto";
import { readContextSettings } from "@/lib/agents/agent-settings";
import type { Prisma } from "@/lib/db/open-database";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { pendingRunningTable, updateHeldJob } from "@/lib/jobs/job-table";
import type { Lease } from "@/lib/jobs/lease";
import { startLeasedWorker, type ClaimedJob, type LeasedWorker } from "@/lib/jobs/leased-worker";
import type { ProviderFor } from "@/lib/llm/provider-registry";
import { counterFor } from "@/lib/llm/token-counter";
import { LlmError } from "@/lib/llm/types";
import { log } from "@/lib/log/logger";
import { EmbeddingError, type Embedder } from "./embedder";
import { readSessionEnd, type SessionEndView } from "./session-end-view";
import { episodeSources, type SessionMessage } from "./session-transcripts";
import { summariseSession, type SessionSummary } from "./summarise-session";

export interface SessionDeps {
  prisma: Prisma;
  embedder: Embedder;
  providerFor: ProviderFor;
  /** Tells the person who pressed End session how it went (their own episodes only). */
  onUpdate(userId: string, view: SessionEndView): void;
}

export interface ClaimedSessionEnd extends ClaimedJob {
  conversationId: string;
  fromSeq: number;
  toSeq: number;
  requestedBy: string | null;
}

/** A session's end is a leased job: done once its episodes are written, or failed with the reason. */
export const sessionEndTable = pendingRunningTable("session_ends", "session end", sql`"id", "conversationId", "fromSeq", "toSeq", "requestedBy", "attempt", "failures", "lastError"`);

/**
 * Ends a conversation's open session now (seed 002's write phase), recorded in one statement:
 * the session's range is closed and its job queued together, so its messages become episodes
 * once, whichever node or sweep ends it, and a failure later loses nothing. Returns the job's
 * id, or null when nothing was said since the last end.
 */
export async function requestSessionEnd(prisma: Prisma, { conversationId, requestedBy }: { conversationId: string; requestedBy: string | null }): Promise<string | null> {
  const [row] = await prisma.$queryRaw<{ id: string }[]>`
    WITH previous AS (SELECT "sessionClosedSeq" AS "fromSeq" FROM "conversations" WHERE "id" = ${conversationId} AND "type" <> 'fork' FOR UPDATE),
    closed AS (
      UPDATE "conversations" c SET "sessionClosedSeq" = c."lastSeq"
      FROM previous WHERE c."id" = ${conversationId} AND c."lastSeq" > previous."fromSeq"
      RETURNING previous."fromSeq" AS "fromSeq", c."lastSeq" AS "toSeq"
    )
    INSERT INTO "session_ends" ("id", "conversationId", "fromSeq", "toSeq", "requestedBy")
    SELECT ${randomUUID()}, ${conversationId}, "fromSeq", "toSeq", ${requestedBy} FROM closed
    RETURNING "id"`;
  return row?.id ?? null;
}

/**
 * The idle sweep's one statement: every conversation quiet for `idleMinutes` with an open
 * session (oldest first, at most `limit`) has it closed and its job queued. SKIP LOCKED keeps
 * two nodes' sweeps off the same conversation. Returns the jobs' ids.
 */
export async function enqueueIdleSessions(prisma: Prisma, { idleMinutes, limit = 100 }: { idleMinutes: number; limit?: number }): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    WITH idle AS (
      SELECT "id", "sessionClosedSeq" AS "fromSeq", "lastSeq" AS "toSeq" FROM "conversations"
      WHERE "lastSeq" > "sessionClosedSeq" AND "type" <> 'fork' AND "updatedAt" < now() - ${idleMinutes} * interval '1 minute'
      ORDER BY "updatedAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ), closed AS (
      UPDATE "conversations" c SET "sessionClosedSeq" = idle."toSeq" FROM idle WHERE c."id" = idle."id"
    )
    INSERT INTO "session_ends" ("id", "conversationId", "fromSeq", "toSeq")
    SELECT gen_random_uuid()::text, "id", "fromSeq", "toSeq" FROM idle
    RETURNING "id"`;
  return rows.map((row) => row.id);
}

async function sessionMessages(prisma: Prisma, job: ClaimedSessionEnd): Promise<{ type: string; messages: SessionMessage[] }> {
  const messages = await prisma.$queryRaw<SessionMessage[]>`
    SELECT m."id", m."seq", m."content", m."createdAt", m."authorUserId", m."authorAgentId", COALESCE(u."handle", a."handle") AS "authorHandle",
           m."metadata"->>'replyToMessageId' AS "replyToMessageId",
           ARRAY(SELECT x."userId" FROM "message_mentions" x WHERE x."messageId" = m."id" AND x."userId" IS NOT NULL) AS "mentionedUserIds",
           ARRAY(SELECT x."agentId" FROM "message_mentions" x WHERE x."messageId" = m."id" AND x."agentId" IS NOT NULL) AS "mentionedAgentIds"
    FROM "messages" m LEFT JOIN "users" u ON u."id" = m."authorUserId" LEFT JOIN "agents" a ON a."id" = m."authorAgentId"
    WHERE m."conversationId" = ${job.conversationId} AND m."seq" > ${job.fromSeq} AND m."seq" <= ${job.toSeq} AND m."role" <> 'system'
      -- Episodes remember what people and agents said, not the agents' tool steps.
      AND m."role" <> 'tool' AND NOT (m."metadata" ? 'toolStep')
    ORDER BY m."seq"`;
  const conversation = await prisma.conversation.findUnique({ where: { id: job.conversationId }, select: { type: true } });
  return { type: conversation?.type ?? "group", messages };
}

/**
 * Writes a session's episodes (see episodeSources: per person, plus a channel's own summary),
 * each summarised within its agent's model budget and embedded, then stores them and marks the
 * job done in one transaction, only while this attempt holds the job. A model or embedding
 * failure throws: the worker retries later, and nothing is lost.
 */
export async function writeEpisodes(deps: SessionDeps, job: ClaimedSessionEnd, lease: Lease): Promise<void> {
  const { prisma } = deps;
  const { type, messages } = await sessionMessages(prisma, job);
  const sources = episodeSources(type, messages);
  const agents = await prisma.agent.findMany({ where: { id: { in: [...new Set(sources.map((source) => source.agentId))] } }, select: { id: true, provider: true, model: true, contextSettings: true } });
  const episodes: (SessionSummary & { agentId: string; userId: string | null; fromSeq: number; toSeq: number; startedAt: Date; endedAt: Date })[] = [];
  for (const source of sources) {
    const agent = agents.find((candidate) => candidate.id === source.agentId);
    if (!agent) continue; // deleted since: it keeps nothing
    lease.signal.throwIfAborted();
    const counter = counterFor(agent.model);
    const summary = await summariseSession(
      { provider: deps.providerFor(agent), model: agent.model, budget: readContextSettings(agent.contextSettings).maxWorkingMemoryTokens, count: (text) => counter.count(text), signal: lease.signal },
      source.messages.map((message) => `${message.authorHandle ?? "someone"}: ${message.content}`),
    );
    const first = source.messages[0]!;
    const last = source.messages.at(-1)!;
    episodes.push({ ...summary, agentId: agent.id, userId: source.userId, fromSeq: first.seq, toSeq: last.seq, startedAt: first.createdAt, endedAt: last.createdAt });
  }
  const embeddings = episodes.length > 0 ? await deps.embedder.embed(episodes.map(episodeEmbeddingText)) : [];
  lease.assertHeld();
  const written = await prisma.$transaction(async (tx) => {
    if (!(await updateHeldJob(tx, sessionEndTable, lease, sql`"status" = 'done', "episodes" = ${episodes.length}, "leaseUntil" = NULL, "leasedBy" = NULL, "lastError" = NULL`))) return false;
    await tx.episode.createMany({
      data: episodes.map((episode, index) => ({ id: randomUUID(), sessionEndId: job.id, conversationId: job.conversationId, embedding: embeddings[index]!, ...episode })),
      skipDuplicates: true,
    });
    return true;
  });
  if (!written) return lease.lose("its episodes were refused: another attempt owns the session end");
  log.info("session ended", { conversationId: job.conversationId, sessionEndId: job.id, episodes: episodes.length });
  await tell(deps, job);
}

/** What an episode is recalled by: its summary and facts. */
export const episodeEmbeddingText = (episode: { summary: string; facts: string[] }) => `${episode.summary} ${episode.facts.join(" ")}`;

/** Why no episodes were kept, in words a person can act on (never an internal error's text). */
export function sessionEndFailureReason(error: unknown): string {
  if (error instanceof LlmError || error instanceof EmbeddingError) return `${error.message} Nothing was kept from this session.`;
  return "Chorus could not write the memories of this session (a server error; see the server log). Nothing was kept from it.";
}

async function giveUpSessionEnd(deps: SessionDeps, job: ClaimedSessionEnd, lease: Lease, reason: unknown): Promise<void> {
  log.error("session end given up", { sessionEndId: job.id, conversationId: job.conversationId, failures: job.failures, reason });
  const why = sessionEndFailureReason(reason);
  if (await updateHeldJob(deps.prisma, sessionEndTable, lease, sql`"status" = 'failed', "lastError" = ${why}, "leaseUntil" = NULL, "leasedBy" = NULL`)) await tell(deps, job);
}

async function tell(deps: SessionDeps, job: ClaimedSessionEnd): Promise<void> {
  if (!job.requestedBy) return;
  const view = await readSessionEnd(deps.prisma, { id: job.id, userId: job.requestedBy });
  if (view) deps.onUpdate(job.requestedBy, view);
}

export type SessionEndWorker = LeasedWorker<ClaimedSessionEnd>;

/**
 * Writes ended sessions' episodes on the leased-job loop (lib/jobs). A model that is down is
 * retried with backoff for about an hour before the job gives up, with the reason.
 */
export function startSessionEndWorker(deps: SessionDeps, { leaseMs = 60_000, pollMs = 2_000 }: { leaseMs?: number; pollMs?: number } = {}): SessionEndWorker {
  return startLeasedWorker({
    prisma: deps.prisma,
    table: sessionEndTable,
    run: (job, lease) => writeEpisodes(deps, job, lease),
    giveUp: (job, lease, reason) => giveUpSessionEnd(deps, job, lease, reason),
    leaseMs,
    pollMs,
    concurrency: 2,
    maxFailures: 12,
    backoff: { baseMs: 5_000, maxMs: 10 * 60_000 },
  });
}
