import { z } from "zod";
import type { Prisma, Transaction } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { countTokens } from "@/lib/llm/token-counter";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { messageContentSchema } from "@/lib/conversations/message-input";
import { parseMentions } from "@/lib/conversations/parse-mentions";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { assertWritable, lockMessage, nextChangeSeq, readMessage, type LockedMessage } from "./changed-message";
import { messageIdSchema } from "./message-change-input";
import { addVersion } from "./message-versions";
import { askAgainFor, type AskedAgain } from "./regenerate-reply";

export const editMessageSchema = z.object({
  messageId: messageIdSchema,
  content: messageContentSchema,
  /** Edit and send again: the agents that answered it answer the new text (your latest message only). */
  resend: z.boolean().default(false),
});

export type EditMessageInput = z.infer<typeof editMessageSchema>;

export interface EditedMessage {
  message: MessageDto;
  /** Agents the edit newly @mentions: an edit asks nobody, so the composer says how to ask them. */
  unaskedHandles: string[];
  /** A resend: the replies being written again. */
  askedAgain: AskedAgain[];
}

export interface MessageChangeDeps {
  prisma: Prisma;
  publisher: RealtimePublisher;
  wakeDispatcher?: (dispatchIds: string[]) => void;
}

/**
 * A person edits their own message: a new version is shown to everyone and seen by agents' later
 * turns; the earlier text stays viewable. An edit dispatches nothing, even with a new @mention.
 */
export async function editMessage(deps: MessageChangeDeps, { userId, input }: { userId: string; input: EditMessageInput }): Promise<EditedMessage> {
  const result = await deps.prisma.$transaction(async (tx) => {
    const message = await lockMessage(tx, { messageId: input.messageId, userId });
    if (message.authorUserId !== userId || message.role !== "user") throw new AppError("forbidden", "You can only edit your own messages.");
    if (message.deletedAt) throw new AppError("conflict", "This message was deleted, so it can't be edited.");
    assertWritable(message);
    if (input.resend) await assertLatestOfAuthor(tx, message);
    if (message.content === input.content && !input.resend) return { askedAgain: [], unaskedHandles: [] };
    const changeSeq = await nextChangeSeq(tx, message.conversationId);
    await addVersion(
      tx,
      message,
      { kind: input.resend ? "resend" : "edit", content: input.content, metadata: message.metadata, tokenCount: countTokens(input.content), tokenEncoding: "o200k_base", createdByUserId: userId },
      changeSeq,
      true,
    );
    const askedAgain = input.resend ? await askAgainFor(tx, { message, userId }) : [];
    return { askedAgain, unaskedHandles: await newlyMentionedAgents(tx, message, input.content) };
  });
  const updated = await readMessage(deps.prisma, input.messageId);
  deps.publisher.messageUpdated(updated);
  if (result.askedAgain.length > 0) deps.wakeDispatcher?.(result.askedAgain.map((asked) => asked.dispatchId));
  return { message: updated, ...result };
}

async function assertLatestOfAuthor(tx: Transaction, message: LockedMessage): Promise<void> {
  const later = await tx.message.count({ where: { conversationId: message.conversationId, authorUserId: message.authorUserId, seq: { gt: message.seq }, deletedAt: null } });
  if (later > 0) throw new AppError("conflict", "Only your latest message can be edited and sent again. Edit this one without sending it again, or send a new message.");
}

async function newlyMentionedAgents(tx: Transaction, message: LockedMessage, content: string): Promise<string[]> {
  const before = new Set(parseMentions(message.content));
  const added = parseMentions(content).filter((handle) => !before.has(handle));
  if (added.length === 0) return [];
  const agents = await tx.agent.findMany({
    where: { handle: { in: added }, participations: { some: { conversationId: message.conversationId } } },
    select: { handle: true },
  });
  return agents.map((agent) => agent.handle);
}
