import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { assertParticipant } from "./assert-participant";
import { messageInclude, toMessageDto, type MessageDto } from "./message-dto";
import type { PostMessageInput } from "./message-input";
import { userMessageMetadata } from "./message-metadata";

export interface PostMessageResult {
  message: MessageDto;
  /** False when this clientId was already posted: the first message is returned, nothing is written. */
  created: boolean;
}

/**
 * Writes a user's message with the conversation's next sequence number, in one transaction.
 * Idempotent on (conversation, clientId): a retried or duplicated send returns the first message.
 */
export async function postMessage(
  prisma: Prisma,
  { userId, input }: { userId: string; input: PostMessageInput },
): Promise<PostMessageResult> {
  await assertParticipant(prisma, { userId, conversationId: input.conversationId });
  try {
    return await insertMessage(prisma, userId, input);
  } catch (error) {
    // Two sends of the same clientId raced: the loser's insert hit the unique constraint.
    if (isUniqueViolation(error)) return { message: await existingMessage(prisma, userId, input), created: false };
    throw error;
  }
}

async function insertMessage(prisma: Prisma, userId: string, input: PostMessageInput): Promise<PostMessageResult> {
  return prisma.$transaction(async (tx) => {
    const existing = await tx.message.findUnique({
      where: { conversationId_clientId: { conversationId: input.conversationId, clientId: input.clientId } },
      include: messageInclude,
    });
    if (existing) return { message: ownMessage(existing, userId), created: false };

    // The row lock taken here serialises concurrent posts, so sequence numbers have no gaps.
    const [allocated] = await tx.$queryRaw<{ lastSeq: number }[]>`
      UPDATE "conversations" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = now()
      WHERE "id" = ${input.conversationId} RETURNING "lastSeq"`;
    if (!allocated) throw new AppError("not_found", "This conversation no longer exists.");

    const now = new Date();
    const row = await tx.message.create({
      data: {
        conversationId: input.conversationId,
        seq: allocated.lastSeq,
        clientId: input.clientId,
        authorUserId: userId,
        role: "user",
        content: input.content,
        metadata: userMessageMetadata(now),
        createdAt: now,
      },
      include: messageInclude,
    });
    // One's own message is read by definition: it must never count as unread.
    await tx.readState.upsert({
      where: { userId_conversationId: { userId, conversationId: input.conversationId } },
      create: { userId, conversationId: input.conversationId, lastReadSeq: row.seq },
      update: { lastReadSeq: row.seq },
    });
    return { message: toMessageDto(row), created: true };
  });
}

async function existingMessage(prisma: Prisma, userId: string, input: PostMessageInput): Promise<MessageDto> {
  const row = await prisma.message.findUniqueOrThrow({
    where: { conversationId_clientId: { conversationId: input.conversationId, clientId: input.clientId } },
    include: messageInclude,
  });
  return ownMessage(row, userId);
}

function ownMessage(row: Parameters<typeof toMessageDto>[0] & { authorUserId: string | null }, userId: string): MessageDto {
  if (row.authorUserId !== userId) {
    throw new AppError("conflict", "This message id is already used by another message. Send it again as a new message.");
  }
  return toMessageDto(row);
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
