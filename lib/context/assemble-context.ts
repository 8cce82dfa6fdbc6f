import type { TokenCounter } from "@/lib/llm/token-counter";
import type { ChatMessage, LoopMessage, StepMessage } from "@/lib/llm/types";
import { MessageFiles } from "./attachment-forms";
import { MessageCosts, REPLY_PRIMING_TOKENS } from "./message-costs";
import { HistoryLedger, type FilesOf, type Speaker } from "./history-ledger";
import { ToolOffer } from "./offered-tools";
import { fifoDrops, slidingWindowKeeps } from "./pruners";
import { episodesText, knowledgeText, procedureText, speakerName, summaryText } from "./section-text";
import type {
  ContextConfig,
  ContextSnapshot,
  ConversationMessage,
  OfferedTool,
  Retrieved,
  RetrievalTiming,
  SnapshotItem,
  SnapshotSection,
  Summarize,
  SummaryResult,
} from "./types";

export interface AssemblyInput {
  turn: { turnId: string; conversationId: string; agent: { id: string; handle: string; model: string }; mode?: ContextSnapshot["mode"] };
  config: ContextConfig;
  systemPrompt: string;
  /** Messages before the current one, oldest first (at least the window's worth). */
  history: ConversationMessage[];
  current: ConversationMessage;
  retrieved: Retrieved;
  retrieval: ContextSnapshot["retrieval"];
  /** The tools the agent may call this turn, in the order offered (context.md, "Tool steps"). */
  tools?: OfferedTool[];
}

export interface AssemblyDeps {
  counter: TokenCounter;
  /** Condenses the oldest history for the Summarize pruner (a secondary LLM call, cached). */
  summarize?: Summarize;
}

export interface Assembly {
  /** Empty when the turn cannot be assembled (see snapshot.error); the agent's earlier tool steps come before the replies they led to. */
  messages: LoopMessage[];
  /** The tools to send with the first call: all of the input's, or none when they did not fit. */
  tools: OfferedTool[];
  /** What `messages` cost as countPrompt counts them (the reply's priming included, the tools not): each call of the turn sends them. */
  messagesTokens: number;
  snapshot: ContextSnapshot;
}

interface Scored<T> {
  value: T;
  included: boolean;
}

export const noTiming: RetrievalTiming = { startedAt: 0, ms: 0 };

/**
 * What an agent sees for one turn, exactly as ../shared/design/context.md says: sections in a
 * fixed order (system, procedure, knowledge, episodes, summary, history, current), the history
 * window counting the current message, SlidingWindow always, FIFO or Summarize when over budget,
 * then retrieved items, the procedure and finally history give way, and a turn whose system
 * prompt and current message alone overflow fails without calling the model. Tools offered are
 * counted (in no section) right after the system prompt: all of them, or none when system + tools
 * + current do not fit. Pure: the only outside call is the injected `summarize`.
 */
export async function assembleContext(input: AssemblyInput, deps: AssemblyDeps): Promise<Assembly> {
  const { config } = input;
  const costs = new MessageCosts(deps.counter);
  const agentId = input.turn.agent.id;

  // Each speaker's name and fixed overhead (role, name) are worked out once.
  const self: Speaker = { role: "assistant", name: undefined, overhead: costs.cost("assistant", undefined, 0) };
  const others = new Map<string, Speaker>();
  const speakerOf = (source: ConversationMessage): Speaker => {
    if (source.role === "assistant" && source.authorAgentId === agentId) return self;
    const handle = source.role === "tool" ? (source.toolName ?? "tool") : source.authorHandle;
    let speaker = others.get(handle ?? "");
    if (!speaker) {
      const name = handle ? speakerName(handle) : undefined;
      speaker = { role: "user", name, overhead: costs.cost("user", name, 0) };
      others.set(handle ?? "", speaker);
    }
    return speaker;
  };
  const contentTokensOf = (source: ConversationMessage) =>
    source.tokens && source.tokens.encoding === deps.counter.encoding ? source.tokens.count : costs.content(source.content);

  // A message's files are sent with it (frames, image parts, notes) and counted as sent.
  const filesOf: FilesOf = {
    of: (source) => new MessageFiles(source.attachments ?? [], config, deps.counter),
    cost: (source, files) => costs.parts(files.content(source.content)),
  };
  // App notices take no place in the window; the window counts the current message.
  const stepCost = (step: StepMessage) => costs.step(step);
  const history = new HistoryLedger(windowOf(input.history, config.historyWindow - 1), speakerOf, contentTokensOf, filesOf, stepCost);
  const current = new HistoryLedger([input.current], speakerOf, contentTokensOf, filesOf, stepCost);
  const system = fixedSection(costs, input.systemPrompt);
  // Tools count before anything but the system prompt: decided first, against the current message as it starts.
  const tools = new ToolOffer(input.tools ?? [], deps.counter);
  if (system.cost + tools.cost + current.cost + REPLY_PRIMING_TOKENS > config.maxWorkingMemoryTokens) tools.offered = false;
  const procedure: Scored<NonNullable<Retrieved["procedure"]>> | null = input.retrieved.procedure ? { value: input.retrieved.procedure, included: true } : null;
  const knowledge = byScore(input.retrieved.knowledge);
  const episodes = byScore(input.retrieved.episodes);
  let summary: (SummaryResult & { cost: number; contentTokens: number; included: boolean }) | null = null;
  let summaryFailure: string | null = null;

  // Retrieved sections are recounted only when what they hold changes (the budget loops call total() often).
  const countRetrieved = () => ({
    procedure: procedure?.included ? systemCost(costs, procedureText(procedure.value)) : 0,
    knowledge: keptCost(costs, knowledge, knowledgeText),
    episodes: keptCost(costs, episodes, episodesText),
  });
  let retrievedCosts = countRetrieved();
  const summaryCost = () => (summary?.included ? summary.cost : 0);
  const total = () =>
    system.cost + tools.usedTokens + retrievedCosts.procedure + retrievedCosts.knowledge + retrievedCosts.episodes + summaryCost() + history.cost + current.cost + REPLY_PRIMING_TOKENS;
  const runFifo = () => {
    const kept = history.includedIndexes();
    const drops = fifoDrops(
      kept.map((index) => history.role(index)),
      kept.map((index) => history.costOf(index)),
      total() - config.maxWorkingMemoryTokens,
      config.minHistoryMessages,
    );
    for (let at = 0; at < drops; at++) history.exclude(kept[at]!, "pruned_fifo");
  };

  // 1. SlidingWindow always applies: the last N pairs, whatever their size.
  if (config.pruningStrategy === "sliding_window") {
    const roles = history.items.map((_, index) => history.role(index));
    const keeps = slidingWindowKeeps(roles, config.slidingWindowTurns);
    for (let index = 0; index < history.length; index++) if (!keeps[index]) history.exclude(index, "outside_sliding_window");
  }
  const over = () => total() > config.maxWorkingMemoryTokens;

  // 2. FIFO and Summarize only when over budget.
  if (over() && config.pruningStrategy === "fifo") runFifo();
  if (over() && config.pruningStrategy === "summarize") {
    const kept = history.includedIndexes();
    const count = Math.floor(kept.length * config.summarizeFraction);
    if (count > 0 && deps.summarize) {
      try {
        const result = await deps.summarize({ messages: kept.slice(0, count).map((index) => history.summarySource(index)) });
        const content = summaryText(result.text);
        const contentTokens = costs.content(content);
        summary = { ...result, contentTokens, cost: costs.message({ role: "system", content }, contentTokens), included: true };
        // A cached summary may reach further than asked: nothing is both summarised and kept.
        for (const index of kept) if (history.sources[index]!.seq <= result.toSeq) history.exclude(index, "summarized");
      } catch (error) {
        summaryFailure = error instanceof Error ? error.message : String(error);
      }
    }
    if (over()) runFifo();
  }

  // Files in the history that remains are read no more, oldest message first, before any memory gives way.
  for (const index of history.includedIndexes()) {
    if (!over()) break;
    history.noteFiles(index, "budget");
  }
  // Then the results of the agent's earlier tool steps, oldest first.
  while (over() && history.leaveOutResult());

  // 3. Retrieved memory gives way, lowest score first: episodes, then knowledge; then the procedure.
  for (const items of [episodes, knowledge]) {
    for (let index = items.length - 1; index >= 0 && over(); index--) {
      items[index]!.included = false;
      retrievedCosts = countRetrieved();
    }
  }
  if (over() && procedure) {
    procedure.included = false;
    retrievedCosts = countRetrieved();
  }

  // 4. History loses its oldest messages, below any minimum; then the summary itself.
  for (let index = 0; index < history.length && over(); index++) history.exclude(index, "budget");
  if (over() && summary) summary.included = false;
  // What a person just attached outranks older history, but not the turn itself.
  if (over()) current.noteFiles(0, "budget");

  const failed = over();
  // Never happens while tools fit (system + tools + current did), but a failed turn sends nothing.
  if (failed) tools.offered = false;
  const messages: LoopMessage[] = failed
    ? []
    : [
        system.message,
        ...(procedure?.included ? [systemMessage(procedureText(procedure.value))] : []),
        ...keptMessage(knowledge, knowledgeText),
        ...keptMessage(episodes, episodesText),
        ...(summary?.included ? [systemMessage(summaryText(summary.text))] : []),
        ...history.includedIndexes().flatMap((index) => history.messagesAt(index)),
        current.message(0),
      ];
  const finalCosts = { ...retrievedCosts, summary: summaryCost() };

  const sections: SnapshotSection[] = [
    { kind: "system", tokens: system.cost, items: [{ id: "system", tokens: system.contentTokens, included: true }] },
    {
      kind: "procedure",
      tokens: finalCosts.procedure,
      items: procedure
        ? [{ id: procedure.value.id, tokens: costs.content(procedureText(procedure.value)), included: procedure.included, reason: procedure.included ? procedure.value.matchedBy : "budget", score: procedure.value.score, source: procedure.value.name }]
        : [],
    },
    { kind: "knowledge", tokens: finalCosts.knowledge, items: knowledge.map(({ value, included: kept }) => ({ ...retrievedItem(costs, value.id, value.content, kept, value.score, value.source), vectorRank: value.vectorRank, textRank: value.textRank })) },
    { kind: "episodes", tokens: finalCosts.episodes, items: episodes.map(({ value, included: kept }) => retrievedItem(costs, value.id, value.content, kept, value.score, value.occurredAt.slice(0, 10))) },
    { kind: "summary", tokens: finalCosts.summary, items: summaryItems(summary, summaryFailure) },
    {
      kind: "history",
      tokens: history.cost,
      items: history.sectionItems(),
    },
    { kind: "current", tokens: current.cost, items: current.items },
  ];
  if (failed) for (const section of sections) for (const item of section.items) item.included = item.included && (section.kind === "system" || section.kind === "current");
  history.recordFiles(costs);
  current.recordFiles(costs);

  return {
    messages,
    tools: tools.sent,
    messagesTokens: failed ? 0 : total() - tools.usedTokens,
    snapshot: {
      turnId: input.turn.turnId,
      conversationId: input.turn.conversationId,
      answeringMessageId: input.current.id,
      replyMessageId: null,
      agent: input.turn.agent,
      mode: input.turn.mode ?? "direct",
      strategy: config.pruningStrategy,
      budget: { maxTokens: config.maxWorkingMemoryTokens, usedTokens: failed ? 0 : total() },
      sections,
      messages,
      retrieval: input.retrieval,
      assemblyMs: 0,
      tools: tools.items(),
      // A turn that fails here makes no model call.
      ...(failed ? { error: "budget" as const, calls: [] } : {}),
    },
  };
}

/** One shape for every item (absent fields stay undefined and are left out of the JSON): 10,000 of them stay cheap. */
/** The last `size` messages that are not app notices, oldest first, in one pass from the end. */
function windowOf(messages: ConversationMessage[], size: number): ConversationMessage[] {
  let start = messages.length;
  for (let taken = 0; start > 0 && taken < size; ) if (messages[--start]!.role !== "system") taken++;
  const window: ConversationMessage[] = [];
  for (let index = start; index < messages.length; index++) if (messages[index]!.role !== "system") window.push(messages[index]!);
  return window;
}

function systemMessage(content: string): ChatMessage {
  return { role: "system", content };
}

function systemCost(costs: MessageCosts, content: string): number {
  return costs.message(systemMessage(content), costs.content(content));
}

function fixedSection(costs: MessageCosts, content: string) {
  const contentTokens = costs.content(content);
  const message = systemMessage(content);
  return { message, contentTokens, cost: costs.message(message, contentTokens) };
}

function byScore<T extends { score: number }>(items: T[]): Scored<T>[] {
  return [...items].sort((a, b) => b.score - a.score).map((value) => ({ value, included: true }));
}

function keptCost<T>(costs: MessageCosts, items: Scored<T>[], text: (values: T[]) => string): number {
  const kept = items.filter((item) => item.included).map((item) => item.value);
  return kept.length === 0 ? 0 : systemCost(costs, text(kept));
}

function keptMessage<T>(items: Scored<T>[], text: (values: T[]) => string): ChatMessage[] {
  const kept = items.filter((item) => item.included).map((item) => item.value);
  return kept.length === 0 ? [] : [systemMessage(text(kept))];
}

function retrievedItem(costs: MessageCosts, id: string, content: string, included: boolean, score: number, source: string): SnapshotItem {
  return { id, tokens: costs.content(content), included, score, source, ...(included ? {} : { reason: "budget" }) };
}

function summaryItems(summary: (SummaryResult & { contentTokens: number; included: boolean }) | null, failure: string | null): SnapshotItem[] {
  if (failure) return [{ id: "summary", tokens: 0, included: false, reason: `summary_failed: ${failure}; fell back to FIFO` }];
  if (!summary) return [];
  return [{ id: "summary", tokens: summary.contentTokens, included: summary.included, source: `seq ${summary.fromSeq}–${summary.toSeq}`, ...(summary.included ? {} : { reason: "budget" }) }];
}
