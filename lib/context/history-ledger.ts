import type { ChatMessage } from "@/lib/llm/types";
import type { ConversationMessage, ExclusionReason, SnapshotItem } from "./types";

/** How the agent sees one speaker: role, OpenAI name and the fixed overhead of their messages. */
export interface Speaker {
  role: "user" | "assistant";
  name: string | undefined;
  overhead: number;
}

/**
 * The history window's messages while pruners work on it. A long history is the hot path, so it
 * is kept as parallel arrays: the only object per message is its snapshot item, which records
 * inclusion and the reason as pruning goes; the running total of what stays is kept as it goes.
 */
export class HistoryLedger {
  readonly items: SnapshotItem[];
  /** Prompt tokens of the messages still included. */
  cost = 0;
  private readonly roles: ("user" | "assistant")[];
  private readonly names: (string | undefined)[];
  private readonly costs: number[];

  constructor(
    readonly sources: ConversationMessage[],
    speakerOf: (source: ConversationMessage) => Speaker,
    contentTokensOf: (source: ConversationMessage) => number,
  ) {
    const size = sources.length;
    this.items = new Array(size);
    this.roles = new Array(size);
    this.names = new Array(size);
    this.costs = new Array(size);
    for (let index = 0; index < size; index++) {
      const source = sources[index]!;
      const speaker = speakerOf(source);
      const tokens = contentTokensOf(source);
      // One shape for every item (absent fields stay undefined and are left out of the JSON).
      this.items[index] = {
        id: source.id,
        tokens,
        included: true,
        reason: undefined,
        seq: source.seq,
        source: source.kind === undefined ? undefined : source.kind === "tool_result" ? `tool:${source.toolName ?? "unknown"}` : source.kind,
      };
      this.roles[index] = speaker.role;
      this.names[index] = speaker.name;
      this.costs[index] = speaker.overhead + tokens;
      this.cost += speaker.overhead + tokens;
    }
  }

  get length(): number {
    return this.items.length;
  }

  exclude(index: number, reason: ExclusionReason): void {
    const item = this.items[index]!;
    if (!item.included) return;
    item.included = false;
    item.reason = reason;
    this.cost -= this.costs[index]!;
  }

  /** Positions of the messages still included, oldest first. */
  includedIndexes(): number[] {
    const kept: number[] = [];
    for (let index = 0; index < this.items.length; index++) if (this.items[index]!.included) kept.push(index);
    return kept;
  }

  role(index: number): "user" | "assistant" {
    return this.roles[index]!;
  }

  costOf(index: number): number {
    return this.costs[index]!;
  }

  /** The chat message the model receives for this position. */
  message(index: number): ChatMessage {
    const name = this.names[index];
    const content = this.sources[index]!.content;
    return name === undefined ? { role: this.roles[index]!, content } : { role: this.roles[index]!, content, name };
  }
}
