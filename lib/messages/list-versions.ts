import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { isParticipant } from "@/lib/conversations/assert-participant";

export interface MessageVersionView {
  version: number;
  kind: "original" | "edit" | "resend" | "generation";
  content: string;
  createdAt: string;
  createdBy: string | null;
  shown: boolean;
}

/** Every version of a message, oldest first (one, its current text, when it never changed). */
export async function listVersions(prisma: Prisma, { userId, messageId }: { userId: string; messageId: string }): Promise<MessageVersionView[]> {
  const message = await prisma.message.findUnique({
    where: { id: messageId },
    select: { conversationId: true, content: true, createdAt: true, role: true, version: true, deletedAt: true, authorUser: { select: { name: true } } },
  });
  if (!message || !(await isParticipant(prisma, { userId, conversationId: message.conversationId }))) {
    throw new AppError("not_found", "That message does not exist, or it is in a conversation you are not part of.");
  }
  if (message.deletedAt) throw new AppError("conflict", "This message was deleted; its versions were deleted with it.");
  const versions = await prisma.messageVersion.findMany({
    where: { messageId },
    orderBy: { version: "asc" },
    select: { version: true, kind: true, content: true, createdAt: true, createdBy: { select: { name: true } } },
  });
  if (versions.length === 0) {
    return [{ version: 1, kind: message.role === "assistant" ? "generation" : "original", content: message.content, createdAt: message.createdAt.toISOString(), createdBy: message.authorUser?.name ?? null, shown: true }];
  }
  return versions.map((row) => ({
    version: row.version,
    kind: row.kind as MessageVersionView["kind"],
    content: row.content,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy?.name ?? null,
    shown: row.version === message.version,
  }));
}
