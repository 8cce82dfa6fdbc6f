import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { assertProjectMember } from "@/lib/projects/assert-member";
import { participantsScope } from "./conversation-scope";
import { findOrCreateConversation } from "./find-or-create-conversation";

/** The DM between two members of a project: the existing thread if they have one. */
export async function openDirectMessage(
  prisma: Prisma,
  { userId, projectId, otherUserId }: { userId: string; projectId: string; otherUserId: string },
) {
  if (otherUserId === userId) throw new AppError("bad_request", "You can't start a direct message with yourself.");
  await assertProjectMember(prisma, { userId, projectId });
  const other = await prisma.membership.findUnique({ where: { projectId_userId: { projectId, userId: otherUserId } } });
  if (!other) throw new AppError("not_found", "That person is not a member of this project.");
  const parties = [{ userId }, { userId: otherUserId }];
  return findOrCreateConversation(prisma, {
    projectId,
    type: "dm",
    key: "direct_message",
    scope: participantsScope(parties),
    title: "",
    parties,
  });
}
