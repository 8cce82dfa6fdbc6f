import type { Prisma } from "@/lib/db/open-database";
import { empty, sql } from "@/lib/generated/prisma/internal/prismaNamespace";

export interface ClaimedDispatch {
  id: string;
  messageId: string;
  agentId: string;
  conversationId: string;
  /** This claim's attempt number; finishing requires it to still be the latest. */
  attempts: number;
  /** After a handoff: the person's message the turn answers (messageId is the handoff message). */
  askMessageId: string | null;
  /** Which history the turn sees: direct, or the sharing mode of the handoff that made it. */
  mode: "direct" | "summary" | "recent" | "full" | "fork";
  /** recent mode: how many messages. */
  historyLimit: number | null;
  /** Handoffs made so far for the person's message. */
  depth: number;
  /** false after a refused handoff: the orchestrator answers itself. */
  allowHandoff: boolean;
}

/**
 * Takes the oldest runnable dispatch, leased to this worker. Several workers (and nodes) share
 * the table: SKIP LOCKED keeps them off each other's rows. A dispatch runs only after every
 * earlier unfinished dispatch of the same agent in the same conversation, so a busy agent
 * answers new messages next, in order. A running dispatch whose lease expired (its worker died)
 * is runnable again. `among` limits the search to dispatches just written (found by primary key).
 */
export async function claimNextDispatch(prisma: Prisma, { leaseMs, among }: { leaseMs: number; among?: string[] }): Promise<ClaimedDispatch | null> {
  const [claimed] = await prisma.$queryRaw<ClaimedDispatch[]>`
    UPDATE "dispatches" SET "status" = 'running', "attempts" = "attempts" + 1,
      "leaseUntil" = now() + ${leaseMs} * interval '1 millisecond', "updatedAt" = now()
    WHERE "id" = (
      SELECT d."id" FROM "dispatches" d
      WHERE (d."status" = 'pending' OR (d."status" = 'running' AND d."leaseUntil" < now()))
        ${among ? sql`AND d."id" = ANY(${among})` : empty}
        AND NOT EXISTS (
          SELECT 1 FROM "dispatches" e
          WHERE e."agentId" = d."agentId" AND e."conversationId" = d."conversationId" AND e."id" <> d."id"
            AND e."status" IN ('pending', 'running')
            AND ((e."createdAt", e."id") < (d."createdAt", d."id") OR (e."status" = 'running' AND e."leaseUntil" >= now())))
      ORDER BY d."createdAt", d."id"
      LIMIT 1
      FOR UPDATE SKIP LOCKED)
    RETURNING "id", "messageId", "agentId", "conversationId", "attempts", "askMessageId", "mode", "historyLimit", "depth", "allowHandoff"`;
  return claimed ?? null;
}

/** A long turn keeps its lease alive; false when the dispatch is no longer this attempt's. */
export async function renewLease(prisma: Prisma, { id, attempts, leaseMs }: { id: string; attempts: number; leaseMs: number }): Promise<boolean> {
  const updated = await prisma.$executeRaw`
    UPDATE "dispatches" SET "leaseUntil" = now() + ${leaseMs} * interval '1 millisecond', "updatedAt" = now()
    WHERE "id" = ${id} AND "status" = 'running' AND "attempts" = ${attempts}`;
  return updated === 1;
}

/**
 * Gives a running dispatch back (its node is shutting down): pending again with no lease, so
 * another node claims it on its next poll instead of after the lease runs out. The attempt is
 * not counted against the dispatch.
 */
export async function releaseDispatch(prisma: Prisma, { id, attempts }: { id: string; attempts: number }): Promise<boolean> {
  const updated = await prisma.$executeRaw`
    UPDATE "dispatches" SET "status" = 'pending', "attempts" = "attempts" - 1, "leaseUntil" = NULL, "updatedAt" = now()
    WHERE "id" = ${id} AND "status" = 'running' AND "attempts" = ${attempts}`;
  return updated === 1;
}
