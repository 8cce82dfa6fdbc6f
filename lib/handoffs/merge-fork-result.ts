import type { Transaction } from "@/lib/db/open-database";
import { appendMessage, type Published } from "@/lib/agents/append-message";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";

/**
 * A forked context's final reply, appended to the conversation it was forked from as one
 * assistant message (source "specialist", with the fork's id) and the fork marked finished, in
 * the caller's transaction. When that conversation is itself a running fork, the merged message
 * is its final reply too, so the result climbs the chain. A finished fork merges nothing again.
 */
export async function mergeForkResult(tx: Transaction, { forkId, reply, model }: { forkId: string; reply: MessageDto; model: string }): Promise<Published[]> {
  const merged: Published[] = [];
  let fork = forkId;
  let result = reply;
  for (;;) {
    const [finished] = await tx.$queryRaw<{ parentId: string; askId: string; forkDepth: number }[]>`
      UPDATE "conversations" SET "forkStatus" = 'finished', "updatedAt" = now()
      WHERE "id" = ${fork} AND "forkStatus" = 'running'
      RETURNING "parentConversationId" AS "parentId", "forkedFromMessageId" AS "askId", "forkDepth"`;
    if (!finished) return merged;
    if (result.author.kind !== "agent") throw new Error(`fork ${fork}: only an agent's reply can be its result`);
    const metadata: MessageMetadata = {
      ...result.metadata,
      source: "specialist",
      forkId: fork,
      replyToMessageId: finished.askId,
      isHandoffSummary: false,
      timestamp: new Date().toISOString(),
    };
    const message = await appendMessage(tx, { conversationId: finished.parentId, author: result.author, content: result.content, metadata, model });
    merged.push(message);
    if (finished.forkDepth <= 1) return merged;
    fork = finished.parentId;
    result = message.message;
  }
}
