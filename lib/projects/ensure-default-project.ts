import { channelScope } from "@/lib/conversations/conversation-scope";
import type { Prisma } from "@/lib/db/open-database";
import { isUniqueViolation } from "@/lib/db/unique-violation";

/** The project a new installation's first admin creates, with the channel people land in. */
const firstProject = { slug: "main", name: "Chorus" };
const firstChannel = "general";

/**
 * The default project new accounts join (the oldest, see joinDefaultProject), created with a
 * #general channel when the database has none yet, so the first account has somewhere to talk.
 */
export async function ensureDefaultProject(prisma: Prisma): Promise<{ id: string; name: string; created: boolean }> {
  const existing = await prisma.project.findFirst({ orderBy: { createdAt: "asc" }, select: { id: true, name: true } });
  if (existing) return { ...existing, created: false };
  try {
    const project = await prisma.project.create({
      data: {
        ...firstProject,
        conversations: { create: { type: "group", key: "global", scope: channelScope(firstChannel), title: firstChannel } },
      },
      select: { id: true, name: true },
    });
    return { ...project, created: true };
  } catch (error) {
    // Another first admin at the same moment: theirs is the default project.
    if (!isUniqueViolation(error)) throw error;
    return { ...(await prisma.project.findFirstOrThrow({ orderBy: { createdAt: "asc" }, select: { id: true, name: true } })), created: false };
  }
}
