import { z } from "zod";
import { isParticipant } from "@/lib/conversations/assert-participant";
import { replySourceSchema } from "@/lib/conversations/message-metadata";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { sourcePassages, type SourcePassage } from "./source-passages";

/** A reply's source as its dialog shows it: the cited chunk in its document, or that the document is gone. */
export interface ReplySourceView {
  /** Its number in the reply ([n]). */
  number: number;
  document: { id: string; name: string };
  /** The document was deleted or replaced since the reply: nothing of it is shown. */
  removed: boolean;
  passages: SourcePassage[];
}

/** What anyone who may not see a source is told, whether it exists or not. */
const sourceNotFound = () => new AppError("not_found", "That source does not exist, or it belongs to a conversation you are not part of.");

const sourcesOf = z.object({ sources: z.array(replySourceSchema).default([]) });

/** An id from a URL: anything that is not one names no source. */
export function parseSourceId(value: string): string {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) throw sourceNotFound();
  return parsed.data;
}

/**
 * A chunk a message cites, for those who can see the message (participants of its conversation;
 * of a fork, of its root): the chunk with its neighbours. A chunk the message does not cite, a
 * deleted message, an unknown id or someone else's conversation are all the same 404; a cited
 * chunk whose document is gone is `removed`, not an error.
 */
export async function readReplySource(prisma: Prisma, { userId, messageId, chunkId }: { userId: string; messageId: string; chunkId: string }): Promise<ReplySourceView> {
  const message = await prisma.message.findUnique({ where: { id: messageId }, select: { conversationId: true, metadata: true, deletedAt: true } });
  if (!message || message.deletedAt || !(await isParticipant(prisma, { userId, conversationId: message.conversationId }))) throw sourceNotFound();
  const sources = sourcesOf.safeParse(message.metadata).data?.sources ?? [];
  const index = sources.findIndex((source) => source.chunkId === chunkId);
  const cited = sources[index];
  if (!cited) throw sourceNotFound();
  const view = { number: index + 1, document: { id: cited.documentId, name: cited.document } };
  const chunk = await prisma.knowledgeChunk.findFirst({ where: { id: chunkId, document: { status: "ready" } }, select: { ordinal: true, document: { select: { id: true, name: true } } } });
  if (!chunk) return { ...view, removed: true, passages: [] };
  const chunks = await prisma.knowledgeChunk.findMany({ where: { documentId: chunk.document.id, ordinal: { gte: chunk.ordinal - 1, lte: chunk.ordinal + 1 } }, select: { ordinal: true, content: true } });
  // Deleted in between: the cited chunk went with its document.
  const passages = sourcePassages(chunks, chunk.ordinal);
  return passages.length === 0 ? { ...view, removed: true, passages } : { ...view, document: chunk.document, removed: false, passages };
}
