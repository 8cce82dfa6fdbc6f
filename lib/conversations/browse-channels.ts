import type { Prisma } from "@/lib/db/open-database";
import { findPrimaryProject } from "@/lib/projects/primary-project";

export interface ChannelListing {
  id: string;
  name: string;
  topic: string | null;
  isPrivate: boolean;
  /** People in it (agents not counted). */
  memberCount: number;
  /** Whether the person browsing is in it already. */
  joined: boolean;
}

export const BROWSE_LIMIT = 200;

/**
 * The channel browser: the channels of the person's project whose name or topic contains
 * `query`, with member counts, in ONE statement. Private channels show only to their members;
 * archived ones are not offered.
 */
export async function browseChannels(prisma: Prisma, { userId, query = "" }: { userId: string; query?: string }): Promise<ChannelListing[]> {
  const project = await findPrimaryProject(prisma, { userId });
  if (!project) return [];
  const needle = query.trim().toLowerCase();
  return prisma.$queryRaw<ChannelListing[]>`
    SELECT c."id", c."title" AS "name", c."topic", c."isPrivate",
           (SELECT count(*)::int FROM "participants" m WHERE m."conversationId" = c."id" AND m."userId" IS NOT NULL) AS "memberCount",
           EXISTS (SELECT 1 FROM "participants" m WHERE m."conversationId" = c."id" AND m."userId" = ${userId}) AS "joined"
    FROM "conversations" c
    WHERE c."projectId" = ${project.id} AND c."type" = 'group' AND c."key" = 'global' AND c."archivedAt" IS NULL
      AND (NOT c."isPrivate" OR EXISTS (SELECT 1 FROM "participants" m WHERE m."conversationId" = c."id" AND m."userId" = ${userId}))
      AND (${needle} = '' OR strpos(lower(c."title"), ${needle}) > 0 OR strpos(lower(COALESCE(c."topic", '')), ${needle}) > 0)
    ORDER BY c."title"
    LIMIT ${BROWSE_LIMIT}`;
}
