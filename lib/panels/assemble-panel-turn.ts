import { readContextSettings } from "@/lib/agents/agent-settings";
import { loadTurnContext, type TurnContext } from "@/lib/agents/load-turn-context";
import { createSummarizer } from "@/lib/agents/summarize-history";
import { assembleContext } from "@/lib/context/assemble-context";
import { countPrompt } from "@/lib/context/message-costs";
import { summaryText } from "@/lib/context/section-text";
import type { ContextSnapshot, ConversationMessage, Retrieved } from "@/lib/context/types";
import type { Prisma } from "@/lib/db/open-database";
import { fenceOf } from "@/lib/jobs/job-table";
import type { Lease } from "@/lib/jobs/lease";
import { isStepMessage, textOf, type ChatMessage, type ContentPart, type LlmProvider } from "@/lib/llm/types";
import { counterFor } from "@/lib/llm/token-counter";
import { retrieveMemory, type MemoryStores } from "@/lib/memory/retrieve-memory";
import { saveSnapshot } from "@/lib/turns/save-snapshot";
import { panelTable } from "./panel-table";
import { coordinationSections, PANEL_INSTRUCTIONS, roundPrompt, type PanelAnswerView, type PanelVoteView, type PromptLine } from "./panel-prompt";

/** What stays the same for a panel agent across its rounds: its settings, the thread before the question, its memory. */
export interface PanelMember {
  turn: TurnContext;
  retrieved: Retrieved;
  retrieval: ContextSnapshot["retrieval"];
}

/** Section tags, the question's label and the message's own overhead, on top of the answers' and votes' text. */
const FRAME_TOKENS = 60;
const SUMMARY_PREFIX = summaryText("");

export async function loadPanelMember(
  { prisma, memory }: { prisma: Prisma; memory: MemoryStores },
  { agentId, conversationId, questionMessageId }: { agentId: string; conversationId: string; questionMessageId: string },
): Promise<PanelMember> {
  const startedAt = performance.now();
  const turn = await loadTurnContext(prisma, { id: `panel:${agentId}`, agentId, conversationId, messageId: questionMessageId, attempt: 1, failures: 0, askMessageId: null, mode: "direct", historyLimit: null, depth: 0, allowHandoff: false, regeneratesMessageId: null });
  const settings = readContextSettings(turn.agent.contextSettings);
  const { retrieved, timing } = await retrieveMemory(memory, { agentId, userId: turn.askedBy, conversationId, text: turn.current.content, presence: turn.memory, ...settings }, startedAt);
  return { turn, retrieved, retrieval: timing };
}

/**
 * A message as a round quotes it, from what the assembly made of it: "name: text", then its files'
 * frames and notes (the rendered text goes on past the message's own), and its image parts apart.
 */
function quoted(message: ConversationMessage, rendered: ChatMessage): { line: PromptLine; images: ContentPart[] } {
  const text = `${message.authorHandle ?? message.role}: ${message.content}`;
  const images = typeof rendered.content === "string" ? [] : rendered.content.filter((part) => part.type === "image_url");
  return { line: { text, files: textOf(rendered.content).slice(message.content.length) }, images };
}

/**
 * One start of a panel agent, its context rebuilt from scratch (seed 001): its system prompt with
 * the panel's instructions and its memory sections, then one user message with the conversation
 * before the question (pruned by the agent's budget and pruner, after room is kept for the
 * answers and votes), the question, the current answers and the voting state. The snapshot
 * (mode "panel") is stored before the call, as for every turn, while the coordinator holds the panel.
 */
export async function assemblePanelTurn(
  { prisma, provider, signal, lease }: { prisma: Prisma; provider: LlmProvider; signal: AbortSignal; lease: Lease },
  {
    member,
    turnId,
    panel,
    answers,
    votes,
    round,
  }: { member: PanelMember; turnId: string; panel: { id: string; conversationId: string; maxRounds: number }; answers: PanelAnswerView[]; votes: PanelVoteView[]; round: number },
): Promise<{ messages: ChatMessage[]; snapshot: ContextSnapshot }> {
  const { agent, history, current } = member.turn;
  const settings = readContextSettings(agent.contextSettings);
  const counter = counterFor(agent.model);
  const started = performance.now();
  const { maxRounds } = panel;
  const reserve = counter.count(coordinationSections({ answers, votes, round, maxRounds })) + FRAME_TOKENS;
  const maxTokens = settings.maxWorkingMemoryTokens;
  const assembly = await assembleContext(
    {
      turn: { turnId, conversationId: panel.conversationId, agent: { id: agent.id, handle: agent.handle, model: agent.model }, mode: "panel" },
      config: { ...settings, maxWorkingMemoryTokens: Math.max(1, maxTokens - reserve), historyWindow: agent.historyWindow },
      systemPrompt: `${agent.systemPrompt}\n\n${PANEL_INSTRUCTIONS}`,
      // A panel quotes the thread's messages; the agents' tool steps stay with their turns.
      history: history.map((message) => ({ ...message, steps: undefined })),
      current,
      retrieved: member.retrieved,
      retrieval: member.retrieval,
    },
    { counter, summarize: createSummarizer({ prisma, provider, model: agent.model, agentId: agent.id, conversationId: panel.conversationId, maxTokens: settings.summaryMaxTokens, signal, lease }) },
  );
  const snapshot = assembly.snapshot;
  snapshot.budget.maxTokens = maxTokens;
  snapshot.panel = { panelId: panel.id, round, maxRounds, answers: answers.length, votes: votes.length };
  const save = async () => {
    if (!(await saveSnapshot(prisma, snapshot, fenceOf(panelTable, lease)))) lease.refused("a panel turn's snapshot was refused");
  };
  const fail = async () => {
    Object.assign(snapshot, { error: "budget", messages: [] });
    snapshot.budget.usedTokens = 0;
    await save();
    return { messages: [], snapshot };
  };
  if (snapshot.error) return fail();

  // The pruned thread becomes lines of one section; the memory sections stay system messages.
  const byId = new Map(history.map((message) => [message.id, message]));
  const historySection = snapshot.sections.find((section) => section.kind === "history")!;
  const kept = historySection.items.filter((item) => item.included);
  // The assembly's last messages are the kept history and the question, in order (a panel's history brings no tool steps).
  const chat = assembly.messages.filter((message): message is ChatMessage => !isStepMessage(message));
  const rendered = chat.slice(-(kept.length + 1));
  const lineOf = new Map(kept.map((item, index) => [item.id, quoted(byId.get(item.id)!, rendered[index]!)]));
  const question = quoted(current, rendered.at(-1)!);
  const summary = chat.find((message) => message.role === "system" && textOf(message.content).startsWith(SUMMARY_PREFIX));
  const system = chat.filter((message) => message.role === "system" && message !== summary);
  const compose = (): ChatMessage[] => {
    const lines = kept.map((item) => lineOf.get(item.id)!);
    const prompt = roundPrompt({ history: [...(summary ? [textOf(summary.content)] : []), ...lines.map((each) => each.line)], question: question.line, answers, votes, round, maxRounds });
    // Images the kept messages showed go after the round's text, as in any message with images.
    const images = [...lines, question].flatMap((each) => each.images);
    return [...system, { role: "user", content: images.length === 0 ? prompt : [{ type: "text", text: prompt }, ...images] }];
  };
  // Each composition is counted once (the whole round's text in one message: counting it is most of the assembly).
  let messages = compose();
  let usedTokens = countPrompt(messages, counter);
  // The reserve is an estimate: when the composed message still overflows, the oldest lines go, with their files.
  while (usedTokens > maxTokens && kept.length > 0) {
    const dropped = kept.shift()!;
    Object.assign(dropped, { included: false, reason: "budget" });
    for (const file of dropped.attachments ?? []) Object.assign(file, { included: false, reason: "budget" });
    messages = compose();
    usedTokens = countPrompt(messages, counter);
  }
  // Without any history the answers and votes alone overflow: the model is not called (context.md, budget step 5).
  if (usedTokens > maxTokens) return fail();
  snapshot.messages = messages;
  snapshot.budget.usedTokens = usedTokens;
  snapshot.assemblyMs = Math.round((performance.now() - started) * 100) / 100;
  await save();
  return { messages, snapshot };
}
