import { lineStart } from "@/lib/text/line-start";
import type { ReplySource } from "@/lib/conversations/message-metadata";
import type { ContextSnapshot, RetrievedKnowledge } from "@/lib/context/types";

export const SNIPPET_CHARS = 200;

/** A source's snippet: the start of its chunk on one line, cut between words. */
export function snippetOf(content: string): string {
  return lineStart(content, SNIPPET_CHARS);
}

/**
 * The knowledge a turn's context included, in the order of its knowledge section's items: the
 * order `knowledgeText` numbered them in (both list the kept items best first), so the n-th
 * source is the excerpt the model saw as `[n]`. None when the turn sent nothing.
 */
export function replySources(snapshot: ContextSnapshot, knowledge: readonly RetrievedKnowledge[]): ReplySource[] {
  if (snapshot.error) return [];
  const byId = new Map(knowledge.map((item) => [item.id, item]));
  const items = snapshot.sections.find((section) => section.kind === "knowledge")?.items ?? [];
  return items.flatMap((item) => {
    const chunk = item.included ? byId.get(item.id) : undefined;
    return chunk ? [{ chunkId: chunk.id, documentId: chunk.documentId, document: chunk.source, ordinal: chunk.ordinal, snippet: snippetOf(chunk.content) }] : [];
  });
}
