import type { ChatMessage } from "@/lib/llm/types";
import type { MessageFiles } from "./attachment-forms";
import type { MessageCosts } from "./message-costs";
import type { AttachmentNoteReason, ConversationMessage, ExclusionReason, SnapshotItem } from "./types";

/** How the agent sees one speaker: role, OpenAI name and the fixed overhead of their messages. */
export interface Speaker {
  role: "user" | "assistant";
  name: string | undefined;
  overhead: number;
}

/** A message's files as this turn sends them, and what its content then costs. */
export interface FilesOf {
  of(source: ConversationMessage): MessageFiles | undefined;
  /** Tokens of the message's content with its files (text part and image parts). */
  cost(source: ConversationMessage, files: MessageFiles): number;
}

/**
 * The history window's messages while pruners work on it. A long history is the hot path, so it
 * is kept as parallel arrays: the only object per message is its snapshot item, which records
 * inclusion and the reason as pruning goes; the running total of what stays is kept as it goes.
 * A message's files are part of its cost and leave with it.
 */
export class HistoryLedger {
  readonly items: SnapshotItem[];
  /** Prompt tokens of the messages still included. */
  cost = 0;
  private readonly roles: ("user" | "assistant")[];
  private readonly names: (string | undefined)[];
  private readonly costs: number[];
  private readonly overheads: number[];
  /** Sparse: only messages with files have an entry. */
  private readonly files: (MessageFiles | undefined)[];

  constructor(
    readonly sources: ConversationMessage[],
    speakerOf: (source: ConversationMessage) => Speaker,
    contentTokensOf: (source: ConversationMessage) => number,
    private readonly filesOf: FilesOf,
  ) {
    const size = sources.length;
    this.items = new Array(size);
    this.roles = new Array(size);
    this.names = new Array(size);
    this.costs = new Array(size);
    this.overheads = new Array(size);
    this.files = new Array(size);
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
      const files = source.attachments?.length ? filesOf.of(source) : undefined;
      const cost = speaker.overhead + (files ? filesOf.cost(source, files) : tokens);
      this.roles[index] = speaker.role;
      this.names[index] = speaker.name;
      this.overheads[index] = speaker.overhead;
      this.files[index] = files;
      this.costs[index] = cost;
      this.cost += cost;
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

  /** The message's files that are still read become notes (for `reason`); true when that freed tokens. */
  noteFiles(index: number, reason: AttachmentNoteReason): boolean {
    const files = this.files[index];
    if (!files?.read) return false;
    files.toNotes(reason);
    const cost = this.overheads[index]! + this.filesOf.cost(this.sources[index]!, files);
    if (this.items[index]!.included) this.cost += cost - this.costs[index]!;
    this.costs[index] = cost;
    return true;
  }

  /** Each message's files in its snapshot item: a message left out takes them with it, with its reason. */
  recordFiles(costs: MessageCosts): void {
    this.files.forEach((files, index) => {
      const item = this.items[index]!;
      if (files) item.attachments = files.items(costs, item.included ? undefined : (item.reason ?? "budget"));
    });
  }

  /** The message as the Summarize call reads it: its files as notes. */
  summarySource(index: number): ConversationMessage {
    const source = this.sources[index]!;
    const files = this.files[index];
    return files ? { ...source, content: files.summarized(source.content) } : source;
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
    const text = this.sources[index]!.content;
    const content = this.files[index]?.content(text) ?? text;
    return name === undefined ? { role: this.roles[index]!, content } : { role: this.roles[index]!, content, name };
  }
}
