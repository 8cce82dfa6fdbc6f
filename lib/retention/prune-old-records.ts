import { THROTTLE_WINDOW_S } from "@/lib/auth/sign-in-throttle";
import type { Prisma } from "@/lib/db/open-database";
import { empty, raw, sql } from "@/lib/generated/prisma/internal/prismaNamespace";

type Sql = ReturnType<typeof sql>;

/** How long records are kept, in days; 0 keeps them forever. */
export interface RetentionPolicy {
  /** Context snapshots (what an agent saw for a turn). */
  snapshotDays: number;
  /** Finished work: dispatches and session ends that are done or failed, and the turn records of finished panels. */
  jobDays: number;
}

interface PruneRule {
  table: string;
  /** The primary key column. */
  key: string;
  keepDays(policy: RetentionPolicy): number;
  /** Joins after `FROM table t`, when the age or the state lives in another table. */
  join?: Sql;
  /** Which rows of `t` are past `cutoff` (a timestamp expression) and may go. */
  expired(cutoff: Sql): Sql;
}

/**
 * A throttle row whose window and block ended is the same as no row (lib/auth/sign-in-throttle.ts);
 * a day's grace keeps recent ones readable for whoever looks into an attack.
 */
const THROTTLE_GRACE_DAYS = 1;

/** One entry per table: adding a table to the sweep is one line here. Ages are the database's clock, so nodes agree. */
const rules = {
  contextSnapshots: { table: "context_snapshots", key: "turnId", keepDays: (policy) => policy.snapshotDays, expired: (cutoff) => sql`t."createdAt" < ${cutoff}` },
  // By createdAt, which dispatches_status_createdAt_idx serves; a turn finishes seconds after it is created.
  dispatches: { table: "dispatches", key: "id", keepDays: (policy) => policy.jobDays, expired: (cutoff) => sql`t."status" IN ('done', 'failed') AND t."createdAt" < ${cutoff}` },
  // Panels, answers and votes stay: "Show the panel" on the final message reads them (lib/panels/panel-view.ts copes without turns).
  panelTurns: { table: "panel_turns", key: "id", keepDays: (policy) => policy.jobDays, join: sql`JOIN "panels" p ON p."id" = t."panelId"`, expired: (cutoff) => sql`p."status" = 'finished' AND t."startedAt" < ${cutoff}` },
  // A finished session end's episodes stay (their sessionEndId becomes null).
  sessionEnds: { table: "session_ends", key: "id", keepDays: (policy) => policy.jobDays, expired: (cutoff) => sql`t."status" IN ('done', 'failed') AND t."createdAt" < ${cutoff}` },
  // Per-minute provider counts matter for the current minute only.
  providerUsage: { table: "provider_usage", key: "ctid", keepDays: () => 1, expired: (cutoff) => sql`t."window" < ${cutoff}` },
  signInThrottles: { table: "sign_in_throttles", key: "key", keepDays: () => THROTTLE_GRACE_DAYS, expired: (cutoff) => sql`t."windowStartedAt" < ${cutoff} - ${THROTTLE_WINDOW_S} * interval '1 second' AND (t."blockedUntil" IS NULL OR t."blockedUntil" < ${cutoff})` },
} satisfies Record<string, PruneRule>;

export type PruneCounts = Record<keyof typeof rules, number>;

export interface PruneOptions {
  /** Rows per DELETE: short statements, short locks. */
  batchSize?: number;
  /** Checked between batches: shutdown stops a long sweep early (the rest goes next time). */
  shouldStop?: () => boolean;
}

/**
 * Deletes every record older than the policy allows, in batches, and says how many went per
 * table. Safe to run on every node at once: each batch locks its rows with SKIP LOCKED, so two
 * sweeps never wait for (or delete) the same rows, and running it again deletes nothing more.
 */
export async function pruneOldRecords(prisma: Prisma, policy: RetentionPolicy, { batchSize = 1_000, shouldStop = () => false }: PruneOptions = {}): Promise<PruneCounts> {
  const counts = Object.fromEntries(Object.keys(rules).map((name) => [name, 0])) as PruneCounts;
  for (const [name, rule] of Object.entries(rules) as [keyof typeof rules, PruneRule][]) {
    const days = rule.keepDays(policy);
    if (days <= 0) continue;
    const cutoff = sql`now() - ${days} * interval '1 day'`;
    for (;;) {
      const deleted = await deleteBatch(prisma, rule, cutoff, batchSize);
      counts[name] += deleted;
      if (deleted < batchSize || shouldStop()) break;
    }
  }
  return counts;
}

function deleteBatch(prisma: Prisma, rule: PruneRule, cutoff: Sql, batchSize: number): Promise<number> {
  const table = raw(`"${rule.table}"`);
  const key = raw(`"${rule.key}"`);
  return prisma.$executeRaw`
    DELETE FROM ${table} WHERE ${key} IN (
      SELECT t.${key} FROM ${table} t ${rule.join ?? empty}
      WHERE ${rule.expired(cutoff)}
      LIMIT ${batchSize} FOR UPDATE OF t SKIP LOCKED)`;
}
