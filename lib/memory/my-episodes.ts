import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";

export interface EpisodeView {
  id: string;
  summary: string;
  facts: string[];
  /** How the session was summarised: "whole", "pieces:N" or "latest:K/N" (see coverageText). */
  coverage: string | null;
  startedAt: string;
  endedAt: string;
}

/** What an agent remembers about this person: their episodes with it, newest first. */
export async function listMyEpisodes(prisma: Prisma, { userId, agentId }: { userId: string; agentId: string }): Promise<EpisodeView[]> {
  const rows = await prisma.episode.findMany({ where: { userId, agentId }, orderBy: { endedAt: "desc" }, select: { id: true, summary: true, facts: true, coverage: true, startedAt: true, endedAt: true } });
  return rows.map((row) => ({ ...row, startedAt: row.startedAt.toISOString(), endedAt: row.endedAt.toISOString() }));
}

/** Forgets one episode at once and for good; only its person may. */
export async function deleteMyEpisode(prisma: Prisma, { userId, episodeId }: { userId: string; episodeId: string }): Promise<void> {
  const { count } = await prisma.episode.deleteMany({ where: { id: episodeId, userId } });
  if (count === 0) throw new AppError("not_found", "That memory does not exist (it may have been deleted already).");
}
