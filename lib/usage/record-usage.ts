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

const counts = (usage: TurnUsage) =>
  sql`${usage.provider}, ${usage.model}, ${Math.max(0, Math.round(usage.inputTokens))}, ${Math.max(0, Math.round(usage.outputTokens))}, ${new Date()}`;

/**
 * A dispatch's usage row, as a statement of its own or a CTE of the statement that stores its
 * reply; `when` is that statement's fence (e.g. the reply was inserted). The asker is the author
 * of the message the turn answers (after a handoff, the person's, not the handoff message's).
 * A second write for the same dispatch counts nothing.
 */
export function insertDispatchUsage(dispatchId: string, usage: TurnUsage, when: Sql): Sql {
  return sql`INSERT INTO "usage_records" (${columns})
    SELECT ${randomUUID()}, c."projectId", 'turn', d."id", d."agentId", asker."authorUserId", d."conversationId", ${counts(usage)}
    FROM "dispatches" d
    JOIN "conversations" c ON c."id" = d."conversationId"
    LEFT JOIN "messages" asker ON asker."id" = COALESCE(d."askMessageId", d."messageId")
    WHERE d."id" = ${dispatchId} AND ${when}
    ON CONFLICT ("kind", "turnId") DO NOTHING`;
}

/** A panel turn's usage row, as insertDispatchUsage; the asker is the author of the panel's question. */
export function insertPanelUsage(turn: { panelId: string; turnId: string; agentId: string }, usage: TurnUsage, when: Sql): Sql {
  return sql`INSERT INTO "usage_records" (${columns})
    SELECT ${randomUUID()}, c."projectId", 'panel', ${turn.turnId}, ${turn.agentId}, question."authorUserId", p."conversationId", ${counts(usage)}
    FROM "panels" p
    JOIN "conversations" c ON c."id" = p."conversationId"
    LEFT JOIN "messages" question ON question."id" = p."questionMessageId"
    WHERE p."id" = ${turn.panelId} AND ${when}
    ON CONFLICT ("kind", "turnId") DO NOTHING`;
}
