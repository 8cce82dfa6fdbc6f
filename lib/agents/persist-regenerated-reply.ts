import type { Prisma } from "@/lib/db/open-database";
import { countTokens, encodingFor } from "@/lib/llm/token-counter";
import { lockMessage, nextChangeSeq, readMessage } from "@/lib/messages/changed-message";
import { addVersion } from "@/lib/messages/message-versions";
import type { Published } from "./append-message";
import { insertDispatchUsage } from "@/lib/usage/record-usage";
import { usageOf, type AgentReply } from "./persist-agent-reply";

/**
 * A regenerated reply becomes the next version of the reply it regenerates, shown to everyone,
 * with the end of its dispatch, its usage and its snapshot's reply id, in one transaction and only while
 * this attempt owns the dispatch. A reply deleted meanwhile gains nothing. Null when the
 * dispatch was no longer ours.
 */
export async function persistRegeneratedReply(prisma: Prisma, reply: AgentReply, replyMessageId: string): Promise<Published | null> {
  return prisma.$transaction(async (tx) => {
    const finished = await tx.dispatch.updateMany({
      where: { id: reply.dispatchId, ...(reply.attempt === "queued" ? { status: "pending" } : { status: "running", attempt: reply.attempt }) },
      data: { status: reply.outcome, replyMessageId, leaseUntil: null, lastError: reply.metadata.error ?? null },
    });
    if (finished.count === 0) return null;
    // Spent even when the reply was deleted meanwhile.
    const usage = usageOf(reply);
    if (usage) await tx.$executeRaw(insertDispatchUsage(reply.dispatchId, usage));
    const locked = await lockMessage(tx, { messageId: replyMessageId, userId: null });
    // Stopped before it started, or its reply was deleted: nothing to add.
    if (locked.deletedAt || reply.attempt === "queued") return { message: await readMessage(tx, replyMessageId), participantUserIds: [], updated: true };
    const askId = reply.metadata.replyToMessageId;
    const ask = askId ? await tx.message.findUnique({ where: { id: askId }, select: { version: true } }) : null;
    const changeSeq = await nextChangeSeq(tx, locked.conversationId);
    await addVersion(
      tx,
      locked,
      { kind: "generation", content: reply.content, metadata: reply.metadata, tokenCount: countTokens(reply.content, reply.model), tokenEncoding: encodingFor(reply.model), createdByUserId: null, askVersion: ask?.version ?? null },
      changeSeq,
      false,
    );
    await tx.contextSnapshot.updateMany({ where: { turnId: reply.dispatchId }, data: { replyMessageId } });
    const participantUserIds = (await tx.participant.findMany({ where: { conversationId: locked.conversationId, userId: { not: null } }, select: { userId: true } })).map((row) => row.userId!);
    return { message: await readMessage(tx, replyMessageId), participantUserIds, updated: true };
  });
}
