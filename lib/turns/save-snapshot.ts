import type { ContextSnapshot } from "@/lib/context/types";
import type { Prisma } from "@/lib/db/open-database";
import type { Fence } from "@/lib/jobs/job-table";
import { rawExecute } from "@/lib/db/raw-statements";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";

/**
 * Stores a turn's context snapshot before the model is called, only while the attempt holds its
 * job. A retried turn assembles again and replaces it; an earlier attempt's late write never
 * replaces a later one's: one snapshot per turn, of the attempt that answers. Returns whether it
 * was written.
 */
export async function saveSnapshot(prisma: Prisma, snapshot: ContextSnapshot, fence: Fence): Promise<boolean> {
  const json = JSON.stringify(snapshot);
  const written = await rawExecute(prisma, sql`
    INSERT INTO "context_snapshots" ("turnId", "conversationId", "agentId", "answeringMessageId", "mode", "usedTokens", "maxTokens", "snapshot", "attempt")
    SELECT ${snapshot.turnId}, ${snapshot.conversationId}, ${snapshot.agent.id}, ${snapshot.answeringMessageId}, ${snapshot.mode},
           ${snapshot.budget.usedTokens}, ${snapshot.budget.maxTokens}, ${json}::json, ${fence.attempt}
    WHERE ${fence.holds}
    ON CONFLICT ("turnId") DO UPDATE SET "usedTokens" = EXCLUDED."usedTokens", "maxTokens" = EXCLUDED."maxTokens", "mode" = EXCLUDED."mode",
      "snapshot" = EXCLUDED."snapshot", "attempt" = EXCLUDED."attempt", "replyMessageId" = NULL, "createdAt" = CURRENT_TIMESTAMP
    WHERE "context_snapshots"."attempt" <= EXCLUDED."attempt"`);
  return written === 1;
}
