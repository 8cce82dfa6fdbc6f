import { randomUUID } from "node:crypto";
import type { Published } from "./append-message";
import { planNextCall } from "@/lib/context/plan-next-call";
import { toolSpecOf } from "@/lib/context/offered-tools";
import { cutToolResultYielding, notRunResult } from "@/lib/context/tool-results";
import type { CallRecord, OfferedTool, StepRecord } from "@/lib/context/types";
import type { StepCallMetadata, ToolResultMetadata } from "@/lib/conversations/message-metadata";
import type { Prisma } from "@/lib/db/open-database";
import { dispatchTable, type ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import { fenceOf } from "@/lib/jobs/job-table";
import type { Lease } from "@/lib/jobs/lease";
import type { TokenCounter } from "@/lib/llm/token-counter";
import { LlmError, type LlmProvider, type StepMessage } from "@/lib/llm/types";
import { log } from "@/lib/log/logger";
import { checkToolArguments } from "@/lib/mcp/check-tool-arguments";
import { McpFailure } from "@/lib/mcp/mcp-failure";
import type { McpPool } from "@/lib/mcp/mcp-pool";
import { toolResultText } from "@/lib/mcp/tool-result-text";
import type { TurnTool } from "@/lib/mcp/tools-for-turn";
import { endApproval, readApprovals, type ApprovalState } from "@/lib/tool-calls/end-approval";
import { persistAnsweredStep, persistToolResult, persistToolStep, type ResultWrite, type StepWrite, type StepWriter } from "@/lib/tool-calls/persist-steps";
import { loadStoredSteps, noStoredSteps, stepRecordOf, toolCallsMessage } from "@/lib/tool-calls/stored-steps";
import { saveSnapshot } from "@/lib/turns/save-snapshot";
import { stillHolds } from "@/lib/jobs/job-table";
import type { PreparedTurn } from "./prepare-turn";

/** Thrown when a step's ask-first call waits for a person: the turn is given back until `untilMs` (the approval's expiry) or the decision. */
export class AwaitingApproval extends Error {
  constructor(
    readonly untilMs: number,
    readonly tools: string[],
  ) {
    super(`waiting for approval of ${tools.join(", ")}`);
    this.name = "AwaitingApproval";
  }
}

export interface ToolLoopDeps {
  prisma: Prisma;
  mcp?: McpPool;
  /** How long an ask-first call waits for its decision. */
  approvalMs: number;
  /** Tells the room about a message the loop wrote (a step or a result). */
  publish(written: Published): void;
  /** The agent's live activity ("using search_notes"); null when it is thinking again. */
  setActivity(activity: string | null): void;
  /** A piece of the current model call's text, numbered from 0 for each call. */
  onDelta(text: string, index: number): void;
  /** Where the turn is now (RunningTurns.enter), for the log of a turn that does not stop. */
  enter(phase: string): void;
}

export interface LoopTurn {
  job: ClaimedDispatch;
  lease: Lease;
  signal: AbortSignal;
  prepared: PreparedTurn;
  writer: Omit<StepWriter, "prisma" | "fence">;
  counter: TokenCounter;
}

/** How a turn's model calls ended: with its answer (and the Chorus tools it called with it), or at the budget. */
export type LoopEnd = { kind: "answer"; text: string; toolCalls: { id: string; name: string; arguments: string }[] } | { kind: "budget" };

const CHORUS = "chorus";

/** How an approval ended for a call, and what the model is told instead of a result when the call does not run. */
interface Decision {
  approval: ToolResultMetadata["approval"];
  decidedBy?: string;
  notRun?: string;
}

/**
 * A turn's model calls (context.md, "Tool steps"): the first sends the assembled context and the
 * tools; while the model asks for MCP tools (at most `maxToolSteps` times), each step is stored
 * with its calls, the calls run (checked against their schemas, ask-first ones only once a person
 * approved them, each within its timeout, cut to `maxToolResultTokens`) and are stored as results,
 * and the next call sends the steps so far, within budget (planNextCall). A call that waits for a
 * person ends the attempt (AwaitingApproval); the next attempt goes on from the stored steps, so a
 * turn survives restarts and moves between nodes without asking the model twice. Chorus's own
 * tools (handoff, capture_procedure) end the loop: the caller acts on them.
 */
export class ToolLoop {
  /** What the current model call has said so far (kept when the person presses Stop). */
  text = "";
  usage: { inputTokens: number; outputTokens: number } | undefined;
  private steps: StepMessage[] = [];
  private records: StepRecord[] = [];
  private calls: CallRecord[] = [];
  /** How many calls and steps the snapshot's last write held (both only grow). */
  private snapshotHolds: { calls: number; steps: number } | null = null;
  private stepCount = 0;
  private turnStartedAt = new Date().toISOString();
  private readonly tools: Map<string, TurnTool>;
  private readonly offered: OfferedTool[];

  constructor(
    private readonly deps: ToolLoopDeps,
    private readonly turn: LoopTurn,
  ) {
    this.tools = new Map(turn.prepared.tools.map((tool) => [tool.name, tool]));
    this.offered = turn.prepared.assembly.tools;
  }

  private get fence() {
    return fenceOf(dispatchTable, this.turn.lease);
  }

  private get writer(): StepWriter {
    return { prisma: this.deps.prisma, fence: this.fence, ...this.turn.writer };
  }

  async run(): Promise<LoopEnd> {
    const { prepared, job } = this.turn;
    // Every claim is a new attempt, so a first attempt has stored nothing: one statement less before the model is called.
    const stored = job.attempt > 1 ? await loadStoredSteps(this.deps.prisma, job.id) : noStoredSteps();
    this.steps = stored.messages;
    this.records = stored.records;
    this.calls = stored.calls;
    this.stepCount = stored.calls.length;
    this.turnStartedAt = stored.turnStartedAt ?? this.turnStartedAt;
    if (stored.open) {
      await this.snapshotBegun();
      await this.resolve(stored.open.calls);
    }
    const { maxToolSteps } = prepared.settings;
    for (;;) {
      const plan = planNextCall({
        messages: prepared.assembly.messages,
        messagesTokens: prepared.assembly.messagesTokens,
        // The last step allowed: the model is asked for its answer, without tools.
        tools: this.stepCount < maxToolSteps ? this.offered : [],
        steps: this.steps,
        maxTokens: prepared.assembly.snapshot.budget.maxTokens,
        counter: this.turn.counter,
      });
      this.calls.push(plan.call);
      if (plan.call.error) {
        await this.saveSnapshot();
        return { kind: "budget" };
      }
      const answer = await this.callModel(plan.messages, plan.withTools);
      const mcpCalls = answer.toolCalls.filter((call) => !this.isChorus(call.name));
      const handsOff = answer.toolCalls.some((call) => call.name === "handoff");
      if (!plan.withTools || mcpCalls.length === 0 || handsOff) {
        await this.saveSnapshot();
        return { kind: "answer", text: answer.text, toolCalls: answer.toolCalls };
      }
      await this.takeStep(answer.text, answer.toolCalls, plan.call.usedTokens);
    }
  }

  private isChorus(name: string): boolean {
    return this.offered.some((tool) => tool.name === name && tool.server === CHORUS);
  }

  private async callModel(messages: ReturnType<typeof planNextCall>["messages"], withTools: boolean) {
    const { prepared, signal } = this.turn;
    const { agent, provider } = prepared;
    this.text = "";
    let index = 0;
    const toolCalls: { id: string; name: string; arguments: string }[] = [];
    const request = {
      model: agent.model,
      messages,
      temperature: agent.temperature,
      maxOutputTokens: agent.maxOutputTokens,
      signal,
      contextReport: prepared.contextReport,
      tools: withTools ? this.offered.map(toolSpecOf) : undefined,
      deferRateLimit: true,
    } satisfies Parameters<LlmProvider["stream"]>[0];
    this.deps.enter("waiting for the model");
    let answering = false;
    for await (const event of provider.stream(request)) {
      if (event.type === "usage") this.usage = { inputTokens: (this.usage?.inputTokens ?? 0) + event.inputTokens, outputTokens: (this.usage?.outputTokens ?? 0) + event.outputTokens };
      else if (event.type === "tool_call") toolCalls.push({ ...event, id: this.uniqueCallId(event.id) });
      else {
        this.text += event.text;
        this.deps.onDelta(event.text, index++);
      }
      if (!answering) {
        answering = true;
        this.deps.enter("reading the model's answer");
        // The call is out and answering, its first piece already sent on: the snapshot's write no longer delays either.
        void this.snapshotBegun().catch(() => undefined);
      }
    }
    return { text: this.text, toolCalls };
  }

  /**
   * The call's id, unless this turn used it already (some OpenAI-compatible servers number each
   * answer's calls from 0) or the provider gave none: results and approvals are found by it.
   */
  private uniqueCallId(id: string): string {
    const used = this.steps.some((step) => step.role === "assistant" && step.tool_calls.some((call) => call.id === id));
    return id && !used ? id : `call_${randomUUID()}`;
  }

  /**
   * One step: its calls, each with its approval when it must wait for one (calls that cannot run
   * are known now, so no one is asked about them). With an ask-first call the step is stored first
   * and its calls resolved from there (they may wait); without, the calls run first and the step
   * is stored with its results in one transaction.
   */
  private async takeStep(content: string, asked: { id: string; name: string; arguments: string }[], usedTokens: number): Promise<void> {
    await this.snapshotBegun();
    const calls = asked.map((call): StepCallMetadata => {
      const tool = this.tools.get(call.name);
      const askFirst = tool?.askFirst === true && checkToolArguments(tool, call.arguments).ok;
      return {
        id: call.id,
        name: call.name,
        server: tool?.server ?? (this.isChorus(call.name) ? CHORUS : "unknown"),
        tool: tool?.toolName ?? call.name,
        arguments: call.arguments,
        askFirst: tool?.askFirst ?? false,
        approval: askFirst ? "pending" : "none",
        ...(askFirst ? { approvalId: randomUUID() } : {}),
      };
    });
    const { askedBy, askedByName } = this.turn.prepared;
    const step: StepWrite = {
      content,
      step: { calls, usedTokens, turnStartedAt: this.turnStartedAt, askedBy: askedBy ? { id: askedBy, name: askedByName ?? "the person who asked" } : null },
      expiresAt: new Date(Date.now() + this.deps.approvalMs),
    };
    this.stepCount += 1;
    if (calls.some((call) => call.approval === "pending")) {
      const written = await persistToolStep(this.writer, step);
      if (!written) this.turn.lease.refused("its tool step was refused");
      this.deps.publish(written);
      this.steps.push(toolCallsMessage(content, calls));
      return this.resolve(calls);
    }
    const results: ResultWrite[] = [];
    for (const call of calls) results.push(await this.outcome(call, undefined));
    const written = await persistAnsweredStep(this.writer, step, results);
    if (!written) this.turn.lease.refused("its tool step was refused");
    written.forEach(this.deps.publish);
    this.steps.push(toolCallsMessage(content, calls));
    results.forEach((result, index) => this.remember(calls[index]!, result));
  }

  /** Runs or answers each call of the step that has no result yet; throws AwaitingApproval when some still wait for a person. */
  private async resolve(calls: StepCallMetadata[]): Promise<void> {
    const approvals = calls.some((call) => call.approval !== "none") ? await readApprovals(this.deps.prisma, this.turn.job.id) : new Map<string, ApprovalState>();
    const waiting: { call: StepCallMetadata; until: number }[] = [];
    for (const call of calls) {
      const approval = approvals.get(call.id);
      if (approval?.status === "pending" && !approval.expired) {
        waiting.push({ call, until: approval.expiresAt.getTime() });
        continue;
      }
      const result = await this.outcome(call, approval);
      const written = await persistToolResult(this.writer, result);
      if (!written) this.turn.lease.refused("its tool result was refused");
      this.deps.publish(written);
      this.remember(call, result);
    }
    if (waiting.length === 0) return;
    // The inspector shows the steps so far while the turn waits.
    await this.saveSnapshot();
    throw new AwaitingApproval(Math.min(...waiting.map((entry) => entry.until)), waiting.map((entry) => entry.call.tool));
  }

  /** One call's result: run, or why it was not. */
  private async outcome(call: StepCallMetadata, approval: ApprovalState | undefined): Promise<ResultWrite> {
    const startedAt = new Date();
    const started = performance.now();
    const decision: Decision = approval ? await this.decided(approval) : { approval: "none" };
    const outcome = decision.notRun ? { raw: decision.notRun, error: decision.notRun } : await this.execute(call);
    const { content, resultTokens, cut } = await cutToolResultYielding(outcome.raw, this.turn.counter, this.turn.prepared.settings.maxToolResultTokens);
    const result: ToolResultMetadata = {
      server: call.server,
      tool: call.tool,
      arguments: call.arguments,
      approval: decision.approval,
      ...(decision.decidedBy ? { decidedBy: decision.decidedBy } : {}),
      startedAt: startedAt.toISOString(),
      ms: Math.round(performance.now() - started),
      resultTokens,
      cut,
      ...(outcome.error ? { error: outcome.error.slice(0, 500) } : {}),
    };
    return { callId: call.id, toolName: call.name, content, result };
  }

  /** A stored result, as the next model call sends it and the snapshot records it. */
  private remember(call: StepCallMetadata, { content, result }: ResultWrite): void {
    this.steps.push({ role: "tool", tool_call_id: call.id, content });
    this.records.push(stepRecordOf(call, result, this.turnStartedAt));
  }

  /** An ask-first call's decision; a pending one past its time is recorded as expired (once, whoever gets there first). */
  private async decided(approval: ApprovalState): Promise<Decision> {
    if (approval.status === "pending") {
      const step = await this.deps.prisma.$transaction(async (tx) => {
        if (!(await stillHolds(tx, this.fence))) return this.turn.lease.refused("its approval's expiry was refused");
        return endApproval(tx, approval.id, { status: "expired" });
      });
      // Decided in the meantime: the decision stands.
      if (!step) return this.decided((await readApprovals(this.deps.prisma, this.turn.job.id)).get(approval.callId)!);
      this.deps.publish({ message: step, participantUserIds: this.turn.prepared.participantUserIds, updated: true });
      return { approval: "expired", notRun: notRunResult.expired() };
    }
    if (approval.status === "approved") return { approval: "approved", decidedBy: approval.decidedByName ?? undefined };
    if (approval.status === "denied") return { approval: "denied", decidedBy: approval.decidedByName ?? undefined, notRun: notRunResult.denied(approval.decidedByName ?? "someone", approval.reason || "no reason given") };
    return { approval: "expired", notRun: notRunResult.expired() };
  }

  /** Calls the tool; whatever goes wrong (a Chorus tool called in a step, unknown tool, bad arguments, timeout, server error) becomes the result, attributed. */
  private async execute(call: StepCallMetadata): Promise<{ raw: string; error?: string }> {
    const tool = this.tools.get(call.name);
    if (this.isChorus(call.name)) return { raw: call.name === "capture_procedure" ? "Noted: the procedure is kept for review with your answer." : `Not run: ${call.name} can only end a turn.` };
    if (!tool || !this.deps.mcp) {
      const error = `Not run: no tool named ${call.name} is offered in this turn`;
      return { raw: error, error };
    }
    const checked = checkToolArguments(tool, call.arguments);
    if (!checked.ok) return { raw: checked.result, error: checked.result };
    this.deps.setActivity(`using ${tool.toolName}`);
    this.deps.enter(`calling ${tool.name}`);
    try {
      const result = await this.deps.mcp.callTool(tool.serverId, tool.toolName, checked.args, { signal: this.turn.signal });
      const text = toolResultText(result);
      return result.isError ? { raw: `Error from ${tool.toolName}: ${text}`, error: text || "the tool reported an error" } : { raw: text };
    } catch (error) {
      // The person pressed Stop while the tool ran: the turn ends as stopped, like a stopped answer.
      if (this.turn.signal.aborted && !this.turn.lease.signal.aborted) throw new LlmError("Stopped.", "cancelled");
      if (!(error instanceof McpFailure)) throw error;
      log.warn("tool call failed", { dispatchId: this.turn.job.id, server: tool.server, tool: tool.toolName, kind: error.kind, reason: error.reason });
      return { raw: `Error: ${error.message}`, error: error.message };
    } finally {
      this.deps.setActivity(null);
    }
  }

  /** The snapshot with the turn's calls and steps so far (the inspector reads it while the turn waits): how many of each it now holds. */
  private snapshotNow(): { calls: number; steps: number } {
    const { snapshot } = this.turn.prepared.assembly;
    if (this.records.length > 0) snapshot.steps = this.records;
    snapshot.calls = this.calls;
    return { calls: this.calls.length, steps: this.records.length };
  }

  /** The snapshot's first write (prepareTurn's), holding the calls and steps so far when it begins now. */
  private snapshotBegun(): Promise<void> {
    const { prepared } = this.turn;
    if (prepared.snapshotPending()) this.snapshotHolds = this.snapshotNow();
    return prepared.snapshotSaved();
  }

  /**
   * The snapshot as the turn ends or waits, written again only when it has calls or steps the last
   * write did not hold: an answer without tool steps (or a handoff) writes it once.
   */
  private async saveSnapshot(): Promise<void> {
    // After the first write: both are this attempt's, and the later must win.
    await this.snapshotBegun();
    const now = this.snapshotNow();
    if (this.snapshotHolds?.calls === now.calls && this.snapshotHolds.steps === now.steps) return;
    this.snapshotHolds = now;
    if (!(await saveSnapshot(this.deps.prisma, this.turn.prepared.assembly.snapshot, this.fence))) this.turn.lease.refused("its context snapshot was refused");
  }
}
