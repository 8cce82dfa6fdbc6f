import type { Prisma } from "@/lib/db/open-database";
import type { Embedder } from "@/lib/memory/embedder";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { startKnowledgeWorker, type KnowledgeWorker } from "./ingest-documents";

/** How long an agent's admins are remembered: progress comes several times a second. */
const ADMINS_TTL_MS = 5_000;

/** Admins of the agent's project: who watches ingestion progress. */
async function projectAdmins(prisma: Prisma, agentId: string): Promise<string[]> {
  const rows = await prisma.user.findMany({ where: { role: "admin", memberships: { some: { project: { agents: { some: { id: agentId } } } } } }, select: { id: true } });
  return rows.map((row) => row.id);
}

/**
 * The admins to tell, read at most every few seconds per agent: progress reported while the
 * chunks' transaction holds the embedded database's one connection must not wait for it.
 */
function adminsOf(prisma: Prisma): (agentId: string) => Promise<string[]> {
  const recent = new Map<string, { at: number; admins: Promise<string[]> }>();
  return (agentId) => {
    const known = recent.get(agentId);
    if (known && Date.now() - known.at < ADMINS_TTL_MS) return known.admins;
    const admins = projectAdmins(prisma, agentId);
    recent.set(agentId, { at: Date.now(), admins });
    admins.catch(() => recent.delete(agentId));
    return admins;
  };
}

/** The node's ingestion worker, reporting progress to the admins over the socket. */
export function startKnowledge(
  { prisma, embedder, publisher }: { prisma: Prisma; embedder: Embedder; publisher: () => RealtimePublisher },
  worker: { leaseMs?: number; pollMs?: number } = {},
): KnowledgeWorker {
  const admins = adminsOf(prisma);
  return startKnowledgeWorker(
    {
      prisma,
      embedder,
      onProgress: (document) => void admins(document.agentId).then((ids) => publisher().knowledgeProgress(ids, document)),
    },
    worker,
  );
}
