import type { SessionUser } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { sql, empty, type Sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { adminProject } from "@/lib/agents/manage-agents";
import { resolveRange, type UsageFilters, type UsageGrouping } from "./usage-filters";

/** One group's usage: a day (YYYY-MM-DD), an agent or a person. */
export interface UsageRow {
  /** The day, or the agent's or person's id ("" for a deleted agent or a turn no person asked for). */
  key: string;
  label: string;
  inputTokens: number;
  outputTokens: number;
  /** At the agents' prices now (USD per million tokens); unpriced agents count 0. */
  costUsd: number;
  turns: number;
}

export interface UsageReport {
  groupBy: UsageGrouping;
  from: string;
  to: string;
  rows: UsageRow[];
  totals: Omit<UsageRow, "key" | "label">;
}

const groups: Record<UsageGrouping, { key: Sql; label: Sql; order: Sql }> = {
  day: { key: sql`to_char(r."createdAt", 'YYYY-MM-DD')`, label: sql`to_char(r."createdAt", 'YYYY-MM-DD')`, order: sql`1` },
  agent: { key: sql`COALESCE(r."agentId", '')`, label: sql`COALESCE(a."displayName", 'Deleted agent')`, order: sql`SUM(r."inputTokens" + r."outputTokens") DESC, 2` },
  person: {
    key: sql`COALESCE(r."userId", '')`,
    label: sql`CASE WHEN r."userId" IS NULL THEN 'No person' WHEN u."deletedAt" IS NOT NULL THEN 'Deleted user' ELSE u."name" END`,
    order: sql`SUM(r."inputTokens" + r."outputTokens") DESC, 2`,
  },
};

/**
 * The admin's project's stored usage (usage_records) in a range of UTC days, per day, agent or
 * person, optionally for one agent and one person: one statement. Cost is computed here, from
 * each agent's current prices, so a price set today also prices past usage.
 */
export async function readUsage(prisma: Prisma, { actor, filters, now = new Date() }: { actor: SessionUser; filters: UsageFilters; now?: Date }): Promise<UsageReport> {
  const projectId = await adminProject(prisma, actor);
  const { from, to } = resolveRange(filters, now);
  const group = groups[filters.groupBy];
  const after = new Date(`${from}T00:00:00Z`);
  const before = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
  const rows = await prisma.$queryRaw<UsageRow[]>`
    SELECT ${group.key} AS "key", ${group.label} AS "label",
           SUM(r."inputTokens")::float8 AS "inputTokens", SUM(r."outputTokens")::float8 AS "outputTokens", COUNT(*)::int AS "turns",
           (SUM(r."inputTokens" * COALESCE(a."inputUsdPerMillion", 0) + r."outputTokens" * COALESCE(a."outputUsdPerMillion", 0)) / 1000000)::float8 AS "costUsd"
    FROM "usage_records" r
    LEFT JOIN "agents" a ON a."id" = r."agentId"
    LEFT JOIN "users" u ON u."id" = r."userId"
    WHERE r."projectId" = ${projectId} AND r."createdAt" >= ${after} AND r."createdAt" < ${before}
      ${filters.agentId ? sql`AND r."agentId" = ${filters.agentId}` : empty}
      ${filters.userId ? sql`AND r."userId" = ${filters.userId}` : empty}
    GROUP BY 1, 2
    ORDER BY ${group.order}`;
  const totals = rows.reduce(
    (sum, row) => ({ inputTokens: sum.inputTokens + row.inputTokens, outputTokens: sum.outputTokens + row.outputTokens, costUsd: sum.costUsd + row.costUsd, turns: sum.turns + row.turns }),
    { inputTokens: 0, outputTokens: 0, costUsd: 0, turns: 0 },
  );
  return { groupBy: filters.groupBy, from, to, rows, totals };
}

/** What the filters offer: the project's agents (with their prices and caps) and the people who asked them something. */
export async function readUsageChoices(prisma: Prisma, { actor }: { actor: SessionUser }) {
  const projectId = await adminProject(prisma, actor);
  const [agents, people] = await Promise.all([
    prisma.agent.findMany({ where: { projectId }, orderBy: { displayName: "asc" }, select: { id: true, displayName: true, monthlyTokenCap: true, inputUsdPerMillion: true, outputUsdPerMillion: true } }),
    prisma.user.findMany({ where: { deletedAt: null, usageRecords: { some: { projectId } } }, orderBy: { name: "asc" }, select: { id: true, name: true } }),
  ]);
  return { projectId, agents, people };
}
