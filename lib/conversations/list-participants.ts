import { avatarOf } from "@/lib/avatars/avatar-rules";
import type { Prisma } from "@/lib/db/open-database";
import { assertParticipant } from "./assert-participant";

export interface ParticipantDto {
  kind: "user" | "agent";
  id: string;
  handle: string;
  name: string;
  /** An agent's colour, or a person's own (null: derived from their id). */
  color: string | null;
  /** A person's picture; agents have none. */
  avatarUrl: string | null;
  /** An agent an admin disabled: it stays listed but answers nobody. */
  disabled?: boolean;
}

/** Who is in a conversation, for the header and @mention completion. */
export async function listParticipants(
  prisma: Prisma,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<ParticipantDto[]> {
  await assertParticipant(prisma, { userId, conversationId });
  const rows = await prisma.participant.findMany({
    where: { conversationId },
    orderBy: { joinedAt: "asc" },
    select: {
      user: { select: { id: true, handle: true, name: true, image: true, avatarColor: true } },
      agent: { select: { id: true, handle: true, displayName: true, color: true, enabled: true } },
    },
  });
  return rows.flatMap((row): ParticipantDto[] => {
    if (row.user) return [{ kind: "user", id: row.user.id, handle: row.user.handle, name: row.user.name, ...avatarOf(row.user) }];
    if (row.agent) {
      const { id, handle, displayName, color, enabled } = row.agent;
      return [{ kind: "agent", id, handle, name: displayName, color, avatarUrl: null, ...(enabled ? {} : { disabled: true }) }];
    }
    return [];
  });
}
