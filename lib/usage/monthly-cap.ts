import type { Prisma } from "@/lib/db/open-database";
import { sql, type Sql } from "@/lib/generated/prisma/internal/prismaNamespace";

/** From this share of its cap on, an agent's usage is shown to admins as a warning. */
export const CAP_WARNING_PERCENT = 80;

/** Where an agent stands against its monthly token cap. */
export interface CapState {
  cap: number;
  used: number;
  /** Whole percent of the cap used, rounded down (so 100 means reached). */
  percent: number;
  /** At 80 % or more: admins are warned. */
  warn: boolean;
  /** At 100 % or more: the agent answers with capReachedText instead of calling its model. */
  reached: boolean;
}

/** The first instant of `now`'s calendar month in UTC: caps count from there. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** Null when the agent has no cap. */
export function capState(used: number, cap: number | null): CapState | null {
  if (cap === null) return null;
  const percent = Math.floor((used * 100) / cap);
  return { cap, used, percent, warn: percent >= CAP_WARNING_PERCENT, reached: used >= cap };
}

const tokens = (count: number) => `${count.toLocaleString("en")} token${count === 1 ? "" : "s"}`;

/** The agent's reply instead of a model call once its cap is reached. */
export function capReachedText(agentName: string, cap: number): string {
  return `${agentName} has reached its monthly token cap (${tokens(cap)}); an admin can raise it in the agent's settings.`;
}

/** The warning admins see at 80 % and more. */
export function capWarningText(state: CapState): string {
  return state.reached
    ? `Monthly token cap reached: ${state.used.toLocaleString("en")} of ${tokens(state.cap)} used. The agent answers that it has reached its cap until next month or until the cap is raised.`
    : `${state.percent}% of this month's cap used (${state.used.toLocaleString("en")} of ${tokens(state.cap)}).`;
}

/** An agent's cap and what it has spent this month, as a statement reads them. */
export interface MonthlyUsage {
  cap: number;
  used: number;
}

/**
 * The agent's cap and what it has spent this month (UTC) as one JSON value, `{ cap, used }`, or
 * NULL when it has no cap: a column for any statement that knows the agent, over the
 * (agentId, createdAt) index. A turn reads it with its loading (the dispatch claim, or
 * loadTurnContext), a panel turn with its start, so the check before a model call costs no
 * statement of its own.
 */
export function monthlyUsageColumn(agentId: Sql, now = new Date()): Sql {
  return sql`(SELECT json_build_object('cap', a."monthlyTokenCap",
      'used', (SELECT COALESCE(SUM(r."inputTokens" + r."outputTokens"), 0)::float8 FROM "usage_records" r WHERE r."agentId" = a."id" AND r."createdAt" >= ${monthStart(now)}))
    FROM "agents" a WHERE a."id" = ${agentId} AND a."monthlyTokenCap" IS NOT NULL)`;
}

/** Where a monthly usage read by a statement stands against its cap (null: no cap). */
export function capOf(usage: MonthlyUsage | null): CapState | null {
  return usage ? capState(usage.used, usage.cap) : null;
}

/** The agent's cap and what it has spent this month, in one statement (its settings page; turns read it with their loading). Null: no cap. */
export async function agentMonthlyCap(prisma: Prisma, agentId: string, now = new Date()): Promise<CapState | null> {
  const [row] = await prisma.$queryRaw<{ usage: MonthlyUsage | null }[]>`SELECT ${monthlyUsageColumn(sql`${agentId}`, now)} AS "usage"`;
  return capOf(row?.usage ?? null);
}

/** Every capped agent of a project with where it stands this month, in one statement: for the agents list and the usage page. */
export async function projectMonthlyCaps(prisma: Prisma, projectId: string, now = new Date()): Promise<Map<string, CapState>> {
  const rows = await prisma.$queryRaw<{ agentId: string; cap: number; used: number }[]>`
    SELECT a."id" AS "agentId", a."monthlyTokenCap" AS "cap", COALESCE(SUM(r."inputTokens" + r."outputTokens"), 0)::float8 AS "used"
    FROM "agents" a
    LEFT JOIN "usage_records" r ON r."agentId" = a."id" AND r."createdAt" >= ${monthStart(now)}
    WHERE a."projectId" = ${projectId} AND a."monthlyTokenCap" IS NOT NULL
    GROUP BY a."id"`;
  return new Map(rows.map((row) => [row.agentId, capState(row.used, row.cap)!]));
}
