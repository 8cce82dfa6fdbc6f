import { currentAnswers, latestVotes, type AnswerRecord, type VoteRecord } from "./tally-votes";

/** A panel member's state as people see it on the card. */
export type MemberState = "waiting" | "working" | "restarting" | "answered" | "voted" | "failed";

export interface PanelAgentView {
  id: string;
  handle: string;
  displayName: string;
  color: string;
  state: MemberState;
  /** How many times it has started (1 = first round). */
  round: number;
  /** Its current answer. */
  answer: { id: string; content: string } | null;
  /** The answers it gave before, oldest first: votes for them no longer count. */
  earlier: { id: string; content: string }[];
  /** Valid votes its current answer has. */
  votes: number;
  error?: string;
}

export interface PanelVoteView {
  voterId: string;
  answerId: string;
  /** Whose answer it is for. */
  forAgentId: string;
  reason: string;
  /** False once the answer it names was replaced. */
  valid: boolean;
}

/** What every participant's panel card shows, live (panel:updated) and from GET /api/panels/{id}. */
export interface PanelView {
  id: string;
  conversationId: string;
  questionMessageId: string;
  status: "running" | "finished";
  endedReason: string | null;
  maxRounds: number;
  tokensUsed: number;
  tokenCap: number;
  agents: PanelAgentView[];
  votes: PanelVoteView[];
  finalMessageId: string | null;
}

/** A panel agent's answer as it streams (panel:delta). */
export interface PanelDelta {
  panelId: string;
  conversationId: string;
  agentId: string;
  turnId: string;
  index: number;
  text: string;
}

export interface TurnRecord {
  id: string;
  agentId: string;
  round: number;
  status: string;
  error: string | null;
}

export interface PanelRecord {
  id: string;
  conversationId: string;
  questionMessageId: string;
  status: string;
  endedReason: string | null;
  maxRounds: number;
  tokensUsed: number;
  tokenCap: number;
  finalMessageId: string | null;
}

/** The card's state from the panel's records: each agent's latest turn says what it is doing. */
export function panelView(
  panel: PanelRecord,
  agents: { id: string; handle: string; displayName: string; color: string }[],
  turns: TurnRecord[],
  answers: AnswerRecord[],
  votes: VoteRecord[],
): PanelView {
  const current = currentAnswers(answers);
  const counted = latestVotes(votes, answers);
  const ownerOf = new Map(answers.map((answer) => [answer.id, answer.agentId]));
  return {
    id: panel.id,
    conversationId: panel.conversationId,
    questionMessageId: panel.questionMessageId,
    status: panel.status === "finished" ? "finished" : "running",
    endedReason: panel.endedReason,
    maxRounds: panel.maxRounds,
    tokensUsed: panel.tokensUsed,
    tokenCap: panel.tokenCap,
    finalMessageId: panel.finalMessageId,
    agents: agents.map((agent) => {
      const own = turns.filter((turn) => turn.agentId === agent.id);
      const latest = own.at(-1);
      const answer = current.find((candidate) => candidate.agentId === agent.id) ?? null;
      const given = answers.filter((candidate) => candidate.agentId === agent.id);
      return {
        ...agent,
        // A finished panel's turn records are deleted after a while (lib/retention); its answers and votes stay and tell the rest.
        ...(latest ? { state: stateOf(latest, answer !== null), round: own.length } : fromRecords(given, votes.filter((vote) => vote.voterAgentId === agent.id))),
        answer: answer && { id: answer.id, content: answer.content },
        earlier: given.filter((candidate) => candidate !== answer).map(({ id, content }) => ({ id, content })),
        votes: answer ? counted.filter((vote) => vote.valid && vote.answerId === answer.id).length : 0,
        ...(latest?.status === "failed" && latest.error ? { error: latest.error } : {}),
      };
    }),
    votes: counted.map((vote) => ({ voterId: vote.voterAgentId, answerId: vote.answerId, forAgentId: ownerOf.get(vote.answerId) ?? "", reason: vote.reason, valid: vote.valid })),
  };
}

/**
 * Without turn records: the agent's last act, and as many rounds as it left answers and votes
 * (each start ends in one of them, unless it restarted or failed: a lower bound).
 */
function fromRecords(given: AnswerRecord[], cast: VoteRecord[]): { state: MemberState; round: number } {
  const lastAnswer = Math.max(...given.map((answer) => answer.createdAt.getTime()));
  const lastVote = Math.max(...cast.map((vote) => vote.createdAt.getTime()));
  const state = lastVote > lastAnswer ? "voted" : given.length > 0 ? "answered" : "waiting";
  return { state, round: given.length + cast.length };
}

function stateOf(turn: TurnRecord, answered: boolean): MemberState {
  if (turn.status === "working") return turn.round > 1 ? "restarting" : "working";
  if (turn.status === "answered" || turn.status === "voted" || turn.status === "failed") return turn.status;
  // Restarted, with no newer turn: its run ended there (no rounds left, or the panel ended).
  return answered ? "answered" : "waiting";
}
