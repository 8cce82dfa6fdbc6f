/** About 1,000 characters a chunk (≈250 tokens), with about 150 characters of the previous chunk repeated. */
export const CHUNK_CHARS = 1_000;
export const OVERLAP_CHARS = 150;

/** Paragraphs, then sentences, then runs of words: the largest pieces that fit. */
function pieces(text: string, limit: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/).map((part) => part.trim()).filter(Boolean)) {
    if (paragraph.length <= limit) {
      out.push(paragraph);
      continue;
    }
    for (const sentence of paragraph.match(/[^.!?\n]+(?:[.!?]+|\n|$)\s*/g) ?? [paragraph]) {
      const trimmed = sentence.trim();
      if (!trimmed) continue;
      if (trimmed.length <= limit) out.push(trimmed);
      else out.push(...betweenWords(trimmed, limit));
    }
  }
  return out;
}

/** A sentence longer than the limit, cut between its words (only a word longer than the limit is cut inside). */
function betweenWords(sentence: string, limit: number): string[] {
  const out: string[] = [];
  let current = "";
  for (const word of sentence.split(/\s+/)) {
    for (let start = 0; start < word.length; start += limit) {
      const part = word.slice(start, start + limit);
      if (current && current.length + 1 + part.length > limit) {
        out.push(current);
        current = "";
      }
      current = current ? `${current} ${part}` : part;
    }
  }
  if (current) out.push(current);
  return out;
}

/**
 * Splits a document into chunks on paragraph and sentence boundaries, each ending where a
 * boundary lets it stay under `size`, and starting with the last sentences of the previous one
 * (up to `overlap` characters) so a fact split across a boundary is still found whole.
 */
export function chunkText(text: string, { size = CHUNK_CHARS, overlap = OVERLAP_CHARS } = {}): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let length = 0;
  /** Whether `current` holds anything beyond what was carried over from the last chunk. */
  let fresh = false;
  for (const piece of pieces(text, size - overlap)) {
    const separator = current.length > 0 ? 2 : 0;
    if (fresh && length + separator + piece.length > size) {
      chunks.push(current.join("\n\n"));
      // Carry the tail of this chunk into the next.
      const carried: string[] = [];
      let carriedLength = 0;
      for (let index = current.length - 1; index >= 0 && carriedLength + current[index]!.length + (carried.length > 0 ? 2 : 0) <= overlap; index--) {
        carriedLength += current[index]!.length + (carried.length > 0 ? 2 : 0);
        carried.unshift(current[index]!);
      }
      current = carried;
      length = carriedLength;
    }
    length += piece.length + (current.length > 0 ? 2 : 0);
    current.push(piece);
    fresh = true;
  }
  if (fresh) chunks.push(current.join("\n\n"));
  return chunks;
}
