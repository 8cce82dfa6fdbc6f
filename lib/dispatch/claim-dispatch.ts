import type { Prisma } from "@/lib/db/open-database";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
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
}

/** Agent turns as leased jobs. */
export const dispatchTable = pendingRunningTable(
  "dispatches",
  "agent turn",
  sql`"id", "messageId", "agentId", "conversationId", "attempt", "failures", "lastError", "askMessageId", "mode", "historyLimit", "depth", "allowHandoff"`,
);

/**
 * Takes the oldest runnable dispatch, leased to this worker. A dispatch runs only after every
 * earlier unfinished dispatch of the same agent in the same conversation, so a busy agent
 * answers new messages next, in order. `among` limits the search to dispatches just written
 * (found by primary key).
 */
export function claimNextDispatch(prisma: Prisma, { leaseMs, among }: { leaseMs: number; among?: string[] }): Promise<ClaimedDispatch | null> {
  const inOrder = sql`NOT EXISTS (
    SELECT 1 FROM "dispatches" e
    WHERE e."agentId" = d."agentId" AND e."conversationId" = d."conversationId" AND e."id" <> d."id"
      AND e."status" IN ('pending', 'running')
      AND ((e."createdAt", e."id") < (d."createdAt", d."id") OR (e."status" = 'running' AND e."leaseUntil" >= now())))`;
  return claimJob<ClaimedDispatch>(prisma, dispatchTable, {
    leaseMs,
    filter: among ? sql`d."id" = ANY(${among}) AND ${inOrder}` : inOrder,
    order: sql`d."createdAt", d."id"`,
  });
}
