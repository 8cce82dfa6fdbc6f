/** An agent turn that has not started: waiting its turn, or for the provider's limit. Browser-safe. */
export interface QueuedTurn {
  dispatchId: string;
  conversationId: string;
  /** The person's message it will answer: its author may stop it. */
  replyToMessageId: string;
  agent: { id: string; handle: string; displayName: string; color: string };
  /**
   * queued: behind other turns (or the provider's concurrency); waiting_provider: the provider asked
   * to wait (429, or its per-minute limits); awaiting_approval: a tool call of the turn waits for
   * the person who asked (or an admin) to approve or deny it.
   */
  state: "queued" | "waiting_provider" | "awaiting_approval";
  /** Turns of the same provider that start before it. */
  ahead: number;
  /** When it will be tried again, in milliseconds from when this was read (null: as soon as it is its turn). */
  retryInMs: number | null;
}

/** What a person reads for a queued turn. */
export function queuedTurnText(turn: Pick<QueuedTurn, "agent" | "state" | "ahead">): string {
  if (turn.state === "waiting_provider") return `${turn.agent.displayName} is waiting for the provider's limit`;
  if (turn.state === "awaiting_approval") return `${turn.agent.displayName} is waiting for approval`;
  return turn.ahead > 0 ? `${turn.agent.displayName} is queued (${turn.ahead} ahead)` : `${turn.agent.displayName} is queued`;
}
