import type { QueuedTurn } from "@/lib/dispatch/queued-turn";

/** The open conversation's agent turns that have not started, as its people see them. */
export interface QueuedTurns {
  /** Oldest first, as the server lists them; one announced later goes last. */
  turns: QueuedTurn[];
  /**
   * Turns seen streaming or answered: a list the server read before they started, arriving
   * after, must not bring them back as queued.
   */
  started: ReadonlySet<string>;
}

export const noQueuedTurns: QueuedTurns = { turns: [], started: new Set() };

/**
 * `turn:queued`: a new waiting turn, or a known one with a new place or state. A started turn
 * waits again only for a person's approval of a tool call (it goes on when decided).
 */
export function withAnnouncedTurn(state: QueuedTurns, turn: QueuedTurn): QueuedTurns {
  if (state.started.has(turn.dispatchId)) {
    if (turn.state !== "awaiting_approval") return state;
    state = { ...state, started: new Set([...state.started].filter((id) => id !== turn.dispatchId)) };
  }
  const known = state.turns.some((entry) => entry.dispatchId === turn.dispatchId);
  return { ...state, turns: known ? state.turns.map((entry) => (entry.dispatchId === turn.dispatchId ? turn : entry)) : [...state.turns, turn] };
}

/**
 * The server's list (`turns:queued`) replaces ours: places have moved, and turns started on any
 * node are gone from it. A started turn the server no longer lists needs no remembering.
 */
export function withListedTurns(state: QueuedTurns, listed: QueuedTurn[]): QueuedTurns {
  const ids = new Set(listed.map((turn) => turn.dispatchId));
  return { turns: listed.filter((turn) => !state.started.has(turn.dispatchId)), started: new Set([...state.started].filter((id) => ids.has(id))) };
}

/** A piece of its reply or the reply itself arrived: the turn is no longer waiting. */
export function withStartedTurn(state: QueuedTurns, dispatchId: string): QueuedTurns {
  const waiting = state.turns.some((turn) => turn.dispatchId === dispatchId);
  // Every streamed piece lands here: the same state back lets React skip the render.
  if (!waiting && state.started.has(dispatchId)) return state;
  return { turns: waiting ? state.turns.filter((turn) => turn.dispatchId !== dispatchId) : state.turns, started: new Set([...state.started, dispatchId]) };
}
