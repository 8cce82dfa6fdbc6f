import type { Prisma } from "@/lib/db/open-database";
import { assertProjectMember } from "@/lib/projects/assert-member";
import { roomScope } from "./conversation-scope";
import { findOrCreateConversation } from "./find-or-create-conversation";

/**
 * The group conversation of a named room (e.g. "task:42", a page's own discussion): the same
 * room always returns the same conversation. Any member of the project may open a room, and
 * whoever opens it joins it (and so reads its history); people outside the project cannot.
 */
export async function openRoom(prisma: Prisma, { userId, projectId, room }: { userId: string; projectId: string; room: string }) {
  await assertProjectMember(prisma, { userId, projectId });
  const result = await findOrCreateConversation(prisma, {
    projectId,
    type: "group",
    key: "per_room",
    scope: roomScope(room),
    title: room,
    parties: [{ userId }],
    createdByUserId: userId,
  });
  const { count } = await prisma.participant.createMany({ data: [{ conversationId: result.id, userId }], skipDuplicates: true });
  return { ...result, joined: result.created || count > 0 };
}
