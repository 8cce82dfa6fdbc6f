import type { TokenCounter } from "@/lib/llm/token-counter";
import type { ToolSpec } from "@/lib/llm/types";
import type { OfferedTool, ToolItem } from "./types";

/** What one tool definition adds to a call: tokens(compact JSON of {name, description, parameters}). */
export function toolTokens(tool: Pick<OfferedTool, "name" | "description" | "parameters">, counter: TokenCounter): number {
  return counter.count(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }));
}

/** A turn's tools with their costs; all offered or none (context.md: tools count before anything but `system`). */
export class ToolOffer {
  readonly tokens: number[];
  /** Sum of every tool's tokens, offered or not. */
  readonly cost: number;
  offered: boolean;

  constructor(
    readonly tools: OfferedTool[],
    counter: TokenCounter,
  ) {
    this.tokens = tools.map((tool) => toolTokens(tool, counter));
    this.cost = this.tokens.reduce((sum, tokens) => sum + tokens, 0);
    this.offered = tools.length > 0;
  }

  /** What the offered tools add to the call. */
  get usedTokens(): number {
    return this.offered ? this.cost : 0;
  }

  /** The tools sent with the call (none when they did not fit). */
  get sent(): OfferedTool[] {
    return this.offered ? this.tools : [];
  }

  items(): ToolItem[] {
    return this.tools.map((tool, index) => ({
      name: tool.name,
      server: tool.server,
      askFirst: tool.askFirst,
      tokens: this.tokens[index]!,
      included: this.offered,
      ...(this.offered ? {} : { reason: "budget" as const }),
    }));
  }
}

/** A tool as the provider sends it. */
export function toolSpecOf(tool: OfferedTool): ToolSpec {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}
