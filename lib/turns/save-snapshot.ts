import type { ContextSnapshot } from "@/lib/context/types";
import type { Prisma } from "@/lib/db/open-database";

/**
 * Stores a turn's context snapshot before the model is called. A retried turn (its worker died)
 * assembles again and replaces it: one snapshot per turn, of the attempt that answers.
 */
export async function saveSnapshot(prisma: Prisma, snapshot: ContextSnapshot): Promise<void> {
  const json = JSON.stringify(snapshot);
  await prisma.$executeRaw`
    INSERT INTO "context_snapshots" ("turnId", "conversationId", "agentId", "answeringMessageId", "mode", "usedTokens", "maxTokens", "snapshot")
    VALUES (${snapshot.turnId}, ${snapshot.conversationId}, ${snapshot.agent.id}, ${snapshot.answeringMessageId}, ${snapshot.mode},
            ${snapshot.budget.usedTokens}, ${snapshot.budget.maxTokens}, ${json}::json)
    ON CONFLICT ("turnId") DO UPDATE SET "usedTokens" = EXCLUDED."usedTokens", "maxTokens" = EXCLUDED."maxTokens",
      "mode" = EXCLUDED."mode", "snapshot" = EXCLUDED."snapshot", "replyMessageId" = NULL, "createdAt" = CURRENT_TIMESTAMP`;
}
