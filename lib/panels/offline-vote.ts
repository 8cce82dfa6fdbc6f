import type { AnswerRecord } from "./tally-votes";

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** Jaccard similarity of the two texts' word sets, 0 to 1. */
export function similarity(a: string, b: string): number {
  const left = words(a);
  const right = words(b);
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / (left.size + right.size - shared);
}

/**
 * The offline model's vote, deterministic: for the other agent's current answer most similar to
 * its own (ties to the earliest answer). Null when no other answer exists yet.
 */
export function offlineVote(own: AnswerRecord, others: AnswerRecord[]): { answer: AnswerRecord; reason: string } | null {
  let best: { answer: AnswerRecord; score: number } | null = null;
  for (const answer of others) {
    const score = similarity(own.content, answer.content);
    if (!best || score > best.score) best = { answer, score };
  }
  return best && { answer: best.answer, reason: `Closest to my own answer (word overlap ${best.score.toFixed(2)}).` };
}
