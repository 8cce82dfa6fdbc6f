import type { Prisma } from "@/lib/db/open-database";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import type { QueuedTurn } from "./queued-turn";

/** A turn given back to wait for its provider says so in lastError with this prefix (RetryLater's reason). */
export const PROVIDER_WAIT = "provider: ";
/** A turn given back to wait for a person's approval of a tool call (until the approval expires) says so with this prefix. */
export const APPROVAL_WAIT = "approval: ";

/**
 * The turns not started yet, of a conversation or among some dispatches, oldest first, each with
 * how many of its provider's waiting turns are ahead of it. One statement.
 */
export async function readQueuedTurns(prisma: Prisma, where: { conversationId: string } | { dispatchIds: string[] }): Promise<QueuedTurn[]> {
  const scope = "conversationId" in where ? sql`d."conversationId" = ${where.conversationId}` : sql`d."id" = ANY(${where.dispatchIds})`;
  return prisma.$queryRaw<QueuedTurn[]>`
    SELECT d."id" AS "dispatchId", d."conversationId", COALESCE(d."askMessageId", d."messageId") AS "replyToMessageId",
           json_build_object('id', a."id", 'handle', a."handle", 'displayName', a."displayName", 'color', a."color") AS "agent",
           CASE WHEN d."runAfter" > now() AND d."lastError" LIKE ${`${PROVIDER_WAIT}%`} THEN 'waiting_provider'
                WHEN d."runAfter" > now() AND d."lastError" LIKE ${`${APPROVAL_WAIT}%`} THEN 'awaiting_approval' ELSE 'queued' END AS "state",
           (SELECT count(*)::int FROM "dispatches" e JOIN "agents" ea ON ea."id" = e."agentId"
            WHERE e."status" = 'pending' AND ea."provider" = a."provider" AND (e."createdAt", e."id") < (d."createdAt", d."id")) AS "ahead",
           CASE WHEN d."runAfter" > now() THEN ceil(extract(epoch FROM d."runAfter" - now()) * 1000)::int END AS "retryInMs"
    FROM "dispatches" d JOIN "agents" a ON a."id" = d."agentId"
    WHERE ${scope} AND d."status" = 'pending'
    ORDER BY d."createdAt", d."id"`;
}
