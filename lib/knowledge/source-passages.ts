/** One chunk as the source dialog shows it: the cited one whole, its neighbours without the text they share with it. */
export interface SourcePassage {
  ordinal: number;
  text: string;
  cited: boolean;
}

/**
 * How much of `next`'s start repeats `previous`'s end. chunkText carries whole pieces of a chunk
 * into the next, joined by a blank line, so the repeat is a prefix of `next` ending where a blank
 * line follows it, and a suffix of `previous`.
 */
export function sharedLength(previous: string, next: string): number {
  // The longest such prefix: every boundary within reach is tried (a chunk has a handful).
  let shared = 0;
  for (let end = next.indexOf("\n\n"); end > 0 && end <= previous.length; end = next.indexOf("\n\n", end + 2)) {
    if (previous.endsWith(next.slice(0, end))) shared = end;
  }
  return shared;
}

/**
 * The cited chunk between its neighbours (ordinals one before and one after, when they exist),
 * in document order, each neighbour cut where it repeats the cited chunk.
 */
export function sourcePassages(chunks: readonly { ordinal: number; content: string }[], citedOrdinal: number): SourcePassage[] {
  const cited = chunks.find((chunk) => chunk.ordinal === citedOrdinal);
  if (!cited) return [];
  return [...chunks]
    .sort((a, b) => a.ordinal - b.ordinal)
    .flatMap((chunk): SourcePassage[] => {
      if (chunk.ordinal === citedOrdinal) return [{ ordinal: chunk.ordinal, text: chunk.content, cited: true }];
      const text =
        chunk.ordinal === citedOrdinal - 1
          ? chunk.content.slice(0, chunk.content.length - sharedLength(chunk.content, cited.content)).trimEnd()
          : chunk.ordinal === citedOrdinal + 1
            ? chunk.content.slice(sharedLength(cited.content, chunk.content)).trimStart()
            : "";
      return text ? [{ ordinal: chunk.ordinal, text, cited: false }] : [];
    });
}
