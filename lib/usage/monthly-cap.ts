import type { Prisma } from "@/lib/db/open-database";

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

/**
 * The agent's cap and what it has spent this month (UTC), in one statement over the
 * (agentId, createdAt) index; checked before each model call of its turns. Null: no cap.
 */
export async function agentMonthlyCap(prisma: Prisma, agentId: string, now = new Date()): Promise<CapState | null> {
  const [row] = await prisma.$queryRaw<{ cap: number | null; used: number }[]>`
    SELECT a."monthlyTokenCap" AS "cap",
           (SELECT COALESCE(SUM(r."inputTokens" + r."outputTokens"), 0)::float8 FROM "usage_records" r WHERE r."agentId" = a."id" AND r."createdAt" >= ${monthStart(now)}) AS "used"
    FROM "agents" a WHERE a."id" = ${agentId} AND a."monthlyTokenCap" IS NOT NULL`;
  return row ? capState(row.used, row.cap) : null;
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
