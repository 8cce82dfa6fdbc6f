import { assembleContext, type Assembly } from "@/lib/context/assemble-context";
import type { Prisma } from "@/lib/db/open-database";
import type { ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import { counterFor } from "@/lib/llm/token-counter";
import type { ProviderFor } from "@/lib/llm/provider-registry";
import type { LlmProvider } from "@/lib/llm/types";
import { loadHandoffOptions, type HandoffOptions } from "@/lib/handoffs/handoff-options";
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
 * Everything before the model is called: the turn's messages (one statement), memory retrieval
 * (three searches in parallel) and, for orchestrators, their specialists; assembly under the
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
  const [{ retrieved, timing }, handoffs] = await Promise.all([
    retrieveMemory(memory, {
      agentId: agent.id,
      userId: askedBy,
      conversationId: job.conversationId,
      text: current.content,
      semanticTopK: settings.semanticTopK,
      episodicTopK: settings.episodicTopK,
      procedureThreshold: settings.procedureThreshold,
    }, startedAt),
    loadHandoffOptions(prisma, { agent, job }),
  ]);
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
