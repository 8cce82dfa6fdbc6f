import type { TokenCounter } from "@/lib/llm/token-counter";
import type { ChatMessage } from "@/lib/llm/types";
import { MessageCosts, REPLY_PRIMING_TOKENS } from "./message-costs";
import { fifoDrops, slidingWindowKeeps } from "./pruners";
import { episodesText, knowledgeText, procedureText, speakerName, summaryText } from "./section-text";
import type {
  ContextConfig,
  ContextSnapshot,
  ConversationMessage,
  ExclusionReason,
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
}

export interface AssemblyDeps {
  counter: TokenCounter;
  /** Condenses the oldest history for the Summarize pruner (a secondary LLM call, cached). */
  summarize?: Summarize;
}

export interface Assembly {
  /** Empty when the turn cannot be assembled (see snapshot.error). */
  messages: ChatMessage[];
  snapshot: ContextSnapshot;
}

interface HistoryEntry {
  source: ConversationMessage;
  message: ChatMessage;
  contentTokens: number;
  cost: number;
  included: boolean;
  reason?: ExclusionReason;
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
 * prompt and current message alone overflow fails without calling the model. Pure: the only
 * outside call is the injected `summarize`.
 */
export async function assembleContext(input: AssemblyInput, deps: AssemblyDeps): Promise<Assembly> {
  const { config } = input;
  const costs = new MessageCosts(deps.counter);
  const agentId = input.turn.agent.id;

  const toEntry = (source: ConversationMessage): HistoryEntry => {
    const message = asSeenBy(source, agentId);
    const contentTokens = source.tokens && source.tokens.encoding === deps.counter.encoding ? source.tokens.count : costs.content(source.content);
    return { source, message, contentTokens, cost: costs.message(message, contentTokens), included: true };
  };

  // App notices take no place in the window; the window counts the current message.
  const earlier = config.historyWindow > 1 ? input.history.filter((message) => message.role !== "system").slice(-(config.historyWindow - 1)) : [];
  const history = earlier.map(toEntry);
  const current = toEntry(input.current);
  const system = fixedSection(costs, input.systemPrompt);
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
  let historyCost = history.reduce((sum, entry) => sum + entry.cost, 0);
  const total = () =>
    system.cost + retrievedCosts.procedure + retrievedCosts.knowledge + retrievedCosts.episodes + summaryCost() + historyCost + current.cost + REPLY_PRIMING_TOKENS;
  const exclude = (entry: HistoryEntry, reason: ExclusionReason) => {
    if (!entry.included) return;
    entry.included = false;
    entry.reason = reason;
    historyCost -= entry.cost;
  };
  const included = () => history.filter((entry) => entry.included);
  const runFifo = () => {
    const kept = included();
    const drops = fifoDrops(
      kept.map((entry) => entry.message.role as "user" | "assistant"),
      kept.map((entry) => entry.cost),
      total() - config.maxWorkingMemoryTokens,
      config.minHistoryMessages,
    );
    kept.slice(0, drops).forEach((entry) => exclude(entry, "pruned_fifo"));
  };

  // 1. SlidingWindow always applies: the last N pairs, whatever their size.
  if (config.pruningStrategy === "sliding_window") {
    const keeps = slidingWindowKeeps(history.map((entry) => entry.message.role as "user" | "assistant"), config.slidingWindowTurns);
    history.forEach((entry, index) => keeps[index] || exclude(entry, "outside_sliding_window"));
  }
  const over = () => total() > config.maxWorkingMemoryTokens;

  // 2. FIFO and Summarize only when over budget.
  if (over() && config.pruningStrategy === "fifo") runFifo();
  if (over() && config.pruningStrategy === "summarize") {
    const kept = included();
    const count = Math.floor(kept.length * config.summarizeFraction);
    if (count > 0 && deps.summarize) {
      try {
        const result = await deps.summarize({ messages: kept.slice(0, count).map((entry) => entry.source) });
        const content = summaryText(result.text);
        const contentTokens = costs.content(content);
        summary = { ...result, contentTokens, cost: costs.message({ role: "system", content }, contentTokens), included: true };
        // A cached summary may reach further than asked: nothing is both summarised and kept.
        kept.filter((entry) => entry.source.seq <= result.toSeq).forEach((entry) => exclude(entry, "summarized"));
      } catch (error) {
        summaryFailure = error instanceof Error ? error.message : String(error);
      }
    }
    if (over()) runFifo();
  }

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
  for (const entry of history) {
    if (!over()) break;
    exclude(entry, "budget");
  }
  if (over() && summary) summary.included = false;

  const failed = over();
  const messages: ChatMessage[] = failed
    ? []
    : [
        system.message,
        ...(procedure?.included ? [systemMessage(procedureText(procedure.value))] : []),
        ...keptMessage(knowledge, knowledgeText),
        ...keptMessage(episodes, episodesText),
        ...(summary?.included ? [systemMessage(summaryText(summary.text))] : []),
        ...included().map((entry) => entry.message),
        current.message,
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
    { kind: "knowledge", tokens: finalCosts.knowledge, items: knowledge.map(({ value, included: kept }) => retrievedItem(costs, value.id, value.content, kept, value.score, value.source)) },
    { kind: "episodes", tokens: finalCosts.episodes, items: episodes.map(({ value, included: kept }) => retrievedItem(costs, value.id, value.content, kept, value.score, value.occurredAt.slice(0, 10))) },
    { kind: "summary", tokens: finalCosts.summary, items: summaryItems(summary, summaryFailure) },
    {
      kind: "history",
      tokens: historyCost,
      items: history.map((entry) => ({
        id: entry.source.id,
        tokens: entry.contentTokens,
        included: entry.included,
        seq: entry.source.seq,
        ...(entry.reason ? { reason: entry.reason } : {}),
        ...(entry.source.kind ? { source: entry.source.kind === "tool_result" ? `tool:${entry.source.toolName ?? "unknown"}` : entry.source.kind } : {}),
      })),
    },
    { kind: "current", tokens: current.cost, items: [{ id: current.source.id, tokens: current.contentTokens, included: true, seq: current.source.seq }] },
  ];
  if (failed) for (const section of sections) for (const item of section.items) item.included = item.included && (section.kind === "system" || section.kind === "current");

  return {
    messages,
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
      ...(failed ? { error: "budget" as const } : {}),
    },
  };
}

/** The agent's own earlier replies are `assistant`; people, other agents and tools speak as `user` with a name. */
function asSeenBy(message: ConversationMessage, agentId: string): ChatMessage {
  if (message.role === "assistant" && message.authorAgentId === agentId) return { role: "assistant", content: message.content };
  const speaker = message.role === "tool" ? (message.toolName ?? "tool") : message.authorHandle;
  return { role: "user", content: message.content, ...(speaker ? { name: speakerName(speaker) } : {}) };
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
