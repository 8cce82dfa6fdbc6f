import type { TokenCounter } from "@/lib/llm/token-counter";

/** context.md, "Tool steps": a result beyond this many tokens is cut (the agent's setting when it has one). */
export const DEFAULT_MAX_TOOL_RESULT_TOKENS = 2_000;

export interface CutResult {
  /** The result as given to the model. */
  content: string;
  /** Tokens of `content` (the marker included when cut). */
  resultTokens: number;
  cut: boolean;
}

/**
 * A tool's result as the model receives it, cut like a file: the text of its first `maxTokens`
 * tokens (a character split at that boundary dropped) and the line `\n[… N more tokens cut]`,
 * N = its tokens − `maxTokens`. Unlike a file it is not framed, so not escaped: it is a message of its own.
 */
export function cutToolResult(raw: string, counter: TokenCounter, maxTokens = DEFAULT_MAX_TOOL_RESULT_TOKENS): CutResult {
  return cutFrom(raw, counter.first(raw, maxTokens), counter, maxTokens);
}

/** cutToolResult for a result of any size: the counting gives the event loop a turn now and then (the same result). */
export async function cutToolResultYielding(raw: string, counter: TokenCounter, maxTokens = DEFAULT_MAX_TOOL_RESULT_TOKENS): Promise<CutResult> {
  const first = counter.firstYielding ? await counter.firstYielding(raw, maxTokens) : counter.first(raw, maxTokens);
  return cutFrom(raw, first, counter, maxTokens);
}

function cutFrom(raw: string, { text: kept, tokens }: { text: string; tokens: number }, counter: TokenCounter, maxTokens: number): CutResult {
  if (tokens <= maxTokens) return { content: raw, resultTokens: tokens, cut: false };
  const content = `${kept}\n[… ${tokens - maxTokens} more tokens cut]`;
  return { content, resultTokens: counter.count(content), cut: true };
}

/** The result a call that never ran gives the model (context.md, "Tool steps"). */
export const notRunResult = {
  denied: (by: string, reason: string) => `Not run: denied by ${by} (${reason})`,
  expired: () => "Not run: approval expired",
  invalidArguments: (problem: string) => `Not run: invalid arguments: ${problem}`,
};
