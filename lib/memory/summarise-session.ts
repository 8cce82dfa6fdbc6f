import { EPISODE_INSTRUCTION } from "@/lib/llm/instructions";
import type { LlmProvider } from "@/lib/llm/types";

/** The summary call's answer: a few sentences, then up to ten facts. */
const OUTPUT_TOKENS = 400;
/** Beyond this many pieces only the latest are summarised (each piece is one model call). */
export const MAX_PIECES = 6;

export interface SessionSummary {
  summary: string;
  facts: string[];
  /** How much of the session it covers: "whole", "pieces:N" (summarised in N parts, then combined) or "latest:K/N" (the latest K of N messages). */
  coverage: string;
}

export interface SummaryModel {
  provider: LlmProvider;
  model: string;
  /** The agent's working memory budget: what one request may hold. */
  budget: number;
  count(text: string): number;
  signal?: AbortSignal;
}

/**
 * The transcript's lines in pieces that each fit `budget` tokens, the latest kept when there are
 * more than `maxPieces` (a line longer than the budget is cut to fit). `covered` counts the lines
 * in the pieces kept.
 */
export function planPieces(lines: string[], count: (text: string) => number, budget: number, maxPieces = MAX_PIECES): { pieces: string[][]; covered: number } {
  const pieces: string[][] = [];
  let piece: string[] = [];
  let used = 0;
  // From the latest line back, so that a session too long for maxPieces keeps its end.
  for (const whole of [...lines].reverse()) {
    const line = cut(whole, count, budget);
    const tokens = count(line) + 1;
    if (used + tokens > budget && piece.length > 0) {
      pieces.push(piece.reverse());
      if (pieces.length === maxPieces) break;
      piece = [];
      used = 0;
    }
    piece.push(line);
    used += tokens;
  }
  if (pieces.length < maxPieces && piece.length > 0) pieces.push(piece.reverse());
  pieces.reverse();
  return { pieces, covered: pieces.reduce((sum, lines) => sum + lines.length, 0) };
}

function cut(line: string, count: (text: string) => number, budget: number): string {
  let text = line;
  for (let tokens = count(text); tokens > budget; tokens = count(text)) text = text.slice(0, Math.floor((text.length * budget) / tokens) - 1);
  return text;
}

/**
 * A session's summary and facts within what the agent's model may be sent: in one call when the
 * transcript fits, else summarised piece by piece (the latest pieces when there are too many)
 * and the pieces' summaries combined in one more call. Says which in `coverage`.
 */
export async function summariseSession(model: SummaryModel, lines: string[]): Promise<SessionSummary> {
  const room = Math.max(100, model.budget - model.count(EPISODE_INSTRUCTION) - OUTPUT_TOKENS - 20);
  const { pieces, covered } = planPieces(lines, model.count, room);
  const parts = [];
  for (const piece of pieces) parts.push(await summariseText(model, piece.join("\n")));
  const facts = [...new Set(parts.flatMap((part) => part.facts))].slice(0, 10);
  const coverage = covered < lines.length ? `latest:${covered}/${lines.length}` : pieces.length === 1 ? "whole" : `pieces:${pieces.length}`;
  if (parts.length === 1) return { ...parts[0]!, facts, coverage };
  const combined = await summariseText(model, planPieces(parts.map((part, index) => `Part ${index + 1}: ${part.summary}`), model.count, room, 1).pieces[0]!.join("\n"));
  return { summary: combined.summary, facts, coverage };
}

async function summariseText({ provider, model, signal }: SummaryModel, transcript: string): Promise<{ summary: string; facts: string[] }> {
  let text = "";
  for await (const event of provider.stream({ model, messages: [{ role: "user", content: `${EPISODE_INSTRUCTION}\n${transcript}` }], temperature: 0, maxOutputTokens: OUTPUT_TOKENS, signal })) {
    if (event.type === "delta") text += event.text;
  }
  const lines = text.split("\n").map((line) => line.trim()).filter(Boolean);
  const facts = lines.filter((line) => line.startsWith("- ")).map((line) => line.slice(2).trim()).slice(0, 10);
  const summary = lines.filter((line) => !line.startsWith("- ")).join(" ").trim() || transcript.slice(0, 300);
  return { summary, facts };
}
