import { assembleContext, type Assembly } from "@/lib/context/assemble-context";
import type { Prisma } from "@/lib/db/open-database";
import { dispatchTable, type ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import { fenceOf } from "@/lib/jobs/job-table";
import type { Lease } from "@/lib/jobs/lease";
import { counterFor } from "@/lib/llm/token-counter";
import type { ProviderFor } from "@/lib/llm/provider-registry";
import type { LlmProvider } from "@/lib/llm/types";
import { handoffOptions, type HandoffOptions } from "@/lib/handoffs/handoff-options";
import { routeByRules } from "@/lib/handoffs/route-by-rules";
import { retrieveMemory, type MemoryStores } from "@/lib/memory/retrieve-memory";
import { saveSnapshot } from "@/lib/turns/save-snapshot";
import { readContextSettings } from "./agent-settings";
import { loadTurnContext, type TurnContext } from "./load-turn-context";
import { createSummarizer } from "./summarize-history";

export interface PreparedTurn extends TurnContext {
  assembly: Assembly;
  provider: LlmProvider;
  handoffs: HandoffOptions;
  /** The offline model's routing: the rule that matched (null: none did), decided before the snapshot is written. */
  route: ReturnType<typeof routeByRules>;
}

/**
 * Everything before the model is called: the turn's messages and, for orchestrators, their
 * specialists (one statement), memory retrieval (three searches in parallel), assembly under the
 * agent's budget, the routing decision of an offline orchestrator, and the snapshot stored for
 * the inspector, only while the turn's attempt holds its lease. The snapshot is written before the
 * call, so a turn that fails still shows what it would have sent.
 */
export async function prepareTurn(
  { prisma, memory, providerFor }: { prisma: Prisma; memory: MemoryStores; providerFor: ProviderFor },
  { job, signal, lease }: { job: ClaimedDispatch; signal: AbortSignal; lease: Lease },
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
      summarize: createSummarizer({ prisma, provider, model: agent.model, agentId: agent.id, conversationId: job.conversationId, maxTokens: settings.summaryMaxTokens, signal, lease }),
    },
  );
  assembly.snapshot.assemblyMs = Math.round((performance.now() - assemblyStarted) * 100) / 100;
  const route = handoffs.open && provider.name === "offline" ? routeByRules(handoffs.settings, current.content) : null;
  if (handoffs.record) {
    const target = route && handoffs.specialists.find((specialist) => specialist.agentId === route.agentId);
    assembly.snapshot.handoff = {
      ...handoffs.record,
      // Which routing rule decided (the offline model routes by rules; a real model decides by tool call).
      ...(handoffs.open && provider.name === "offline" ? { rule: route ? { index: route.index + 1, pattern: route.pattern, to: target?.handle ?? null } : null } : {}),
    };
  }
  if (!(await saveSnapshot(prisma, assembly.snapshot, fenceOf(dispatchTable, lease)))) lease.refused("its context snapshot was refused");
  return { ...turn, assembly, provider, handoffs, route };
}
