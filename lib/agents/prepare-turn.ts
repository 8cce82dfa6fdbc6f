import { assembleContext, type Assembly } from "@/lib/context/assemble-context";
import type { Prisma } from "@/lib/db/open-database";
import type { ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import { counterFor } from "@/lib/llm/token-counter";
import type { ProviderFor } from "@/lib/llm/provider-registry";
import type { LlmProvider } from "@/lib/llm/types";
import { handoffOptions, type HandoffOptions } from "@/lib/handoffs/handoff-options";
import { retrieveMemory, type MemoryStores } from "@/lib/memory/retrieve-memory";
import { saveSnapshot } from "@/lib/turns/save-snapshot";
import { readContextSettings } from "./agent-settings";
import { loadTurnContext, type TurnContext } from "./load-turn-context";
import { createSummarizer } from "./summarize-history";

export interface PreparedTurn extends TurnContext {
  assembly: Assembly;
  provider: LlmProvider;
  handoffs: HandoffOptions;
}

/**
 * Everything before the model is called: the turn's messages and, for orchestrators, their
 * specialists (one statement), memory retrieval (three searches in parallel), assembly under the
 * agent's budget, and the snapshot stored for
 * the inspector. The snapshot is written before the call, so a turn that fails still shows
 * what it would have sent.
 */
export async function prepareTurn(
  { prisma, memory, providerFor }: { prisma: Prisma; memory: MemoryStores; providerFor: ProviderFor },
  { job, signal }: { job: ClaimedDispatch; signal: AbortSignal },
): Promise<PreparedTurn> {
  const startedAt = performance.now();
  const turn = await loadTurnContext(prisma, job);
  const { agent, current, askedBy } = turn;
  const provider = providerFor(agent);
  const settings = readContextSettings(agent.contextSettings);
  const handoffs = handoffOptions({ agent, job });
  const query = { agentId: agent.id, userId: askedBy, conversationId: job.conversationId, text: current.content, ...settings };
  const { retrieved, timing } = await retrieveMemory(memory, query, startedAt);
  const assemblyStarted = performance.now();
  const assembly = await assembleContext(
    {
      turn: { turnId: job.id, conversationId: job.conversationId, agent: { id: agent.id, handle: agent.handle, model: agent.model }, mode: job.mode },
      config: { ...settings, historyWindow: turn.historyWindow },
      systemPrompt: agent.systemPrompt,
      history: turn.history,
      current,
      retrieved,
      retrieval: timing,
    },
    {
      counter: counterFor(agent.model),
      summarize: createSummarizer({ prisma, provider, model: agent.model, agentId: agent.id, conversationId: job.conversationId, maxTokens: settings.summaryMaxTokens, signal }),
    },
  );
  assembly.snapshot.assemblyMs = Math.round((performance.now() - assemblyStarted) * 100) / 100;
  if (handoffs.record) assembly.snapshot.handoff = handoffs.record;
  await saveSnapshot(prisma, assembly.snapshot);
  return { ...turn, assembly, provider, handoffs };
}
