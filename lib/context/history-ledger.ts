import type { ChatMessage, LoopMessage, StepMessage } from "@/lib/llm/types";
import type { MessageFiles } from "./attachment-forms";
import type { MessageCosts } from "./message-costs";
import { LEFT_OUT_RESULT } from "./plan-next-call";
import type { AttachmentNoteReason, ConversationMessage, ExclusionReason, SnapshotItem } from "./types";

/** A reply's earlier tool steps as this turn sends them: each message, its cost and its snapshot item. */
interface ReplySteps {
  sent: StepMessage[];
  costs: number[];
  items: SnapshotItem[];
}

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
 * A message's files are part of its cost and leave with it; so are a reply's earlier tool steps,
 * which come right before it (one unit for the pruners and the budget).
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
  /** Sparse: only the agent's replies that came from tool steps have an entry. */
  private readonly steps: (ReplySteps | undefined)[];

  constructor(
    readonly sources: ConversationMessage[],
    speakerOf: (source: ConversationMessage) => Speaker,
    contentTokensOf: (source: ConversationMessage) => number,
    private readonly filesOf: FilesOf,
    private readonly stepCost: (step: StepMessage) => number,
  ) {
    const size = sources.length;
    this.items = new Array(size);
    this.roles = new Array(size);
    this.names = new Array(size);
    this.costs = new Array(size);
    this.overheads = new Array(size);
    this.files = new Array(size);
    this.steps = new Array(size);
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
      const steps = source.steps?.length && speaker.role === "assistant" ? this.replySteps(source) : undefined;
      const cost = speaker.overhead + (files ? filesOf.cost(source, files) : tokens) + (steps ? sum(steps.costs) : 0);
      this.steps[index] = steps;
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

  private replySteps(source: ConversationMessage): ReplySteps {
    const sent = source.steps!.map((step) => step.message);
    const costs = sent.map(this.stepCost);
    const items = source.steps!.map(
      (step, index): SnapshotItem => ({ id: step.id, tokens: costs[index]!, included: true, seq: step.seq, role: step.message.role, ...(step.toolName ? { toolName: step.toolName } : {}) }),
    );
    return { sent, costs, items };
  }

  exclude(index: number, reason: ExclusionReason): void {
    const item = this.items[index]!;
    if (!item.included) return;
    item.included = false;
    item.reason = reason;
    this.cost -= this.costs[index]!;
    for (const step of this.steps[index]?.items ?? []) Object.assign(step, { included: false, reason });
  }

  /**
   * The oldest earlier result still sent, among the messages still included, becomes
   * `[result left out: budget]` (context.md, "In later turns"); false when none is left.
   */
  leaveOutResult(): boolean {
    for (const index of this.includedIndexes()) {
      const steps = this.steps[index];
      const at = steps?.sent.findIndex((step) => step.role === "tool" && step.content !== LEFT_OUT_RESULT) ?? -1;
      if (!steps || at < 0) continue;
      const replaced: StepMessage = { ...(steps.sent[at] as Extract<StepMessage, { role: "tool" }>), content: LEFT_OUT_RESULT };
      const cost = this.stepCost(replaced);
      this.cost += cost - steps.costs[at]!;
      this.costs[index]! += cost - steps.costs[at]!;
      steps.sent[at] = replaced;
      steps.costs[at] = cost;
      Object.assign(steps.items[at]!, { tokens: cost, reason: "result_left_out" });
      return true;
    }
    return false;
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

  /** What the model receives for this position: the reply's earlier steps, then the message. */
  messagesAt(index: number): LoopMessage[] {
    const steps = this.steps[index];
    return steps ? [...steps.sent, this.message(index)] : [this.message(index)];
  }

  /** The snapshot's items in the order of the messages sent: each reply's steps right before it. */
  sectionItems(): SnapshotItem[] {
    return this.items.flatMap((item, index) => [...(this.steps[index]?.items ?? []), item]);
  }

  /** The chat message the model receives for this position. */
  message(index: number): ChatMessage {
    const name = this.names[index];
    const text = this.sources[index]!.content;
    const content = this.files[index]?.content(text) ?? text;
    return name === undefined ? { role: this.roles[index]!, content } : { role: this.roles[index]!, content, name };
  }
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
