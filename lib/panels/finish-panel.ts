import { appendMessage } from "@/lib/agents/append-message";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import type { Lease } from "@/lib/jobs/lease";
import type { PanelDeps, EndReason } from "./coordinate-panel";
import type { PanelState } from "./panel-store";
import { panelView } from "./panel-view";
import { currentAnswers, latestVotes, tally } from "./tally-votes";

/** Why the final answer may not be the panel's considered choice: people are told. */
function endNote(reason: EndReason, tokenCap: number): string | null {
  if (reason === "tokens") return `The panel reached its token cap (${tokenCap.toLocaleString("en")} tokens): this is the best answer so far.`;
  if (reason === "time") return "The panel ran out of time: this is the best answer so far.";
  if (reason === "error") return "The panel stopped after repeated errors: this is the best answer so far.";
  return null;
}

/**
 * Posts the panel's result once: the answer with the most valid votes (ties to the earliest),
 * attributed to its agent, with every answer and vote in its metadata; or, when no agent
 * answered, a notice saying so. Marking the panel finished and posting happen together, only
 * while this coordinator's attempt holds the panel: a panel another node took over or finished
 * posts nothing.
 */
export async function finishPanel(deps: PanelDeps, state: PanelState, reason: EndReason, lease: Lease): Promise<void> {
  const { panel, agents } = state;
  const result = tally(state.answers, state.votes);
  const winner = result && agents.find((agent) => agent.id === result.winner.agentId);
  const note = endNote(reason, panel.tokenCap);
  const metadata: MessageMetadata = {
    isHandoffSummary: false,
    isToolResult: false,
    timestamp: new Date().toISOString(),
    replyToMessageId: panel.questionMessageId,
    ...(winner ? { agentId: winner.id, agentDisplayName: winner.displayName, dispatchId: result.winner.turnId } : {}),
    panel: {
      panelId: panel.id,
      endedReason: reason,
      winnerAnswerId: result?.winner.id ?? null,
      tokensUsed: panel.tokensUsed,
      answers: currentAnswers(state.answers).map((answer) => ({ id: answer.id, agentId: answer.agentId, votes: result?.votes.get(answer.id) ?? 0 })),
      votes: latestVotes(state.votes, state.answers).map(({ voterAgentId, answerId, reason: why, valid }) => ({ voterAgentId, answerId, reason: why, valid })),
    },
  };
  const content = result
    ? [result.winner.content, ...(note ? [`*${note}*`] : [])].join("\n\n")
    : reason === "time"
      ? "The panel ran out of time before any agent answered."
      : reason === "error"
        ? "The panel could not answer: it stopped after repeated errors."
        : "The panel could not answer: every agent failed.";
  const written = await deps.prisma.$transaction(async (tx) => {
    const claimed = await tx.$executeRaw`
      UPDATE "panels" SET "status" = 'finished', "endedReason" = ${reason}, "leaseUntil" = NULL, "updatedAt" = now()
      WHERE "id" = ${panel.id} AND "status" = 'running' AND "attempt" = ${lease.attempt}`;
    if (claimed === 0) return null;
    const posted = await appendMessage(tx, { conversationId: panel.conversationId, author: winner ? { kind: "agent", ...winner } : null, content, metadata, model: "gpt-4o" });
    await tx.$executeRaw`UPDATE "panels" SET "finalMessageId" = ${posted.message.id} WHERE "id" = ${panel.id}`;
    return posted;
  });
  if (!written) return lease.lose("its final answer was refused: another coordinator owns the panel");
  Object.assign(panel, { status: "finished", endedReason: reason, finalMessageId: written.message.id });
  deps.publisher().messageCreated(written.message, { participantUserIds: written.participantUserIds, mentionedUserIds: [] });
  deps.publisher().panelUpdated(panelView(panel, agents, state.turns, state.answers, state.votes));
}
