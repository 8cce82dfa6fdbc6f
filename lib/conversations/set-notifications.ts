import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { getConversation, type ConversationSummary } from "./list-conversations";
import type { NotificationsInput } from "./notification-level";

/**
 * A person's notifications for one conversation they take part in. Every tab of theirs gets the
 * conversation as it is now (its sidebar entry, its count in the tab's title).
 */
export async function setNotifications(
  { prisma, publisher }: { prisma: Prisma; publisher: RealtimePublisher },
  { userId, conversationId, input }: { userId: string; conversationId: string; input: NotificationsInput },
): Promise<ConversationSummary> {
  const { count } = await prisma.participant.updateMany({ where: { conversationId, userId }, data: { notify: input.notify, muted: input.muted } });
  const conversation = count === 1 ? await getConversation(prisma, { userId, conversationId }) : null;
  if (!conversation) throw new AppError("not_found", "You do not take part in this conversation.");
  publisher.readUpdated(userId, conversation);
  return conversation;
}
