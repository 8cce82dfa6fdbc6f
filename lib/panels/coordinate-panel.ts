import { randomUUID } from "node:crypto";
import { describeContext } from "@/lib/context/describe-context";
import type { Prisma } from "@/lib/db/open-database";
import { fenceOf, type Fence } from "@/lib/jobs/job-table";
import { endedByLease, onLeaseEnd, publishingWhileHeld, type Lease } from "@/lib/jobs/lease";
import type { ProviderFor } from "@/lib/llm/provider-registry";
import { countTokens } from "@/lib/llm/token-counter";
import { LlmError, type LlmProvider } from "@/lib/llm/types";
import { log } from "@/lib/log/logger";
import type { MemoryStores } from "@/lib/memory/retrieve-memory";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { capReachedText } from "@/lib/usage/monthly-cap";
import type { TurnUsage } from "@/lib/usage/record-usage";
import { assemblePanelTurn, loadPanelMember, type PanelMember } from "./assemble-panel-turn";
import { finishPanel } from "./finish-panel";
import { offlineVote } from "./offline-vote";
import { panelTools, readPanelMove, type PanelMove } from "./panel-tools";
import { closeAbandonedTurns, loadPanelState, recordTurnEnd, recordTurnStart, type PanelState } from "./panel-store";
import { panelTable } from "./panel-table";
import { panelView, type TurnRecord } from "./panel-view";
import { currentAnswers, latestVotes, type AnswerRecord, type VoteRecord } from "./tally-votes";

export interface PanelDeps {
  prisma: Prisma;
  publisher(): RealtimePublisher;
  providerFor: ProviderFor;
  memory: MemoryStores;
}

/** failed: every agent failed; error: coordinating kept failing and was given up. */
export type EndReason = "all_voted" | "max_rounds" | "time" | "tokens" | "failed" | "error";

interface Member {
  id: string;
  handle: string;
  context: PanelMember | null;
  rounds: number;
  state: "idle" | "working" | "answered" | "voted" | "failed";
  controller: AbortController | null;
}

interface TurnEnd {
  status: "answered" | "voted" | "restarted" | "failed";
  tokens: number;
  /** What a model call spent (none for an offline vote, which calls nothing). */
  usage?: TurnUsage;
  error?: string;
  answer?: AnswerRecord;
  vote?: VoteRecord;
}

const RESTART = "panel-restart";
/** A reply shorter than this is not worth a call: the cap counts as reached. */
const MIN_REPLY_TOKENS = 16;
const ENDED = "panel-ended";

/**
 * Runs one panel to its end (seed 001): every agent works on the question at once; when one
 * posts a new answer, the others that are still working or have answered (and those whose vote
 * it made stale) restart with their context rebuilt; each start gives a new answer or a vote.
 * When all have stopped, those without a valid vote go again. It ends when every agent has a
 * valid vote, when those without one have used their rounds,
 * at the time limit or the token cap, and the winning answer is posted. Everything is recorded
 * as it happens, so a coordinator that dies is resumed by another node from the records.
 * It runs under the panel's lease: every write carries the coordinator's attempt and nothing is
 * emitted once the lease is lost, so a node that stalled and woke up cannot run it a second time.
 */
export async function coordinatePanel(given: PanelDeps, panelId: string, lease: Lease): Promise<void> {
  const deps = publishingWhileHeld(given, lease);
  const fence = fenceOf(panelTable, lease);
  const state = await loadPanelState(deps.prisma, panelId);
  if (!state || state.panel.status !== "running") return;
  if (!(await closeAbandonedTurns(deps.prisma, fence, panelId))) lease.refused("the panel's records were refused");
  state.turns = state.turns.map((turn) => (turn.status === "working" ? { ...turn, status: "restarted" } : turn));
  await new PanelRun(deps, state, lease, fence).run();
}

/** Coordinating kept failing: the panel ends with the best answer so far, saying why. */
export async function giveUpPanel(deps: PanelDeps, panelId: string, lease: Lease, reason: unknown): Promise<void> {
  const state = await loadPanelState(deps.prisma, panelId);
  if (!state || state.panel.status !== "running") return;
  log.error("panel given up", { panelId, attempt: lease.attempt, reason });
  await finishPanel(publishingWhileHeld(deps, lease), state, "error", lease);
}

class PanelRun {
  private readonly members: Member[];
  private ended: EndReason | null = null;
  private settle!: () => void;
  private readonly finished = new Promise<void>((resolve) => (this.settle = resolve));
  private readonly running = new Set<Promise<void>>();
  /** Tokens the calls in flight may still spend (their prompts and longest replies): the cap holds before each call. */
  private reserved = 0;
  /** A turn was not started because the cap left no room for it: the panel ends once nothing runs. */
  private capped = false;

  private readonly stop: AbortSignal;

  constructor(
    private readonly deps: PanelDeps,
    private readonly state: PanelState,
    private readonly lease: Lease,
    private readonly fence: Fence,
  ) {
    this.stop = lease.signal;
    this.members = state.agents.map((agent) => {
      const turns = state.turns.filter((turn) => turn.agentId === agent.id);
      const last = turns.at(-1);
      const stateOf = last?.status === "failed" ? "failed" : last?.status === "voted" ? "voted" : this.answerOf(agent.id) ? "answered" : "idle";
      return { id: agent.id, handle: agent.handle, context: null, rounds: turns.length, state: stateOf, controller: null };
    });
  }

  async run(): Promise<void> {
    const { panel } = this.state;
    // The node is stopping or lost the lease: leave without finishing (another node resumes).
    const stopListening = onLeaseEnd(this.lease, () => this.settle());
    const timer = setTimeout(() => this.end("time"), Math.max(0, panel.deadline.getTime() - Date.now()));
    try {
      await Promise.all(this.members.map((member) => this.load(member)));
      for (const member of this.members) if (member.state !== "failed" && !(member.state === "voted" && this.voteIsValid(member.id))) this.start(member);
      this.checkEnd();
      await this.finished;
    } finally {
      clearTimeout(timer);
      stopListening();
      for (const member of this.members) member.controller?.abort(ENDED);
      await Promise.allSettled([...this.running]);
    }
    // A node stopping (or losing the lease) leaves the panel running: another node resumes it.
    if (this.stop.aborted || !this.ended) return;
    await finishPanel(this.deps, this.state, this.ended, this.lease);
  }

  private async load(member: Member): Promise<void> {
    const { panel } = this.state;
    try {
      member.context = await loadPanelMember(this.deps, { agentId: member.id, conversationId: panel.conversationId, questionMessageId: panel.questionMessageId });
    } catch (error) {
      log.warn("panel agent unavailable", { panelId: panel.id, agentId: member.id, error });
      member.state = "failed";
    }
  }

  private start(member: Member): void {
    if (this.ended || member.state === "failed" || !member.context) return;
    if (member.rounds >= this.state.panel.maxRounds) {
      if (member.state === "working") member.state = this.answerOf(member.id) ? "answered" : "idle";
      return;
    }
    member.rounds += 1;
    member.state = "working";
    const controller = new AbortController();
    member.controller = controller;
    const turn: TurnRecord = { id: randomUUID(), agentId: member.id, round: member.rounds, status: "working", error: null };
    this.state.turns.push(turn);
    const task = this.runTurn(member, turn, AbortSignal.any([controller.signal, this.stop]))
      .catch((error: unknown) => this.turnBroke(member, turn, controller, error))
      .finally(() => {
        this.running.delete(task);
        this.publish();
        this.checkEnd();
      });
    this.running.add(task);
    this.publish();
  }

  private async runTurn(member: Member, turn: TurnRecord, signal: AbortSignal): Promise<void> {
    const { prisma } = this.deps;
    const panel = this.state.panel;
    // The agent's monthly cap, read with the turn's start, holds before anything that could call its model (a summary too); the panel goes on with the others.
    const { recorded, monthlyCap: cap } = await recordTurnStart(prisma, this.fence, { id: turn.id, panelId: panel.id, agentId: member.id, round: turn.round });
    if (!recorded) this.lease.refused("a panel turn was refused");
    const context = member.context!;
    const provider = this.deps.providerFor(context.turn.agent);
    if (cap?.reached) {
      member.state = "failed";
      return this.endTurn(turn, { status: "failed", tokens: 0, error: capReachedText(context.turn.agent.displayName, cap.cap) });
    }
    const answers = currentAnswers(this.state.answers);
    const handleOf = (agentId: string) => this.members.find((candidate) => candidate.id === agentId)?.handle ?? "agent";
    const { messages, snapshot } = await assemblePanelTurn(
      { prisma, provider, signal, lease: this.lease },
      {
        member: context,
        turnId: turn.id,
        panel,
        round: turn.round,
        answers: answers.map((answer) => ({ id: answer.id, agent: handleOf(answer.agentId), content: answer.content })),
        votes: latestVotes(this.state.votes, this.state.answers)
          .filter((vote) => vote.valid)
          .map((vote) => ({ voter: handleOf(vote.voterAgentId), for: handleOf(answers.find((answer) => answer.id === vote.answerId)!.agentId), reason: vote.reason })),
      },
    );
    if (snapshot.error) {
      member.state = "failed";
      return this.endTurn(turn, { status: "failed", tokens: 0, error: "The panel's context does not fit this agent's budget." });
    }
    // The token cap holds before the call: its prompt and its longest reply must fit what the cap
    // leaves beside the calls in flight, and the reply is bounded (max_tokens) by what is left.
    const prompt = snapshot.budget.usedTokens;
    const maxOutputTokens = Math.min(context.turn.agent.maxOutputTokens, panel.tokenCap - panel.tokensUsed - this.reserved - prompt);
    if (maxOutputTokens < MIN_REPLY_TOKENS) {
      this.capped = true;
      member.state = this.answerOf(member.id) ? "answered" : "idle";
      return this.endTurn(turn, { status: "restarted", tokens: 0, error: "Not started: the panel's token cap leaves no room for this turn." });
    }
    const reservation = prompt + maxOutputTokens;
    this.reserved += reservation;
    let called = false;
    const spent = (outputTokens: number) => {
      const usage = { provider: provider.name, model: context.turn.agent.model, inputTokens: prompt, outputTokens };
      return { tokens: prompt + outputTokens, ...(called ? { usage } : {}) };
    };

    let text = "";
    let outputTokens: number | undefined;
    let move: PanelMove | null;
    try {
      const own = this.answerOf(member.id);
      const others = answers.filter((answer) => answer.agentId !== member.id);
      // The offline model votes by likeness once it has an answer and others have theirs.
      const vote = provider.name === "offline" && own ? offlineVote(own, others) : null;
      if (vote) move = { kind: "vote", answerId: vote.answer.id, reason: vote.reason };
      else {
        const toolCalls: { name: string; arguments: string }[] = [];
        const tools = provider.name === "openai" ? panelTools(answers.map((answer) => answer.id)) : undefined;
        let index = 0;
        const contextReport = `${describeContext(snapshot)} Panel round ${turn.round} of ${panel.maxRounds}, ${answers.length} answer${answers.length === 1 ? "" : "s"} so far.`;
        const request = { model: context.turn.agent.model, messages, temperature: context.turn.agent.temperature, maxOutputTokens, signal, tools, contextReport };
        called = true;
        for await (const event of provider.stream(request)) {
          if (event.type === "usage") outputTokens = event.outputTokens;
          else if (event.type === "tool_call") toolCalls.push(event);
          else {
            text += event.text;
            this.deps.publisher().panelDelta({ panelId: panel.id, conversationId: panel.conversationId, agentId: member.id, turnId: turn.id, index: index++, text: event.text });
          }
        }
        move = readPanelMove(text, toolCalls);
      }
    } catch (error) {
      if (this.stop.aborted) throw error;
      const sofar = spent(countTokens(text, context.turn.agent.model));
      if (signal.aborted) return this.endTurn(turn, { status: "restarted", ...sofar });
      if (!(error instanceof LlmError)) throw error;
      member.state = "failed";
      return this.endTurn(turn, { status: "failed", ...sofar, error: error.message });
    } finally {
      this.reserved -= reservation;
    }
    const used = spent(outputTokens ?? countTokens(text, context.turn.agent.model));
    // Restarted (or ended) just as it finished: a newer turn of this agent speaks for it.
    if (signal.aborted) return this.endTurn(turn, { status: "restarted", ...used });
    await this.apply(member, turn, move, used, provider);
  }

  /**
   * A turn that threw (its context could not be built, e.g. a summary failed, or a write failed):
   * cut off by a restart or the end, it was restarted; otherwise its agent failed. Recorded either
   * way, so the card read back later says the same as the live one.
   */
  private async turnBroke(member: Member, turn: TurnRecord, controller: AbortController, error: unknown): Promise<void> {
    const panelId = this.state.panel.id;
    // The coordinator lost the panel or its node is stopping: the next coordinator records what is left.
    if (endedByLease(this.lease, error)) return;
    const record = (end: TurnEnd) => this.endTurn(turn, end).catch((cause: unknown) => log.error("panel turn end not recorded", { panelId, agentId: member.id, error: cause }));
    if (controller.signal.aborted) return record({ status: "restarted", tokens: 0 });
    log.error("panel turn failed", { panelId, agentId: member.id, error });
    if (member.controller === controller) member.state = "failed";
    const reason = error instanceof LlmError ? error.message : "This agent could not work on the panel (an internal error: see the server log).";
    await record({ status: "failed", tokens: 0, error: reason });
  }

  private async apply(member: Member, turn: TurnRecord, move: PanelMove | null, used: Pick<TurnEnd, "tokens" | "usage">, provider: LlmProvider): Promise<void> {
    const panel = this.state.panel;
    const valid = move?.kind === "vote" && currentAnswers(this.state.answers).some((answer) => answer.id === move.answerId);
    if (move?.kind === "answer") {
      const replaced = this.answerOf(member.id);
      const answer: AnswerRecord = { id: randomUUID(), agentId: member.id, content: move.content, createdAt: new Date(), turnId: turn.id };
      this.state.answers.push(answer);
      member.state = "answered";
      await this.endTurn(turn, { status: "answered", ...used, answer });
      this.restartOthers(member, replaced?.id);
    } else if (move?.kind === "vote" && valid) {
      const vote = { id: randomUUID(), voterAgentId: member.id, answerId: move.answerId, reason: move.reason || "(no reason given)", createdAt: new Date() };
      this.state.votes.push(vote);
      member.state = "voted";
      await this.endTurn(turn, { status: "voted", ...used, vote });
    } else {
      // Nothing usable (an empty reply, a vote for an answer that no longer exists): its earlier state stands.
      log.warn("panel move ignored", { panelId: panel.id, agentId: member.id, provider: provider.name, move: move?.kind ?? "none" });
      member.state = this.answerOf(member.id) ? "answered" : "idle";
      await this.endTurn(turn, { status: "restarted", ...used });
    }
  }

  /** A new answer: the others still working or having answered, and voters of the answer it replaced, start again. */
  private restartOthers(author: Member, replacedAnswerId: string | undefined): void {
    const votes = latestVotes(this.state.votes, this.state.answers);
    for (const member of this.members) {
      if (member === author || member.rounds >= this.state.panel.maxRounds) continue;
      const staleVoter = member.state === "voted" && votes.some((vote) => vote.voterAgentId === member.id && vote.answerId === replacedAnswerId);
      if (member.state !== "working" && member.state !== "answered" && !staleVoter) continue;
      member.controller?.abort(RESTART);
      this.start(member);
    }
  }

  private async endTurn(turn: TurnRecord, end: TurnEnd): Promise<void> {
    turn.status = end.status;
    turn.error = end.error ?? null;
    this.state.panel.tokensUsed += end.tokens;
    if (!(await recordTurnEnd(this.deps.prisma, this.fence, { turnId: turn.id, panelId: this.state.panel.id, agentId: turn.agentId, ...end }))) this.lease.refused("a panel turn's end was refused");
    if (this.state.panel.tokensUsed >= this.state.panel.tokenCap) this.end("tokens");
  }

  /**
   * After each turn: the end, or when everyone has stopped without all having voted, another
   * round for those who have not (they see every answer and vote, or answer again).
   */
  private checkEnd(): void {
    if (this.ended) return;
    const active = this.members.filter((member) => member.state !== "failed");
    if (active.length === 0) return this.end("failed");
    if (active.every((member) => member.state === "voted" && this.voteIsValid(member.id))) return this.end("all_voted");
    if (this.running.size > 0 || active.some((member) => member.state === "working")) return;
    if (this.capped) return this.end("tokens");
    const undecided = active.filter((member) => !this.voteIsValid(member.id) && member.rounds < this.state.panel.maxRounds);
    if (undecided.length === 0) return this.end("max_rounds");
    for (const member of undecided) this.start(member);
  }

  private end(reason: EndReason): void {
    if (this.ended) return;
    this.ended = reason;
    this.settle();
  }

  private answerOf(agentId: string): AnswerRecord | undefined {
    return currentAnswers(this.state.answers).find((answer) => answer.agentId === agentId);
  }

  private voteIsValid(agentId: string): boolean {
    return latestVotes(this.state.votes, this.state.answers).some((vote) => vote.voterAgentId === agentId && vote.valid);
  }

  private publish(): void {
    const { panel, agents, turns, answers, votes } = this.state;
    this.deps.publisher().panelUpdated(panelView(panel, agents, turns, answers, votes));
  }
}
