import { completeText, labelMessage } from "@/lib/agents/summarize-history";
import type { ConversationMessage } from "@/lib/context/types";
import { SUMMARY_INSTRUCTION } from "@/lib/llm/instructions";
import type { LlmProvider } from "@/lib/llm/types";

/** Messages a routed handoff's summary covers: the latest exchange, not the whole thread. */
const COVERED = 10;

/**
 * The handoff summary when a routing rule hands off (the offline model has no tool calls): the
 * orchestrator's model condenses the latest messages and the person's message.
 */
export function routedSummary({ provider, model, history, current, signal }: { provider: LlmProvider; model: string; history: ConversationMessage[]; current: ConversationMessage; signal: AbortSignal }): Promise<string> {
  const prompt = [SUMMARY_INSTRUCTION, ...[...history.slice(-COVERED), current].map(labelMessage)].join("\n");
  return completeText({ provider, model, maxTokens: 300, signal }, prompt);
}
