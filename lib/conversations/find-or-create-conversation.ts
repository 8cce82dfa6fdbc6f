import type { Prisma } from "@/lib/db/open-database";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import type { Party } from "./conversation-scope";
import { assertValidParticipants, type ConversationType } from "./conversation-rules";

export interface ConversationSpec {
  projectId: string;
  type: ConversationType;
  key: "global" | "per_room" | "direct_message";
  scope: string;
  title: string;
  parties: Party[];
  /** Who opened it first (a channel's creator may manage it). */
  createdByUserId?: string;
  /** Private channels are joined by invitation only. */
  isPrivate?: boolean;
}

/**
 * The conversation with this identity, created with its participants if it does not exist.
 * Two tabs racing to open the same thread both get the one that won the unique constraint.
 */
export async function findOrCreateConversation(prisma: Prisma, spec: ConversationSpec): Promise<{ id: string; created: boolean }> {
  assertValidParticipants(spec.type, spec.parties);
  const identity = { projectId_key_scope: { projectId: spec.projectId, key: spec.key, scope: spec.scope } };
  const existing = await prisma.conversation.findUnique({ where: identity, select: { id: true } });
  if (existing) return { id: existing.id, created: false };
  try {
    const created = await prisma.conversation.create({
      data: {
        projectId: spec.projectId,
        type: spec.type,
        key: spec.key,
        scope: spec.scope,
        title: spec.title,
        createdByUserId: spec.createdByUserId,
        isPrivate: spec.isPrivate,
        participants: { create: spec.parties },
      },
      select: { id: true },
    });
    return { id: created.id, created: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await prisma.conversation.findUniqueOrThrow({ where: identity, select: { id: true } });
    return { id: winner.id, created: false };
  }
}
