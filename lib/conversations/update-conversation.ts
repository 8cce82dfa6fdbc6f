import type { Prisma } from "@/lib/db/open-database";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors/app-error";
import type { ConversationUpdate } from "@/lib/realtime/events";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { archivedRefusal, assertManageable, type Manager } from "./conversation-permissions";
import { channelNameSchema, channelScope } from "./conversation-scope";
import { chatTitleSchema, type ConversationChanges } from "./conversation-settings";
import { loadManagedConversation } from "./managed-conversation";

/**
 * Renames a conversation, sets its topic, archives or unarchives it (PATCH, the settings dialog),
 * then tells every participant's header and sidebar. A channel's name is its identity (its
 * scope), so renaming it onto another channel's name is refused.
 */
export async function updateConversation(
  { prisma, publisher }: { prisma: Prisma; publisher: RealtimePublisher },
  { actor, conversationId, changes }: { actor: Manager; conversationId: string; changes: ConversationChanges },
): Promise<ConversationUpdate> {
  const conversation = await loadManagedConversation(prisma, { userId: actor.userId, conversationId });
  if (changes.name !== undefined) assertManageable(conversation, actor, "rename");
  if (changes.topic !== undefined) assertManageable(conversation, actor, "topic");
  if (changes.archived !== undefined) assertManageable(conversation, actor, "archive");
  const staysArchived = conversation.archivedAt !== null && changes.archived !== false;
  if (staysArchived && (changes.name !== undefined || changes.topic !== undefined)) throw archivedRefusal();

  const name = changes.name === undefined ? undefined : parseName(conversation.type, changes.name);
  const archivedAt = changes.archived === undefined ? undefined : changes.archived ? (conversation.archivedAt ?? new Date()) : null;
  const updated = await prisma.conversation
    .update({
      where: { id: conversationId },
      data: {
        ...(name !== undefined && { title: name, ...(conversation.key === "global" && { scope: channelScope(name) }) }),
        topic: changes.topic === undefined ? undefined : changes.topic || null,
        archivedAt,
      },
      select: { title: true, topic: true, archivedAt: true, participants: { select: { userId: true, agent: { select: { displayName: true } } } } },
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new AppError("conflict", `A channel named #${name} already exists. Choose another name.`, { name: `#${name} already exists.` });
      throw error;
    });

  const agentName = updated.participants.find((participant) => participant.agent)?.agent?.displayName ?? "Unknown";
  const update: ConversationUpdate = { conversationId, title: updated.title || agentName, topic: updated.topic, archived: updated.archivedAt !== null };
  publisher.conversationUpdated(update, updated.participants.flatMap((participant) => (participant.userId ? [participant.userId] : [])));
  return update;
}

function parseName(type: string, name: string): string {
  const parsed = (type === "group" ? channelNameSchema : chatTitleSchema).safeParse(name);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? "That name is not valid.";
  throw new AppError("bad_request", message, { name: message });
}
