import type { TurnRow } from "@/lib/agents/load-turn-context";
import type { Prisma } from "@/lib/db/open-database";
import { sql, type Sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { nodeName, pendingRunningTable } from "@/lib/jobs/job-table";
import { monthlyUsageColumn, type MonthlyUsage } from "@/lib/usage/monthly-cap";
import { rawRows } from "@/lib/db/raw-statements";

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
  /**
   * What the turn loads (chorus_turn_context), read by the claim's statement: null when that
   * loading failed (the turn loads again, and fails as a turn); absent when the job was not
   * claimed (a handoff's next turn, a panel's).
   */
  turn?: TurnRow | null;
  /** The agent's monthly cap and its use so far (null: no cap), read by the claim's statement; absent when the job was not claimed. */
  monthlyUsage?: MonthlyUsage | null;
}

/** Agent turns as leased jobs. */
export const dispatchTable = pendingRunningTable(
  "dispatches",
  "agent turn",
  sql`"id", "messageId", "agentId", "conversationId", "attempt", "failures", "lastError", "askMessageId", "mode", "historyLimit", "depth", "allowHandoff", "regeneratesMessageId"`,
);

/** How a dispatch is claimed: the lease, and the provider's limit on turns in flight (PROVIDER_MAX_CONCURRENT). */
export interface DispatchClaim {
  leaseMs: number;
  providerLimit: number;
  /** Other nodes claim from the same PostgreSQL (not the embedded database): the limit is counted under a lock. */
  sharedDatabase: boolean;
}

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
 * The claimed turn comes with its loading (`turn`) and its agent's monthly usage: one round trip instead of three before the model is called.
 */
export async function claimNextDispatch(
  prisma: Prisma,
  { leaseMs, among, providerLimit = 0, sharedDatabase = false }: { leaseMs: number; among?: string[]; providerLimit?: number; sharedDatabase?: boolean },
): Promise<ClaimedDispatch | null> {
  const [row] = await rawRows<ClaimedDispatch>(prisma, claimedDispatches({ leaseMs, providerLimit, sharedDatabase }, sql`${among ?? null}::text[]`));
  return row ?? null;
}

/**
 * The query that claims (at most one of) `among` (an SQL text array; NULL: any runnable
 * dispatch) and returns it as ClaimedDispatch's columns; a post that writes dispatches claims
 * one with it in its own statement (post-message.ts).
 */
export function claimedDispatches({ leaseMs, providerLimit, sharedDatabase }: DispatchClaim, among: Sql): Sql {
  // One statement, chorus_claim_dispatch (migration 20261127020000_turn_functions), whose plan is
  // kept. The embedded database runs one statement at a time, so only a shared PostgreSQL needs
  // the lock: two nodes counting at once would both see room for one more turn. The loading
  // (migration 20261127100000_claim_with_turn) reads what was committed after the claim
  // (20261128010000_claimed_turn_fresh_snapshot), which holds the message: it was written with its
  // dispatch, perhaps while the claim waited for the lock.
  return sql`
    SELECT ${dispatchTable.columns}, "chorus_claimed_turn_context"(d) AS "turn", ${monthlyUsageColumn(sql`d."agentId"`)} AS "monthlyUsage"
    FROM "chorus_claim_dispatch"(${Math.round(leaseMs)}::int, ${among}, ${providerLimit}::int, ${providerLimit > 0 && sharedDatabase}, ${nodeName}) d`;
}
