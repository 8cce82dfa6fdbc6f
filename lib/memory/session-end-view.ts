import type { Prisma } from "@/lib/db/open-database";

/** What the person who ended a session sees of it: working, or what was kept about them, or why nothing was. */
export interface SessionEndView {
  id: string;
  conversationId: string;
  status: "pending" | "running" | "done" | "failed";
  /** An attempt failed (the model or embeddings were down): it is being tried again. */
  retrying: boolean;
  /** Why nothing was kept (failed only). */
  error: string | null;
  /** The reader's own episodes from this session, one per agent. */
  kept: { agentId: string; agentName: string; summary: string; facts: string[]; coverage: string | null }[];
}

/** A session end as its requester sees it; null for anyone else (or an unknown id). */
export async function readSessionEnd(prisma: Prisma, { id, userId }: { id: string; userId: string }): Promise<SessionEndView | null> {
  const row = await prisma.sessionEnd.findFirst({
    where: { id, requestedBy: userId },
    select: {
      id: true,
      conversationId: true,
      status: true,
      failures: true,
      lastError: true,
      written: { where: { userId }, orderBy: { createdAt: "asc" }, select: { agentId: true, summary: true, facts: true, coverage: true, agent: { select: { displayName: true } } } },
    },
  });
  if (!row) return null;
  return {
    id: row.id,
    conversationId: row.conversationId,
    status: row.status as SessionEndView["status"],
    retrying: row.status !== "done" && row.status !== "failed" && row.failures > 0,
    error: row.status === "failed" ? row.lastError : null,
    kept: row.written.map(({ agentId, summary, facts, coverage, agent }) => ({ agentId, agentName: agent.displayName, summary, facts, coverage })),
  };
}
