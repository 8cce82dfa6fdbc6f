import type { SessionUser } from "@/lib/auth/session-user";
import type { ContextSnapshot } from "@/lib/context/types";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { isParticipant } from "@/lib/conversations/assert-participant";

export interface TurnSummary {
  turnId: string;
  agent: { id: string; handle: string };
  answeringMessageId: string;
  replyMessageId: string | null;
  mode: string;
  usedTokens: number;
  maxTokens: number;
  createdAt: string;
}

const unknownTurn = () => new AppError("not_found", "There is no such turn, or you cannot see it.");
const unknownConversation = () => new AppError("not_found", "There is no such conversation, or you are not in it.");

/**
 * Who may inspect: debug and admin users taking part in the conversation (a fork's: its root's). Anyone else who takes
 * part is refused (403); someone outside learns nothing, not even that the turn exists (404).
 */
async function assertInspector(prisma: Prisma, user: SessionUser, conversationId: string, notFound: () => AppError): Promise<void> {
  if (!(await isParticipant(prisma, { userId: user.id, conversationId }))) throw notFound();
  if (user.role !== "debug" && user.role !== "admin") throw new AppError("forbidden", "Only debug and admin users can inspect what an agent saw.");
}

/** A conversation's turns, newest first. */
export async function listTurns(prisma: Prisma, { user, conversationId }: { user: SessionUser; conversationId: string }): Promise<TurnSummary[]> {
  await assertInspector(prisma, user, conversationId, unknownConversation);
  const rows = await prisma.contextSnapshot.findMany({
    where: { conversationId },
    orderBy: { createdAt: "desc" },
    select: { turnId: true, answeringMessageId: true, replyMessageId: true, mode: true, usedTokens: true, maxTokens: true, createdAt: true, agent: { select: { id: true, handle: true } } },
  });
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** One turn's snapshot, exactly as stored, with the reply's id once it exists. */
export async function getTurnContext(prisma: Prisma, { user, turnId }: { user: SessionUser; turnId: string }): Promise<ContextSnapshot> {
  const row = await prisma.contextSnapshot.findUnique({ where: { turnId }, select: { conversationId: true, replyMessageId: true, snapshot: true } });
  if (!row) throw unknownTurn();
  await assertInspector(prisma, user, row.conversationId, unknownTurn);
  return { ...(row.snapshot as unknown as ContextSnapshot), replyMessageId: row.replyMessageId };
}
