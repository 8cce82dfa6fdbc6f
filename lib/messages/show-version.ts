import { z } from "zod";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Transaction } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { assertWritable, lockMessage, nextChangeSeq, readMessage, type LockedMessage } from "./changed-message";
import type { MessageChangeDeps } from "./edit-message";
import { messageIdSchema } from "./message-change-input";

export const showVersionSchema = z.object({
  messageId: messageIdSchema,
  version: z.number({ error: "Choose a version number." }).int().min(1, "Versions are numbered from 1."),
});

/**
 * Switches the version a message shows (‹ 2/3 ›), for everyone: the conversation continues from
 * it and agents' later turns see it. Switching a question also shows the answers given to that
 * version. The author switches a person's message; the asker (or an admin) an agent's reply.
 */
export async function showVersion(deps: MessageChangeDeps, { user, input }: { user: SessionUser; input: z.infer<typeof showVersionSchema> }): Promise<MessageDto[]> {
  const changedIds = await deps.prisma.$transaction(async (tx) => {
    const message = await lockMessage(tx, { messageId: input.messageId, userId: user.id });
    if (message.deletedAt) throw new AppError("conflict", "This message was deleted; it has no versions left.");
    assertWritable(message);
    if (input.version > message.versionCount) throw new AppError("bad_request", `This message has ${message.versionCount} version${message.versionCount === 1 ? "" : "s"}; there is no version ${input.version}.`);
    await assertMaySwitch(tx, message, user);
    const changed = (await show(tx, message, input.version)) ? [message.id] : [];
    if (message.role === "user") changed.push(...(await showAnswersTo(tx, message, input.version, user.id)));
    return changed;
  });
  const messages = await Promise.all(changedIds.map((id) => readMessage(deps.prisma, id)));
  for (const message of messages) deps.publisher.messageUpdated(message);
  return messages.length > 0 ? messages : [await readMessage(deps.prisma, input.messageId)];
}

async function assertMaySwitch(tx: Transaction, message: LockedMessage, user: SessionUser): Promise<void> {
  if (message.role === "user") {
    if (message.authorUserId !== user.id) throw new AppError("forbidden", "Only its author can switch the version a message shows.");
    return;
  }
  const askedBy = await askerOf(tx, message);
  if (askedBy !== user.id && user.role !== "admin") throw new AppError("forbidden", "Only the person who asked (or an admin) can switch the version of this reply.");
}

async function askerOf(tx: Transaction, reply: LockedMessage): Promise<string | null> {
  const askId = (reply.metadata as { replyToMessageId?: string }).replyToMessageId;
  if (!askId) return null;
  return (await tx.message.findUnique({ where: { id: askId }, select: { authorUserId: true } }))?.authorUserId ?? null;
}

/** Shows one stored version; false when it is already shown. */
async function show(tx: Transaction, message: LockedMessage, version: number): Promise<boolean> {
  if (message.version === version) return false;
  const stored = await tx.messageVersion.findUniqueOrThrow({ where: { messageId_version: { messageId: message.id, version } } });
  const changeSeq = await nextChangeSeq(tx, message.conversationId);
  await tx.message.update({
    where: { id: message.id },
    data: { content: stored.content, metadata: stored.metadata ?? {}, tokenCount: stored.tokenCount, tokenEncoding: stored.tokenEncoding, version, changeSeq },
  });
  return true;
}

/** Each reply to the question shows its latest answer to that version of it (the first answers answered version 1). */
async function showAnswersTo(tx: Transaction, question: LockedMessage, version: number, userId: string): Promise<string[]> {
  const replies = await tx.message.findMany({
    where: { conversationId: question.conversationId, role: "assistant", deletedAt: null, versionCount: { gt: 1 }, metadata: { path: ["replyToMessageId"], equals: question.id } },
    orderBy: { seq: "asc" },
    select: { id: true },
  });
  const changed: string[] = [];
  for (const { id } of replies) {
    const reply = await lockMessage(tx, { messageId: id, userId });
    const answers = await tx.messageVersion.findMany({ where: { messageId: id }, orderBy: { version: "desc" }, select: { version: true, askVersion: true } });
    const answer = answers.find((candidate) => (candidate.askVersion ?? 1) === version);
    if (answer && (await show(tx, reply, answer.version))) changed.push(id);
  }
  return changed;
}
