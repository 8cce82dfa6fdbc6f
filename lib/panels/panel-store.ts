import type { Prisma } from "@/lib/db/open-database";
import { rawRows } from "@/lib/db/raw-statements";
import { empty, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import type { Fence } from "@/lib/jobs/job-table";
import { insertPanelUsage, type TurnUsage } from "@/lib/usage/record-usage";
import { capOf, monthlyUsageColumn, type CapState, type MonthlyUsage } from "@/lib/usage/monthly-cap";
import type { AnswerRecord, VoteRecord } from "./tally-votes";
import type { PanelRecord, TurnRecord } from "./panel-view";

export interface PanelState {
  panel: PanelRecord & { agentIds: string[]; deadline: Date };
  /** The panel's agents that still exist, in the panel's order. */
  agents: { id: string; handle: string; displayName: string; color: string }[];
  turns: TurnRecord[];
  answers: AnswerRecord[];
  votes: VoteRecord[];
}

/** Everything a coordinator (or a reader) needs to know about a panel, oldest records first. */
export async function loadPanelState(prisma: Prisma, panelId: string): Promise<PanelState | null> {
  const panel = await prisma.panel.findUnique({
    where: { id: panelId },
    select: {
      id: true,
      conversationId: true,
      questionMessageId: true,
      status: true,
      endedReason: true,
      maxRounds: true,
      tokensUsed: true,
      tokenCap: true,
      finalMessageId: true,
      agentIds: true,
      deadline: true,
      turns: { orderBy: { startedAt: "asc" }, select: { id: true, agentId: true, round: true, status: true, error: true } },
      answers: { orderBy: { createdAt: "asc" }, select: { id: true, agentId: true, content: true, createdAt: true, turnId: true } },
      votes: { orderBy: { createdAt: "asc" }, select: { id: true, voterAgentId: true, answerId: true, reason: true, createdAt: true } },
    },
  });
  if (!panel) return null;
  const rows = await prisma.agent.findMany({ where: { id: { in: panel.agentIds } }, select: { id: true, handle: true, displayName: true, color: true } });
  const agents = panel.agentIds.flatMap((id) => rows.filter((row) => row.id === id));
  const { turns, answers, votes, ...record } = panel;
  return { panel: record, agents, turns, answers, votes };
}

/** Every write below happens only while the coordinator's attempt holds the panel (`fence`); each says whether it did. */
export async function recordTurnStart(prisma: Prisma, fence: Fence, turn: { id: string; panelId: string; agentId: string; round: number }): Promise<{ recorded: boolean; monthlyCap: CapState | null }> {
  const [row] = await rawRows<{ recorded: boolean; monthlyUsage: MonthlyUsage | null }>(prisma, sql`
    WITH started AS (
      INSERT INTO "panel_turns" ("id", "panelId", "agentId", "round") SELECT ${turn.id}, ${turn.panelId}, ${turn.agentId}, ${turn.round} WHERE ${fence.holds}
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM started) AS "recorded", ${monthlyUsageColumn(sql`${turn.agentId}`)} AS "monthlyUsage"`);
  return { recorded: row?.recorded === true, monthlyCap: capOf(row?.monthlyUsage ?? null) };
}

/**
 * A turn's end in one statement: its status and tokens, the tokens added to the panel's total,
 * what its model call spent (lib/usage), and the answer or vote it produced.
 */
export async function recordTurnEnd(
  prisma: Prisma,
  fence: Fence,
  end: { turnId: string; panelId: string; agentId: string; status: "answered" | "voted" | "restarted" | "failed"; tokens: number; usage?: TurnUsage; error?: string; answer?: AnswerRecord; vote?: VoteRecord },
): Promise<boolean> {
  const { answer, vote, usage } = end;
  const [row] = await rawRows<{ held: boolean }>(prisma, sql`
    WITH held AS (SELECT 1 WHERE ${fence.holds}), ended AS (
      UPDATE "panel_turns" SET "status" = ${end.status}, "tokens" = ${end.tokens}, "error" = ${end.error ?? null}, "endedAt" = now()
      WHERE "id" = ${end.turnId} AND EXISTS (SELECT 1 FROM held)
    ), spent AS (
      UPDATE "panels" SET "tokensUsed" = "tokensUsed" + ${end.tokens}, "updatedAt" = now() WHERE "id" = ${end.panelId} AND EXISTS (SELECT 1 FROM held)
    )${usage ? sql`, counted AS (${insertPanelUsage(end, usage, sql`EXISTS (SELECT 1 FROM held)`)})` : empty}${answer ? sql`, answered AS (
      INSERT INTO "panel_answers" ("id", "panelId", "agentId", "turnId", "content", "createdAt")
      SELECT ${answer.id}, ${end.panelId}, ${answer.agentId}, ${end.turnId}, ${answer.content}, ${answer.createdAt} FROM held
    )` : empty}${vote ? sql`, voted AS (
      INSERT INTO "panel_votes" ("id", "panelId", "voterAgentId", "answerId", "reason", "turnId", "createdAt")
      SELECT ${vote.id}, ${end.panelId}, ${vote.voterAgentId}, ${vote.answerId}, ${vote.reason}, ${end.turnId}, ${vote.createdAt} FROM held
    )` : empty}
    SELECT EXISTS (SELECT 1 FROM held) AS "held"`);
  return row?.held === true;
}

/** Turns an earlier coordinator left working (it died or stalled): they will never end, so they count as restarted. */
export async function closeAbandonedTurns(prisma: Prisma, fence: Fence, panelId: string): Promise<boolean> {
  const [row] = await prisma.$queryRaw<{ held: boolean }[]>`
    WITH held AS (SELECT 1 WHERE ${fence.holds}), closed AS (
      UPDATE "panel_turns" SET "status" = 'restarted', "endedAt" = now() WHERE "panelId" = ${panelId} AND "status" = 'working' AND EXISTS (SELECT 1 FROM held)
    )
    SELECT EXISTS (SELECT 1 FROM held) AS "held"`;
  return row?.held === true;
}
