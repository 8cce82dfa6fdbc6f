import type { Prisma, Transaction } from "@/lib/db/open-database";
import type { MessageDto } from "./message-dto";
import type { ReplySource } from "./message-metadata";

/** What a reader is told of a source whose document was deleted or replaced since: its name, and that it is gone. */
function removedSource({ chunkId, documentId, document, ordinal }: ReplySource): ReplySource {
  return { chunkId, documentId, document, ordinal, removed: true };
}

/**
 * Messages as a reader sees their sources now: a chunk no longer in a ready document (its document
 * deleted, or replaced by a new upload, whose chunks are new rows) is `removed`, without its
 * snippet; a deleted message shows none. One statement, only when some message cites anything.
 */
export async function withSourceStates(prisma: Prisma | Transaction, messages: MessageDto[]): Promise<MessageDto[]> {
  const cited = [...new Set(messages.flatMap((message) => (message.deleted ? [] : (message.metadata.sources ?? []).map((source) => source.chunkId))))];
  if (cited.length === 0 && !messages.some((message) => message.deleted && message.metadata.sources)) return messages;
  const present = new Set(
    cited.length === 0 ? [] : (await prisma.knowledgeChunk.findMany({ where: { id: { in: cited }, document: { status: "ready" } }, select: { id: true } })).map((row) => row.id),
  );
  return messages.map((message) => {
    const { sources, ...metadata } = message.metadata;
    if (!sources) return message;
    if (message.deleted) return { ...message, metadata };
    if (sources.every((source) => present.has(source.chunkId))) return message;
    return { ...message, metadata: { ...metadata, sources: sources.map((source) => (present.has(source.chunkId) ? source : removedSource(source))) } };
  });
}
