import type { Prisma } from "@/lib/db/open-database";
import type { Embedder } from "@/lib/memory/embedder";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { startKnowledgeWorker, type KnowledgeWorker } from "./ingest-documents";

/** Admins of the agent's project: who watches ingestion progress. */
async function projectAdmins(prisma: Prisma, agentId: string): Promise<string[]> {
  const rows = await prisma.user.findMany({ where: { role: "admin", memberships: { some: { project: { agents: { some: { id: agentId } } } } } }, select: { id: true } });
  return rows.map((row) => row.id);
}

/** The node's ingestion worker, reporting progress to the admins over the socket. */
export function startKnowledge(
  { prisma, embedder, publisher }: { prisma: Prisma; embedder: Embedder; publisher: () => RealtimePublisher },
  worker: { leaseMs?: number; pollMs?: number } = {},
): KnowledgeWorker {
  return startKnowledgeWorker(
    {
      prisma,
      embedder,
      onProgress: (document) => void projectAdmins(prisma, document.agentId).then((admins) => publisher().knowledgeProgress(admins, document)),
    },
    worker,
  );
}
