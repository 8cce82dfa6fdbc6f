export interface AnswerRecord {
  id: string;
  agentId: string;
  content: string;
  createdAt: Date;
  /** The panel turn that gave it (its context snapshot's id). */
  turnId?: string;
}

export interface VoteRecord {
  id: string;
  voterAgentId: string;
  answerId: string;
  reason: string;
  createdAt: Date;
}

/** Each agent's latest answer, oldest first. */
export function currentAnswers(answers: AnswerRecord[]): AnswerRecord[] {
  const latest = new Map<string, AnswerRecord>();
  for (const answer of [...answers].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) latest.set(answer.agentId, answer);
  return [...latest.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** Each agent's latest vote, and whether it counts: only while the answer it names is still current. */
export function latestVotes(votes: VoteRecord[], answers: AnswerRecord[]): (VoteRecord & { valid: boolean })[] {
  const current = new Set(currentAnswers(answers).map((answer) => answer.id));
  const latest = new Map<string, VoteRecord>();
  for (const vote of [...votes].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) latest.set(vote.voterAgentId, vote);
  return [...latest.values()].map((vote) => ({ ...vote, valid: current.has(vote.answerId) }));
}

/**
 * The panel's result: the current answer with the most valid votes, ties going to the earliest
 * answer. Null when no agent answered.
 */
export function tally(answers: AnswerRecord[], votes: VoteRecord[]): { winner: AnswerRecord; votes: Map<string, number> } | null {
  const candidates = currentAnswers(answers);
  if (candidates.length === 0) return null;
  const counts = new Map(candidates.map((answer) => [answer.id, 0]));
  for (const vote of latestVotes(votes, answers)) if (vote.valid) counts.set(vote.answerId, counts.get(vote.answerId)! + 1);
  // candidates are oldest first, so a strict > keeps the earliest of equals.
  let winner = candidates[0]!;
  for (const answer of candidates) if (counts.get(answer.id)! > counts.get(winner.id)!) winner = answer;
  return { winner, votes: counts };
}
