import { assembleContext, type Assembly } from "@/lib/context/assemble-context";
import type { Prisma } from "@/lib/db/open-database";
import { dispatchTable, type ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import { fenceOf } from "@/lib/jobs/job-table";
import type { Lease } from "@/lib/jobs/lease";
import { counterFor } from "@/lib/llm/token-counter";
import type { ProviderFor } from "@/lib/llm/provider-registry";
import type { LlmProvider, ToolSpec } from "@/lib/llm/types";
import { handoffOptions, type HandoffOptions } from "@/lib/handoffs/handoff-options";
import { handoffTool } from "@/lib/handoffs/handoff-tool";
import { describeContext } from "@/lib/context/describe-context";
import type { McpPool } from "@/lib/mcp/mcp-pool";
import { toolsForTurn, type TurnTool } from "@/lib/mcp/tools-for-turn";
import { routeByRules } from "@/lib/handoffs/route-by-rules";
import { retrieveMemory, type MemoryStores } from "@/lib/memory/retrieve-memory";
import { saveSnapshot } from "@/lib/turns/save-snapshot";
import type { ReplySource } from "@/lib/conversations/message-metadata";
import { readContextSettings, type ContextSettings } from "./agent-settings";
import type { TurnContext } from "./load-turn-context";
import { replySources } from "./reply-sources";
import { createSummarizer } from "./summarize-history";
import { chorusTools, procedureToolsFirst } from "./turn-tools";

export interface PreparedTurn extends TurnContext {
  assembly: Assembly;
  provider: LlmProvider;
  handoffs: HandoffOptions;
  /** The offline model's routing: the rule that matched (null: none did), decided before the snapshot is written. */
  route: ReturnType<typeof routeByRules>;
  settings: ContextSettings;
  /** The MCP tools the turn may call (those offered are in assembly.tools, with Chorus's own). */
  tools: TurnTool[];
  /** What the context holds, in words (the offline model tells it). */
  contextReport: string;
  /** The knowledge the context included, numbered as the model saw it: the reply's sources. */
  sources: ReplySource[];
  /**
   * The snapshot's first write, started by the first call: once the model has begun to answer, so
   * that it never delays the call (on the embedded database a write holds the event loop), or by
   * the turn's next write, which waits for it (so a turn that fails still shows what it sent).
   * Rejects, and aborts the turn, when refused.
   */
  snapshotSaved(): Promise<void>;
  /** Whether that first write has not begun yet. */
  snapshotPending(): boolean;
}

export interface PrepareDeps {
  prisma: Prisma;
  memory: MemoryStores;
  providerFor: ProviderFor;
  /** Chorus's tools offered to real models in every turn (capture_procedure). */
  tools?: ToolSpec[];
  /** MCP connections: the agent's tools, listed as its servers list them now. */
  mcp?: McpPool;
}

/**
 * Everything before the model is called, once the turn is loaded (loadTurnContext: its messages
 * and, for orchestrators, their specialists, in one statement): memory retrieval (three searches in parallel), assembly under the
 * agent's budget, the routing decision of an offline orchestrator, and the snapshot stored for
 * the inspector, only while the turn's attempt holds its lease (written once the model answers,
 * or before the turn's next write: see snapshotSaved), so a turn that fails still shows what it
 * would have sent.
 */
export async function prepareTurn(
  { prisma, memory, providerFor, tools: ownTools = [], mcp }: PrepareDeps,
  { job, turn, signal, lease }: { job: ClaimedDispatch; turn: TurnContext; signal: AbortSignal; lease: Lease },
): Promise<PreparedTurn> {
  const startedAt = performance.now();
  const { agent, current, askedBy } = turn;
  const provider = providerFor(agent);
  const settings = readContextSettings(agent.contextSettings);
  const handoffs = handoffOptions({ agent, job });
  const query = { agentId: agent.id, userId: askedBy, conversationId: job.conversationId, text: current.content, presence: turn.memory, ...settings };
  // A server that is down leaves its tools out (with the reason) within the pool's timeout, while memory is searched.
  const [{ retrieved, timing }, mcpTools] = await Promise.all([
    retrieveMemory(memory, query, startedAt),
    mcp && agent.hasTools ? toolsForTurn(prisma, mcp, { agentId: agent.id, signal }) : { tools: [], unavailable: [] },
  ]);
  const tools = procedureToolsFirst(mcpTools.tools, retrieved.procedure);
  // Real models decide handoffs and captures by calling Chorus's tools; the offline model routes by rules.
  const chorus = provider.name === "openai" ? chorusTools([...ownTools, ...(handoffs.open ? [handoffTool(handoffs.specialists)] : [])]) : [];
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
      tools: [...tools, ...chorus],
    },
    {
      counter: counterFor(agent.model),
      summarize: createSummarizer({ prisma, provider, model: agent.model, agentId: agent.id, conversationId: job.conversationId, maxTokens: settings.summaryMaxTokens, signal, lease }),
    },
  );
  assembly.snapshot.assemblyMs = Math.round((performance.now() - assemblyStarted) * 100) / 100;
  if (mcpTools.unavailable.length > 0) assembly.snapshot.toolsUnavailable = mcpTools.unavailable;
  // A turn that cannot be assembled makes no call.
  if (assembly.snapshot.error === "budget") assembly.snapshot.calls = [];
  const route = handoffs.open && provider.name === "offline" ? routeByRules(handoffs.settings, current.content) : null;
  if (handoffs.record) {
    const target = route && handoffs.specialists.find((specialist) => specialist.agentId === route.agentId);
    assembly.snapshot.handoff = {
      ...handoffs.record,
      // Which routing rule decided (the offline model routes by rules; a real model decides by tool call).
      ...(handoffs.open && provider.name === "offline" ? { rule: route ? { index: route.index + 1, pattern: route.pattern, to: target?.handle ?? null } : null } : {}),
    };
  }
  let saving: Promise<void> | null = null;
  const snapshotSaved = () => {
    saving ??= saveSnapshot(prisma, assembly.snapshot, fenceOf(dispatchTable, lease)).then((saved) => {
      if (!saved) lease.refused("its context snapshot was refused");
    });
    // Awaited by the turn's next write; until then a refusal only aborts the model call.
    saving.catch(() => undefined);
    return saving;
  };
  const snapshotPending = () => saving === null;
  return { ...turn, assembly, provider, handoffs, route, settings, tools, contextReport: describeContext(assembly.snapshot), sources: replySources(assembly.snapshot, retrieved.knowledge), snapshotSaved, snapshotPending };
}
