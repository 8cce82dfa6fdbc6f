import { countContent, type TokenCounter } from "@/lib/llm/token-counter";
import type { ChatMessage, LoopMessage, StepMessage } from "@/lib/llm/types";

/** OpenAI's counting (the cookbook's num_tokens_from_messages): per message, per name, and the reply's priming. */
export const PER_MESSAGE_TOKENS = 3;
export const PER_NAME_TOKENS = 1;
export const REPLY_PRIMING_TOKENS = 3;
/** Our rule for each entry of an assistant message's `tool_calls` (OpenAI publishes none): its name, arguments and 3. */
export const PER_TOOL_CALL_TOKENS = 3;

/**
 * Token costs of chat messages for one encoding. Role and name counts are cached; content counts
 * come from the caller when already known (stored with the message), so a long history is never
 * re-tokenised.
 */
export class MessageCosts {
  private readonly fixed = new Map<string, number>();

  constructor(readonly counter: TokenCounter) {}

  content(text: string): number {
    return this.counter.count(text);
  }

  /** A message's content as sent: a string, or its text part plus each image part. */
  parts(content: ChatMessage["content"]): number {
    return countContent(content, (text) => this.content(text));
  }

  /** What `message` adds to the prompt, given its content's count. */
  message(message: ChatMessage, contentTokens: number): number {
    return this.cost(message.role, message.name, contentTokens);
  }

  /** The same, from its parts (no message object needed). */
  cost(role: ChatMessage["role"], name: string | undefined, contentTokens: number): number {
    return PER_MESSAGE_TOKENS + this.cached(role) + contentTokens + (name === undefined ? 0 : this.cached(name) + PER_NAME_TOKENS);
  }

  /**
   * A tool step as context.md counts it: an assistant message with calls is 3 + role + content
   * (`null` as empty) + per call name + arguments + 3; a tool message 3 + role + content.
   */
  step(message: StepMessage): number {
    const base = PER_MESSAGE_TOKENS + this.cached(message.role) + (message.content === null ? 0 : this.content(message.content));
    if (message.role === "tool") return base;
    return message.tool_calls.reduce((sum, call) => sum + this.cached(call.function.name) + this.content(call.function.arguments) + PER_TOOL_CALL_TOKENS, base);
  }

  /** Any message a call sends: an assembled one or a step. */
  any(message: LoopMessage): number {
    return message.role === "tool" || "tool_calls" in message ? this.step(message) : this.message(message, this.parts(message.content));
  }

  private cached(text: string): number {
    let tokens = this.fixed.get(text);
    if (tokens === undefined) {
      tokens = this.counter.count(text);
      this.fixed.set(text, tokens);
    }
    return tokens;
  }
}

/** The whole array as OpenAI counts it, reply priming included: the budget's definition. */
export function countPrompt(messages: LoopMessage[], counter: TokenCounter): number {
  const costs = new MessageCosts(counter);
  return messages.reduce((sum, message) => sum + costs.any(message), REPLY_PRIMING_TOKENS);
}
