import type { Prisma } from "@/lib/db/open-database";
import type { ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import { publishingWhileHeld, RetryLater, type Lease } from "@/lib/jobs/lease";
import { APPROVAL_WAIT, PROVIDER_WAIT } from "@/lib/dispatch/turn-queue";
import { counterFor } from "@/lib/llm/token-counter";
import type { McpPool } from "@/lib/mcp/mcp-pool";
import type { ProviderFor } from "@/lib/llm/provider-registry";
import { LlmError, type ToolSpec } from "@/lib/llm/types";
import { log } from "@/lib/log/logger";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { TYPING_REFRESH_MS } from "@/lib/realtime/events";
import type { ContextSnapshot } from "@/lib/context/types";
import type { MemoryStores } from "@/lib/memory/retrieve-memory";
import { decideHandoff, type HandoffDecision } from "@/lib/handoffs/decide-handoff";
import { HANDOFF_TOOL, readHandoffCall } from "@/lib/handoffs/handoff-tool";
import type { Published } from "./append-message";
import { mergeForkResult } from "@/lib/handoffs/merge-fork-result";
import { persistHandoff } from "@/lib/handoffs/persist-handoff";
import { routedSummary } from "@/lib/handoffs/routed-summary";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import { capReachedText } from "@/lib/usage/monthly-cap";
import { loadTurnContext, type TurnContext } from "./load-turn-context";
import { prepareTurn, type PreparedTurn } from "./prepare-turn";
import { persistAgentReply } from "./persist-agent-reply";
import { persistRegeneratedReply } from "./persist-regenerated-reply";
import { AwaitingApproval, ToolLoop } from "./tool-loop";
import type { RunningTurns } from "./running-turns";
import type { AgentProvider } from "@/lib/llm/types";

/** TOOL_APPROVAL_MINUTES's default. */
const DEFAULT_APPROVAL_MS = 30 * 60_000;
/** How long a 429 without Retry-After makes a turn wait. */
const RATE_LIMIT_WAIT_MS = 5_000;
/** Up to a fifth more, so turns told to wait together do not all come back at once. */
const jitter = (ms: number) => Math.round(ms * 0.2 * Math.random());

/** A complete answer, for the write phase. */
export interface Answer {
  agentId: string;
  dispatchId: string;
  provider: AgentProvider;
  question: string;
  reply: string;
  toolCalls: { name: string; arguments: string }[];
}

export interface AgentTurnDeps {
  prisma: Prisma;
  /** A getter: server.ts attaches Socket.IO after the runtime exists. */
  publisher(): RealtimePublisher;
  providerFor: ProviderFor;
  turns: RunningTurns;
  memory: MemoryStores;
  /** Tools offered to real models in every turn (capture_procedure). */
  tools?: ToolSpec[];
  /** MCP connections, for the agent's tools. */
  mcp?: McpPool;
  /** How long an ask-first tool call waits for its decision (TOOL_APPROVAL_MINUTES). */
  approvalMs?: number;
  /** After a complete answer (the write phase: e.g. a procedure worth keeping). */
  onAnswered?(answer: Answer): void;
  /** Runs a handoff's next turn now: one this node holds (under the lease's time) directly, one that waits by waking the worker. */
  continueWith?(next: ClaimedDispatch, held: { expiresAt: number } | null): void;
}

/**
 * One agent answering one message: its context is assembled and recorded (prepareTurn), its
 * typing indicator is on while it works, tokens stream to the room, and the reply is persisted
 * once with its metadata. Any LLM failure becomes a reply attributed to the agent that says what
 * went wrong; Stop keeps the text that had arrived; a context that cannot fit the budget is an
 * attributed error without a call. An orchestrator may hand off instead of answering: through the
 * handoff tool (real models) or its routing rules (offline model).
 *
 * The turn runs under its dispatch's lease: losing it (or the node stopping) aborts the model
 * call, nothing more is emitted, and every write is refused unless this attempt still holds it.
 */
export async function runAgentTurn(given: AgentTurnDeps, job: ClaimedDispatch, lease: Lease): Promise<void> {
  const deps = publishingWhileHeld(given, lease);
  const turn = await loadTurnContext(deps.prisma, job);
  // Checked before anything that could call the model (a summary while assembling counts too).
  const cap = turn.monthlyCap;
  if (cap?.reached) {
    log.info("agent monthly token cap reached", { dispatchId: job.id, agentId: job.agentId, cap: cap.cap, used: cap.used });
    return answerWithoutModel(deps, job, lease, turn, (name) => capReachedText(name, cap.cap), "monthly_cap");
  }
  const signal = AbortSignal.any([deps.turns.start(job.id), lease.signal]);
  const started = performance.now();
  let prepared: PreparedTurn;
  try {
    prepared = await prepareTurn(deps, { job, turn, signal, lease });
  } catch (error) {
    deps.turns.finish(job.id);
    throw error;
  }
  const { agent, participantUserIds, assembly, provider, handoffs, route } = prepared;
  const actor = { kind: "agent" as const, id: agent.id, name: agent.displayName };
  const view = { id: agent.id, handle: agent.handle, displayName: agent.displayName, color: agent.color };
  // After a handoff the reply answers the person's message, not the handoff message.
  const answering = job.askMessageId ?? job.messageId;
  const base = { dispatchId: job.id, replyToMessageId: answering, model: agent.model, provider: provider.name, isHandoffSummary: false, isToolResult: false, agentId: agent.id, agentDisplayName: agent.displayName };
  // An answer (whole or stopped) lists the knowledge it was given; tool steps, handoffs and failures do not.
  const cited = prepared.sources.length > 0 ? { sources: prepared.sources } : {};
  if (assembly.snapshot.error === "budget") {
    deps.turns.finish(job.id);
    log.warn("agent context over budget", { dispatchId: job.id, agentId: agent.id, budget: assembly.snapshot.budget.maxTokens });
    await finish(deps, job, lease, prepared, "failed", overBudgetMessage(agent.displayName, assembly.snapshot), { ...base, latencyMs: 0, error: "budget" });
    return;
  }
  const handOff = (request: Parameters<typeof decideHandoff>[1], extra: Partial<MessageMetadata>) =>
    recordHandoff(deps, job, lease, prepared, decideHandoff(handoffs.specialists, request, { orchestrator: agent.displayName, forkDepth: prepared.forkDepth }), {
      ...base,
      ...extra,
      latencyMs: Math.round(performance.now() - started),
    });
  let activity: string | null = null;
  // A turn in a fork is watched from the conversation at its root.
  const announce = (typing: boolean) => deps.publisher().typing(prepared.watchedConversationId, { ...actor, ...(activity ? { activity } : {}) }, typing, participantUserIds);
  const loop = new ToolLoop(
    {
      prisma: deps.prisma,
      mcp: deps.mcp,
      approvalMs: deps.approvalMs ?? DEFAULT_APPROVAL_MS,
      publish: (written) => publish(deps, [written]),
      setActivity: (now) => {
        activity = now;
        announce(true);
      },
      enter: (phase) => deps.turns.enter(job.id, phase),
      onDelta: (text, index) => deps.publisher().messageDelta({ dispatchId: job.id, conversationId: job.conversationId, replyToMessageId: answering, agent: view, attempt: job.attempt, index, text }),
    },
    { job, lease, signal, prepared, counter: counterFor(agent.model), writer: { conversationId: job.conversationId, author: { kind: "agent", ...view }, model: agent.model, metadata: base } },
  );
  announce(true);
  // Indicators expire without a refresh; a long answer keeps its "thinking…" alive.
  const stillThinking = setInterval(() => announce(true), TYPING_REFRESH_MS);
  try {
    const target = route && handoffs.specialists.find((specialist) => specialist.agentId === route.agentId);
    if (route && target) {
      const summary = await routedSummary({ provider, model: agent.model, history: prepared.history, current: prepared.current, signal });
      await handOff({ target: target.handle, summary, reason: `Routing rule ${route.index + 1} (/${route.pattern}/) matched.` }, {});
      return;
    }
    const end = await loop.run();
    deps.turns.enter(job.id, "writing the reply");
    const latencyMs = () => Math.round(performance.now() - started);
    if (end.kind === "budget") {
      log.warn("agent tool steps over budget", { dispatchId: job.id, agentId: agent.id, budget: assembly.snapshot.budget.maxTokens });
      await finish(deps, job, lease, prepared, "failed", stepsOverBudgetMessage(agent.displayName, assembly.snapshot), { ...base, usage: loop.usage, latencyMs: latencyMs(), error: "budget" });
      return;
    }
    const handoffCall = handoffs.open ? end.toolCalls.find((call) => call.name === HANDOFF_TOOL) : undefined;
    if (handoffCall) {
      await handOff(readHandoffCall(handoffCall.arguments), { usage: loop.usage });
      return;
    }
    await finish(deps, job, lease, prepared, "done", end.text || "(answered without text)", { ...base, ...cited, usage: loop.usage, latencyMs: latencyMs() });
    deps.onAnswered?.({ agentId: agent.id, dispatchId: job.id, provider: provider.name, question: prepared.current.content, reply: end.text, toolCalls: end.toolCalls });
  } catch (error) {
    // Database trouble is retried by the worker; a lost lease or a stopping node ends the turn
    // here (the worker gives it back for another node, whose streaming bubble restarts it).
    // A tool call waits for a person: the turn holds nothing meanwhile, and goes on once decided or expired.
    if (error instanceof AwaitingApproval && !lease.signal.aborted) {
      throw new RetryLater(Math.max(0, error.untilMs - Date.now()), `${APPROVAL_WAIT}${error.tools.join(", ")}`);
    }
    if (!(error instanceof LlmError) || lease.signal.aborted) throw error;
    // A 429 or a used-up minute: the turn waits, holding no slot, as long as asked (never dropped).
    if (error.kind === "rate_limit") {
      const waitMs = error.retryAfterMs ?? RATE_LIMIT_WAIT_MS;
      throw new RetryLater(waitMs + jitter(waitMs), `${PROVIDER_WAIT}${error.message}`);
    }
    const latencyMs = Math.round(performance.now() - started);
    if (error.kind === "cancelled") {
      await finish(deps, job, lease, prepared, "done", loop.text || "(stopped before answering)", { ...base, ...cited, usage: loop.usage, latencyMs, stopped: true });
    } else {
      log.warn("agent could not answer", { dispatchId: job.id, agentId: agent.id, kind: error.kind });
      await finish(deps, job, lease, prepared, "failed", `${agent.displayName} could not answer: ${error.message}`, { ...base, latencyMs, error: error.kind });
    }
  } finally {
    clearInterval(stillThinking);
    deps.turns.finish(job.id);
    announce(false);
  }
}

/** A dispatch that failed too often (its workers kept dying, or the database kept failing) ends with a visible message. */
export async function giveUpTurn(given: AgentTurnDeps, job: ClaimedDispatch, lease: Lease): Promise<void> {
  const deps = publishingWhileHeld(given, lease);
  await answerWithoutModel(deps, job, lease, await loadTurnContext(deps.prisma, job), (name) => `${name} could not answer this message after ${job.failures} attempts.`, "attempts");
}

/** The turn ends with a reply from its agent that says why it made no model call (`error` in its metadata). */
async function answerWithoutModel(deps: AgentTurnDeps, job: ClaimedDispatch, lease: Lease, turn: TurnContext, content: (agentName: string) => string, error: string): Promise<void> {
  const { agent } = turn;
  await finish(deps, job, lease, turn, "failed", content(agent.displayName), { agentId: agent.id, agentDisplayName: agent.displayName, dispatchId: job.id, replyToMessageId: job.askMessageId ?? job.messageId, isHandoffSummary: false, isToolResult: false, error });
}

/**
 * The turn's reply, persisted once. In a fork, a reply is the fork's result: it is merged into
 * the conversation the fork came from in the same transaction.
 */
async function finish(
  deps: AgentTurnDeps,
  job: ClaimedDispatch,
  lease: Lease,
  { agent, forkDepth, snapshotSaved }: Pick<TurnContext, "agent" | "forkDepth"> & { snapshotSaved?: () => Promise<void> },
  outcome: "done" | "failed",
  content: string,
  metadata: Omit<Parameters<typeof persistAgentReply>[1]["metadata"], "timestamp">,
): Promise<void> {
  await snapshotSaved?.();
  const reply = {
    dispatchId: job.id,
    attempt: job.attempt,
    conversationId: job.conversationId,
    agent: { id: agent.id, handle: agent.handle, displayName: agent.displayName, color: agent.color },
    content,
    metadata: { ...metadata, timestamp: new Date().toISOString() },
    outcome,
    model: agent.model,
  };
  const written: Published[] | null = job.regeneratesMessageId
    ? await persistRegeneratedReply(deps.prisma, reply, job.regeneratesMessageId).then((persisted) => persisted && [persisted])
    : forkDepth === 0
      ? await persistAgentReply(deps.prisma, reply).then((persisted) => persisted && [persisted])
      : await deps.prisma.$transaction(async (tx) => {
          const persisted = await persistAgentReply(tx, reply);
          return persisted && [persisted, ...(await mergeForkResult(tx, { forkId: job.conversationId, reply: persisted.message, model: agent.model }))];
        });
  if (!written) return lease.lose("its reply was refused: another attempt owns the turn");
  publish(deps, written);
}

/** The orchestrator's handoff (or its refusal) ends its turn; the next turn is already queued. */
async function recordHandoff(deps: AgentTurnDeps, job: ClaimedDispatch, lease: Lease, { agent, snapshotSaved }: PreparedTurn, decision: HandoffDecision, metadata: Omit<MessageMetadata, "timestamp">): Promise<void> {
  await snapshotSaved();
  const orchestrator = { id: agent.id, handle: agent.handle, displayName: agent.displayName, color: agent.color };
  const written = await persistHandoff(deps.prisma, { job, orchestrator, model: agent.model, metadata: { ...metadata, timestamp: new Date().toISOString() }, decision });
  if (!written) return lease.lose("its handoff was refused: another attempt owns the turn");
  // A next turn written running carries this lease's expiry: this node runs it at once.
  deps.continueWith?.(written.next, written.held ? { expiresAt: lease.expiresAt } : null);
  if (decision.kind === "refused") log.warn("handoff refused", { dispatchId: job.id, agentId: agent.id, requested: decision.requested, why: decision.why });
  publish(deps, [written.handoff]);
}

function publish(deps: AgentTurnDeps, written: Published[]): void {
  for (const { message, participantUserIds, answersUserId, updated } of written) {
    if (updated) deps.publisher().messageUpdated(message);
    else deps.publisher().messageCreated(message, { participantUserIds, mentionedUserIds: [], answersUserId });
  }
}

/** Why a turn ended in its tool loop: even its answer, without tools, would not fit (context.md, "Tool steps"). */
function stepsOverBudgetMessage(name: string, snapshot: ContextSnapshot): string {
  return `${name} could not answer: the results of its tool calls no longer fit its working memory budget of ${snapshot.budget.maxTokens.toLocaleString("en")} tokens. Ask again more narrowly, or ask an admin to raise the budget.`;
}

/** Why a turn was not even attempted: the system prompt and the message alone overflow the budget. */
function overBudgetMessage(name: string, snapshot: ContextSnapshot): string {
  const needed = snapshot.sections.filter((section) => section.kind === "system" || section.kind === "current").reduce((sum, section) => sum + section.tokens, 3);
  return `${name} could not answer: its instructions and this message need ${needed.toLocaleString("en")} tokens, more than its working memory budget of ${snapshot.budget.maxTokens.toLocaleString("en")}. Send a shorter message, or ask an admin to raise the budget.`;
}
