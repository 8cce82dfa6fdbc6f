import type { Prisma } from "@/lib/db/open-database";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors/app-error";
import { messageInclude, toMessageDto, type MessageDto } from "./message-dto";
import type { PostMessageInput } from "./message-input";
import { userMessageMetadata } from "./message-metadata";
import { parseMentions } from "./parse-mentions";

/** At most this many messages per user in RATE_WINDOW_MS, counted in the database so every node agrees. */
export const RATE_LIMIT = 20;
export const RATE_WINDOW_MS = 10_000;

export interface PostMessageResult {
  message: MessageDto;
  /** False when this clientId was already posted: the first message is returned, nothing is written. */
  created: boolean;
  /** Who takes part, so their sidebars can be told (activity) without a query per user. */
  participantUserIds: string[];
  mentionedUserIds: string[];
  mentionedAgentIds: string[];
  /** @handles that matched no participant: the composer shows a hint. */
  unknownMentions: string[];
}

interface Participants {
  users: { id: string; handle: string }[];
  agents: { id: string; handle: string }[];
}

/**
 * Writes a user's message with the conversation's next sequence number and its mentions, in one
 * transaction. Idempotent on (conversation, clientId): a retried or duplicated send returns the
 * first message.
 */
export async function postMessage(prisma: Prisma, { userId, input }: { userId: string; input: PostMessageInput }): Promise<PostMessageResult> {
  const participants = await loadParticipants(prisma, input.conversationId);
  if (!participants.users.some((user) => user.id === userId)) {
    throw new AppError("forbidden", "You are not a participant of this conversation.");
  }
  const mentions = resolveMentions(input.content, participants, userId);
  const context = { participantUserIds: participants.users.map((user) => user.id), ...mentions };
  try {
    return { ...(await insertMessage(prisma, userId, input, mentions)), ...context };
  } catch (error) {
    // Two sends of the same clientId raced: the loser's insert hit the unique constraint.
    if (!isUniqueViolation(error)) throw error;
    return { message: await existingMessage(prisma, userId, input), created: false, ...context };
  }
}

async function loadParticipants(prisma: Prisma, conversationId: string): Promise<Participants> {
  const rows = await prisma.participant.findMany({
    where: { conversationId },
    select: { user: { select: { id: true, handle: true } }, agent: { select: { id: true, handle: true } } },
  });
  return {
    users: rows.flatMap((row) => (row.user ? [row.user] : [])),
    agents: rows.flatMap((row) => (row.agent ? [row.agent] : [])),
  };
}

function resolveMentions(content: string, participants: Participants, authorId: string) {
  const handles = parseMentions(content);
  const users = participants.users.filter((user) => handles.includes(user.handle) && user.id !== authorId);
  const agents = participants.agents.filter((agent) => handles.includes(agent.handle));
  const known = new Set([...participants.users, ...participants.agents].map((party) => party.handle));
  return {
    mentionedUserIds: users.map((user) => user.id),
    mentionedAgentIds: agents.map((agent) => agent.id),
    unknownMentions: handles.filter((handle) => !known.has(handle)),
  };
}

async function insertMessage(
  prisma: Prisma,
  userId: string,
  input: PostMessageInput,
  mentions: { mentionedUserIds: string[]; mentionedAgentIds: string[] },
): Promise<{ message: MessageDto; created: boolean }> {
  return prisma.$transaction(async (tx) => {
    const existing = await tx.message.findUnique({
      where: { conversationId_clientId: { conversationId: input.conversationId, clientId: input.clientId } },
      include: messageInclude,
    });
    if (existing) return { message: ownMessage(existing, userId), created: false };

    // One sender's posts are counted one at a time, so a concurrent burst cannot all slip under the limit.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${userId}))`;
    const recent = await tx.message.count({ where: { authorUserId: userId, createdAt: { gt: new Date(Date.now() - RATE_WINDOW_MS) } } });
    if (recent >= RATE_LIMIT) {
      throw new AppError("rate_limited", `You're sending messages too fast (at most ${RATE_LIMIT} in ${RATE_WINDOW_MS / 1000} seconds). Wait a moment, then retry.`);
    }

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
        mentions: {
          create: [
            ...mentions.mentionedUserIds.map((id) => ({ userId: id, conversationId: input.conversationId, seq: allocated.lastSeq })),
            ...mentions.mentionedAgentIds.map((id) => ({ agentId: id, conversationId: input.conversationId, seq: allocated.lastSeq })),
          ],
        },
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
