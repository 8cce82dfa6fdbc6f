import { randomUUID } from "node:crypto";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Transaction } from "@/lib/db/open-database";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors/app-error";
import { assertWritable, lockMessage, type LockedMessage } from "./changed-message";
import type { MessageChangeDeps } from "./edit-message";

/** A reply being written again: its turn, and the reply whose new version it writes. */
export interface AskedAgain {
  dispatchId: string;
  agentId: string;
  replyMessageId: string;
}

interface FirstTurn {
  id: string;
  messageId: string;
  agentId: string;
  conversationId: string;
  askMessageId: string | null;
  mode: string;
  historyLimit: number | null;
  depth: number;
  agent: { displayName: string };
  message: { authorUserId: string | null };
  askMessage: { authorUserId: string | null } | null;
}

const firstTurnSelect = {
  id: true,
  messageId: true,
  agentId: true,
  conversationId: true,
  askMessageId: true,
  mode: true,
  historyLimit: true,
  depth: true,
  agent: { select: { displayName: true } },
  message: { select: { authorUserId: true } },
  askMessage: { select: { authorUserId: true } },
} as const;

/**
 * Regenerate: the agent answers the same message again, and its reply gains a version (the
 * earlier ones stay switchable). One new generation however many tabs or nodes ask at once: the
 * reply's row lock orders them and the second finds the first one's turn open.
 */
export async function regenerateReply(deps: MessageChangeDeps, { user, messageId }: { user: SessionUser; messageId: string }): Promise<AskedAgain> {
  const asked = await deps.prisma.$transaction(async (tx) => {
    const reply = await lockMessage(tx, { messageId, userId: user.id });
    const turn = await turnOf(tx, reply);
    const askerId = (turn.askMessage ?? turn.message).authorUserId;
    if (askerId !== user.id && user.role !== "admin") throw new AppError("forbidden", "Only the person who asked (or an admin) can regenerate this reply.");
    return askAgain(tx, turn, reply.id);
  });
  deps.wakeDispatcher?.([asked.dispatchId]);
  return asked;
}

/** The turn that wrote a reply first, when the reply can be regenerated at all. */
async function turnOf(tx: Transaction, reply: LockedMessage): Promise<FirstTurn> {
  if (reply.deletedAt) throw new AppError("conflict", "This reply was deleted, so it can't be regenerated.");
  assertWritable(reply);
  const metadata = reply.metadata as { dispatchId?: string; panel?: unknown; handoff?: unknown; source?: string; error?: string };
  if (reply.role !== "assistant" || !reply.authorAgentId || !metadata.dispatchId) throw new AppError("bad_request", "Only an agent's reply can be regenerated.");
  if (metadata.panel) throw new AppError("bad_request", "A panel's answer can't be regenerated: ask the panel again in a new message.");
  if (metadata.handoff) throw new AppError("bad_request", "A handoff can't be regenerated: regenerate the specialist's reply instead.");
  if (metadata.source === "specialist") throw new AppError("bad_request", "A forked context's result can't be regenerated: ask again in a new message.");
  const turn = await tx.dispatch.findUnique({ where: { id: metadata.dispatchId }, select: firstTurnSelect });
  if (!turn || turn.conversationId !== reply.conversationId) throw new AppError("bad_request", "This reply's turn is gone (it was cleaned up), so it can't be regenerated. Ask again in a new message.");
  return turn;
}

async function askAgain(tx: Transaction, turn: FirstTurn, replyMessageId: string): Promise<AskedAgain> {
  const same = { messageId: turn.messageId, agentId: turn.agentId };
  const open = await tx.dispatch.count({ where: { ...same, status: { in: ["pending", "running"] } } });
  if (open > 0) throw new AppError("conflict", `${turn.agent.displayName} is still writing this reply. Wait for it to finish (or stop it), then regenerate.`);
  const { _max } = await tx.dispatch.aggregate({ where: same, _max: { generation: true } });
  const id = randomUUID();
  try {
    await tx.dispatch.create({
      data: {
        id,
        ...same,
        conversationId: turn.conversationId,
        askMessageId: turn.askMessageId,
        mode: turn.mode,
        historyLimit: turn.historyLimit,
        depth: turn.depth,
        // A regenerated reply is the agent's own answer: it hands off nothing.
        allowHandoff: false,
        generation: (_max.generation ?? 1) + 1,
        regeneratesMessageId: replyMessageId,
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", "This reply is already being regenerated.");
    throw error;
  }
  return { dispatchId: id, agentId: turn.agentId, replyMessageId };
}

/**
 * Edit and send again: every agent that answered the message answers its new version; each
 * reply gains a version (the earlier question and answers stay switchable together).
 */
export async function askAgainFor(tx: Transaction, { message, userId }: { message: LockedMessage; userId: string }): Promise<AskedAgain[]> {
  const replies = await tx.message.findMany({
    where: { conversationId: message.conversationId, role: "assistant", deletedAt: null, metadata: { path: ["replyToMessageId"], equals: message.id } },
    orderBy: { seq: "asc" },
    select: { id: true },
  });
  const asked: AskedAgain[] = [];
  for (const { id } of replies) {
    const reply = await lockMessage(tx, { messageId: id, userId });
    const metadata = reply.metadata as { panel?: unknown; handoff?: unknown; source?: string };
    if (metadata.panel || metadata.handoff || metadata.source === "specialist") continue;
    asked.push(await askAgain(tx, await turnOf(tx, reply), id));
  }
  return asked;
}
