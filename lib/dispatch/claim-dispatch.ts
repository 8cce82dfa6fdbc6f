import type { Prisma, Transaction } from "@/lib/db/open-database";
import { empty, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { claimJob, pendingRunningTable } from "@/lib/jobs/job-table";

export interface ClaimedDispatch {
  id: string;
  messageId: string;
  agentId: string;
  conversationId: string;
  /** This claim's attempt: the fencing token every write of the turn carries. */
  attempt: number;
  /** Attempts that failed before this one; lastError says why the last did. */
  failures: number;
  lastError?: string | null;
  /** After a handoff: the person's message the turn answers (messageId is the handoff message). */
  askMessageId: string | null;
  /** Which history the turn sees: direct, or the sharing mode of the handoff that made it. */
  mode: "direct" | "summary" | "recent" | "full" | "fork";
  /** recent mode: how many messages. */
  historyLimit: number | null;
  /** Handoffs made so far for the person's message, across fork levels. */
  depth: number;
  /** false after a refused handoff: the orchestrator answers itself. */
  allowHandoff: boolean;
  /** A regeneration: the reply this turn writes a new version of. */
  regeneratesMessageId: string | null;
}

/** Agent turns as leased jobs. */
export const dispatchTable = pendingRunningTable(
  "dispatches",
  "agent turn",
  sql`"id", "messageId", "agentId", "conversationId", "attempt", "failures", "lastError", "askMessageId", "mode", "historyLimit", "depth", "allowHandoff", "regeneratesMessageId"`,
);

/**
 * Takes the next runnable dispatch, leased to this worker:
 * - in order: a dispatch runs only after every earlier unfinished dispatch of the same agent in
 *   the same conversation, so a busy agent answers new messages next, in order;
 * - within the provider's limit: an agent of the OpenAI-compatible provider starts only while
 *   fewer than `providerLimit` of its turns are in flight on all nodes (0: no limit); the others
 *   wait, queued, holding nothing (on a shared PostgreSQL, claims under the limit take an
 *   advisory lock in turn, so two nodes never both count the last free place);
 * - fairly: the conversation served least recently first (its last turn started or ended longest
 *   ago, or never), then the oldest turn, so a room with fifty questions never starves a person
 *   waiting alone in a chat with an agent.
 * `among` limits the search to dispatches just written (found by primary key).
 */
export function claimNextDispatch(
  prisma: Prisma,
  { leaseMs, among, providerLimit = 0, sharedDatabase = false }: { leaseMs: number; among?: string[]; providerLimit?: number; sharedDatabase?: boolean },
): Promise<ClaimedDispatch | null> {
  const inOrder = sql`NOT EXISTS (
    SELECT 1 FROM "dispatches" e
    WHERE e."agentId" = d."agentId" AND e."conversationId" = d."conversationId" AND e."id" <> d."id"
      AND e."status" IN ('pending', 'running')
      AND ((e."createdAt", e."id") < (d."createdAt", d."id") OR (e."status" = 'running' AND e."leaseUntil" >= now())))`;
  const withinLimit =
    providerLimit > 0
      ? sql`AND ((SELECT a."provider" FROM "agents" a WHERE a."id" = d."agentId") <> 'openai'
          OR (SELECT count(*) FROM "dispatches" r JOIN "agents" ra ON ra."id" = r."agentId" WHERE r."status" = 'running' AND r."leaseUntil" >= now() AND ra."provider" = 'openai') < ${providerLimit})`
      : empty;
  const claim = (db: Prisma | Transaction) =>
    claimJob<ClaimedDispatch>(db, dispatchTable, {
      leaseMs,
      filter: sql`${among ? sql`d."id" = ANY(${among}) AND ` : empty}${inOrder} ${withinLimit}`,
      order: sql`(SELECT max(r."updatedAt") FROM "dispatches" r WHERE r."conversationId" = d."conversationId" AND r."status" <> 'pending') NULLS FIRST, d."createdAt", d."id"`,
    });
  // The embedded database runs one statement at a time: nothing can claim between count and claim.
  if (providerLimit <= 0 || !sharedDatabase) return claim(prisma);
  return prisma.$transaction(async (tx) => {
    // Two nodes counting at once would both see room for one more turn: claims under the limit
    // take turns, each counting after the one before it committed.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('chorus.provider-limit'))`;
    return claim(tx);
  });
}
