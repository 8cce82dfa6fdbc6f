import type { TokenCounter } from "@/lib/llm/token-counter";
import type { LoopMessage, StepMessage } from "@/lib/llm/types";
import { MessageCosts, REPLY_PRIMING_TOKENS } from "./message-costs";
import { ToolOffer } from "./offered-tools";
import type { CallRecord, OfferedTool } from "./types";

/** What a result left out for the budget becomes (context.md, "Tool steps"). */
export const LEFT_OUT_RESULT = "[result left out: budget]";

export interface NextCallInput {
  /** The assembled messages (Assembly.messages), sent first on every call. */
  messages: LoopMessage[];
  /** The tools the assembly offered (Assembly.tools); empty when none. */
  tools: OfferedTool[];
  /** This turn's steps so far, as first given to the model: each assistant message with calls, then its tool messages. */
  steps: StepMessage[];
  maxTokens: number;
  counter: TokenCounter;
  /** What `messages` cost, reply priming included, when already counted (Assembly.messagesTokens): not counted again before every call. */
  messagesTokens?: number;
}

export interface NextCall {
  /** What to send: the assembled messages, then the steps (oldest results possibly left out); empty when the turn ends. */
  messages: LoopMessage[];
  /** The tools go with this call; when false the model is asked for its answer and the loop ends after it. */
  withTools: boolean;
  /** How many of the oldest results this call leaves out. */
  leftOut: number;
  /** The call for the snapshot's `calls`: `usedTokens <= maxTokens`, or `{ usedTokens: 0, error: "budget" }` when it cannot be made. */
  call: CallRecord;
}

/**
 * The next model call of a turn's tool loop, within budget (context.md, "Tool steps"): the
 * assembled messages and this turn's steps, with the tools; when that does not fit, the oldest
 * results become `[result left out: budget]` one at a time; when it still does not fit, the model
 * is asked once more without tools; when even that does not fit, no call is made and the turn
 * ends with the budget error. Steps are passed as first given to the model: the same results are
 * left out again at every later call (the oldest first), so a call never sends one it left out before.
 */
export function planNextCall({ messages, tools, steps, maxTokens, counter, messagesTokens }: NextCallInput): NextCall {
  const costs = new MessageCosts(counter);
  const offer = new ToolOffer(tools, counter);
  const sent: StepMessage[] = [...steps];
  const results = steps.flatMap((step, index) => (step.role === "tool" ? [index] : []));
  let used = (messagesTokens ?? messages.reduce((sum, message) => sum + costs.any(message), REPLY_PRIMING_TOKENS)) + sent.reduce((sum, step) => sum + costs.step(step), 0);
  const fits = (withTools: boolean) => used + (withTools ? offer.usedTokens : 0) <= maxTokens;

  let leftOut = 0;
  for (; !fits(true) && leftOut < results.length; leftOut++) {
    const index = results[leftOut]!;
    const result = sent[index]!;
    const replaced: StepMessage = { ...result, content: LEFT_OUT_RESULT };
    used += costs.step(replaced) - costs.step(result);
    sent[index] = replaced;
  }
  const withTools = offer.offered && fits(true);
  if (!withTools && !fits(false)) return { messages: [], withTools: false, leftOut, call: { usedTokens: 0, error: "budget" } };
  return { messages: [...messages, ...sent], withTools, leftOut, call: { usedTokens: used + (withTools ? offer.usedTokens : 0) } };
}
