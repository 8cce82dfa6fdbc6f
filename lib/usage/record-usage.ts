import { randomUUID } from "node:crypto";
import { sql, type Sql } from "@/lib/generated/prisma/internal/prismaNamespace";

/** What one turn's model calls spent, as the provider reported it. */
export interface TurnUsage {
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
}

const columns = sql`"id", "projectId", "kind", "turnId", "agentId", "userId", "conversationId", "provider", "model", "inputTokens", "outputTokens", "createdAt"`;

/** Tokens as a usage row counts them: whole, never negative. */
const whole = (tokens: number) => Math.max(0, Math.round(tokens));

const counts = (usage: TurnUsage) => sql`${usage.provider}, ${usage.model}, ${whole(usage.inputTokens)}, ${whole(usage.outputTokens)}, ${new Date()}`;

/**
 * A dispatch's usage row's arguments of chorus_dispatch_usage_row (migration 20261204020000)
 * after the dispatch's id: a new row's id, the provider, the model and the tokens, or NULLs when
 * nothing was reported.
 */
export function dispatchUsageArguments(usage: TurnUsage | null): Sql {
  if (!usage) return sql`NULL::text, NULL::text, NULL::text, NULL::int, NULL::int`;
  return sql`${randomUUID()}, ${usage.provider}, ${usage.model}, ${whole(usage.inputTokens)}::int, ${whole(usage.outputTokens)}::int`;
}

/**
 * A dispatch's usage row as a statement of its own, inside the transaction that stores its reply
 * (a regenerated one; chorus_persist_agent_reply writes a new reply's). The asker is the author
 * of the message the turn answers (after a handoff, the person's, not the handoff message's):
 * chorus_dispatch_usage_row. A second write for the same dispatch counts nothing.
 */
export function insertDispatchUsage(dispatchId: string, usage: TurnUsage): Sql {
  return sql`INSERT INTO "usage_records" (${columns})
    SELECT * FROM "chorus_dispatch_usage_row"(${dispatchId}, ${dispatchUsageArguments(usage)}, ${new Date()}::timestamp(3))
    ON CONFLICT ("kind", "turnId") DO NOTHING`;
}

/**
 * A panel turn's usage row, as a CTE of the statement that ends the turn; `when` is that
 * statement's fence. The asker is the author of the panel's question. A second write for the same
 * turn counts nothing.
 */
export function insertPanelUsage(turn: { panelId: string; turnId: string; agentId: string }, usage: TurnUsage, when: Sql): Sql {
  return sql`INSERT INTO "usage_records" (${columns})
    SELECT ${randomUUID()}, c."projectId", 'panel', ${turn.turnId}, ${turn.agentId}, question."authorUserId", p."conversationId", ${counts(usage)}
    FROM "panels" p
    JOIN "conversations" c ON c."id" = p."conversationId"
    LEFT JOIN "messages" question ON question."id" = p."questionMessageId"
    WHERE p."id" = ${turn.panelId} AND ${when}
    ON CONFLICT ("kind", "turnId") DO NOTHING`;
}
