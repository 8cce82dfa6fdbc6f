import { AIMessage, HumanMessage, SystemMessage, trimMessages, type BaseMessage } from "@langchain/core/messages";
import { assembleContext, noTiming, type AssemblyInput } from "@/lib/context/assemble-context";
import { MessageCosts, REPLY_PRIMING_TOKENS } from "@/lib/context/message-costs";
import { speakerName } from "@/lib/context/section-text";
import { noRetrieval, type ContextConfig, type ConversationMessage, type Summarize } from "@/lib/context/types";
import { counterFor } from "@/lib/llm/token-counter";
import { result, type BenchResult } from "./measure";
import { measureFirstTokenWithMemory } from "./memory-first-token";
import { measureIngestion, measureSemanticSearch } from "./memory-search";

const HISTORY = 10_000;
const BUDGET = 8_000;
const RUNS = 200;
const WARMUP = 20;
const BASELINE_RUNS = 15;
const AGENT = "agent-bench";
const counter = counterFor("gpt-4o-mini");

/**
 * Assembling a 10,000-message history (window 10,000, budget 8k) with each pruner, against
 * LangChain's trimMessages on the same messages with the same counter (tiktoken's o200k counts,
 * stored per message, and OpenAI's per-message formula), in the same run.
 */
export async function measureMemory(): Promise<BenchResult[]> {
  return [...(await measureAssembly()), await measureFirstTokenWithMemory(), ...(await measureSemanticSearch(20_000)), ...(await measureIngestion())];
}

/** `npm run bench -- memory-large`: the search over 100,000 chunks. */
export function measureMemoryLarge(): Promise<BenchResult[]> {
  return measureSemanticSearch(100_000, "_100k");
}

async function measureAssembly(): Promise<BenchResult[]> {
  const history = conversation(HISTORY);
  const current: ConversationMessage = { id: "current", seq: HISTORY + 1, role: "user", content: "What did we decide about the release?", authorAgentId: null, authorHandle: "ann", tokens: null };
  const byPruner: [ContextConfig["pruningStrategy"], number][] = [];
  const inputFor = (strategy: ContextConfig["pruningStrategy"]): AssemblyInput => ({
    turn: { turnId: "bench", conversationId: "bench", agent: { id: AGENT, handle: "bench", model: "gpt-4o-mini" } },
    config: { maxWorkingMemoryTokens: BUDGET, historyWindow: HISTORY + 1, pruningStrategy: strategy, minHistoryMessages: 4, slidingWindowTurns: 10, summarizeFraction: 0.3, acceptsImages: false, maxAttachmentTokens: 2_000 },
    systemPrompt: "You are a helpful release manager.",
    history,
    current,
    retrieved: noRetrieval,
    retrieval: { episodic: noTiming, semantic: noTiming, procedural: noTiming },
  });
  // Summarize with its cached summary: the cache answers, no model is called.
  const summarize: Summarize = async ({ messages }) => ({ text: "The team planned the release and agreed on the checklist.", fromSeq: messages[0]!.seq, toSeq: messages.at(-1)!.seq });
  for (const strategy of ["fifo", "summarize", "sliding_window"] as const) {
    const input = inputFor(strategy);
    byPruner.push([strategy, await medianMs(RUNS, WARMUP, () => assembleContext(input, { counter, summarize }))]);
  }
  const fifoKept = (await assembleContext(inputFor("fifo"), { counter })).messages.length;
  const langChainKept = (await trimWithLangChain(history, current)).length;
  checkSameWork(fifoKept, langChainKept, history.length + 2);
  // After ours: the baseline's garbage would otherwise be collected during our runs.
  const baseline = await medianMs(BASELINE_RUNS, 3, () => trimWithLangChain(history, current));
  const slowest = Math.max(...byPruner.map(([, ms]) => ms));
  return [
    result("context.assembly_10k_ms", "ms", slowest, baseline, { ratioAtMost: 0.05 }),
    ...byPruner.map(([strategy, ms]) => result(`context.assembly_10k_ms.${strategy}`, "ms", ms, baseline)),
    result("context.assembly_10k_kept_messages.fifo", "messages", fifoKept, langChainKept),
  ];
}

/** People and two agents talking, with stored token counts as the database holds them. */
function conversation(size: number): ConversationMessage[] {
  const topics = ["the release checklist", "flaky tests in CI", "the staging database", "customer feedback on search", "Friday's demo"];
  return Array.from({ length: size }, (_, index) => {
    const own = index % 3 === 1;
    const content = `${own ? "Noted:" : "About"} ${topics[index % topics.length]}, point ${index}. ${"We should check it again tomorrow. ".repeat(1 + (index % 4))}`;
    return {
      id: `m${index}`,
      seq: index + 1,
      role: own || index % 3 === 2 ? "assistant" : "user",
      content,
      authorAgentId: own ? AGENT : index % 3 === 2 ? "agent-other" : null,
      authorHandle: own ? "bench" : index % 3 === 2 ? "ada" : index % 2 ? "ann" : "bob",
      tokens: { count: counter.count(content), encoding: counter.encoding },
    };
  });
}

/**
 * LangChain's trimMessages with OpenAI's per-message formula and the stored content counts. Costs
 * are looked up by what a message is (role, name, content), never by the message object:
 * trimMessages copies the messages it is given, so a map keyed by objects would find none and
 * count every message as free.
 */
function trimWithLangChain(history: ConversationMessage[], current: ConversationMessage): Promise<BaseMessage[]> {
  const costs = new MessageCosts(counter);
  const contentTokens = new Map<string, number>();
  const toLangChain = (message: ConversationMessage): BaseMessage => {
    contentTokens.set(message.content, message.tokens?.count ?? costs.content(message.content));
    if (message.authorAgentId === AGENT) return new AIMessage({ content: message.content });
    return new HumanMessage({ content: message.content, name: speakerName(message.authorHandle ?? "user") });
  };
  const system = new SystemMessage("You are a helpful release manager.");
  const messages = [system, ...history.map(toLangChain), toLangChain(current)];
  const costOf = (message: BaseMessage) => {
    const content = String(message.content);
    const role = message.getType() === "ai" ? "assistant" : message.getType() === "system" ? "system" : "user";
    return costs.cost(role, message.name, contentTokens.get(content) ?? costs.content(content));
  };
  const tokenCounter = (list: BaseMessage[]) => list.reduce((sum, message) => sum + costOf(message), REPLY_PRIMING_TOKENS);
  return trimMessages(messages, { maxTokens: BUDGET, strategy: "last", tokenCounter, includeSystem: true, startOn: "human" });
}

/**
 * Both sides did the same work: each kept what fits the budget, and about the same messages (FIFO
 * takes a leading assistant reply along, trimMessages starts on a person's message: a message or
 * two apart). A baseline that trims nothing, or keeps something else, makes the ratio meaningless.
 */
function checkSameWork(ours: number, theirs: number, total: number): void {
  if (theirs >= total) throw new Error(`the LangChain baseline trimmed nothing (${theirs} of ${total} messages kept): its ratio would mean nothing`);
  if (Math.abs(ours - theirs) > 2) throw new Error(`FIFO kept ${ours} messages and the LangChain baseline ${theirs}: they did not do the same work`);
}

async function medianMs(runs: number, warmup: number, run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < warmup; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}
