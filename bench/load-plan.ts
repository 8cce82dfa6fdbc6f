import { percentile } from "./measure";

// `npm run bench -- load`: the burst the people post and the figures drawn from what they saw.
// Pure, shared by the bench (bench/load.ts) and its client process (bench/load-client.ts).

/** One message a person posts during the burst. */
export interface PlannedPost {
  /** Index into the client's people; each person posts in a conversation of their own. */
  person: number;
  /** When, in ms after the burst starts. */
  atMs: number;
  content: string;
  /** How many agents it mentions: the turns it starts. */
  turns: number;
}

export interface LoadClientOptions {
  people: { url: string; cookie: string; conversationId: string }[];
  posts: PlannedPost[];
  /** Connected and idle this long before the burst, so the node's memory is read with the sockets open. */
  idleMs: number;
  timeoutMs: number;
}

/** One agent turn as the people saw it, in ms from the burst's start. */
export interface TurnRecord {
  conversationId: string;
  agentId: string;
  postedAt: number;
  /** Its first streamed piece: `message:delta` with index 0. */
  firstTokenAt: number;
  /** Its stored reply: `message:created`. */
  repliedAt: number;
}

/** The model's own times: to its first token, and to the end of its reply. */
export interface ModelTimes {
  firstTokenMs: number;
  replyMs: number;
}

/**
 * Each person asks every agent at once, then, half of `spreadMs` later, one of them again: the
 * posts fall within `spreadMs`, and every conversation gets one turn per agent plus one. Ten
 * conversations and four agents have only 40 (agent, conversation) pairs, so ten of the 50 turns
 * are an agent's second in its conversation; those run after its first, in order (see turnWaits).
 */
export function planBurst(people: number, handles: string[], spreadMs: number): PlannedPost[] {
  const step = spreadMs / 2 / people;
  const everyone = mentionAll(handles);
  return Array.from({ length: people }, (_, person) => [
    { person, atMs: person * step, content: `${everyone} where does task ${person} stand?`, turns: handles.length },
    { person, atMs: spreadMs / 2 + person * step, content: `@${handles[person % handles.length]} and what comes next for task ${person}?`, turns: 1 },
  ]).flat();
}

/** "@toby @ada …": a message that asks every one of these agents. */
export function mentionAll(handles: string[]): string {
  return handles.map((handle) => `@${handle}`).join(" ");
}

/**
 * Post → first token of each turn, counted from when the turn could start: its post or, when the
 * same agent had an earlier turn in the same conversation (those run in order, by design), that
 * turn's reply if it came later. What remains is the model's first token, queueing and Chorus.
 */
export function turnWaits(turns: TurnRecord[]): number[] {
  return turns.map((turn) => {
    const earlier = turns.filter((other) => other.conversationId === turn.conversationId && other.agentId === turn.agentId && other.postedAt < turn.postedAt);
    return turn.firstTokenAt - Math.max(turn.postedAt, ...earlier.map((other) => other.repliedAt));
  });
}

/**
 * The same posts answered by the model alone: each turn starts as soon as it may (its post, the
 * same agent's previous reply in that conversation, the first free one of the provider's `slots`,
 * oldest post first) and takes exactly the model's times. The baselines of the measured figures.
 */
export function idealTurns(turns: TurnRecord[], model: ModelTimes, slots = Infinity): TurnRecord[] {
  const slotFreeAt = Array<number>(Math.min(slots, turns.length)).fill(-Infinity);
  const previousReply = new Map<string, number>();
  return [...turns]
    .sort((a, b) => a.postedAt - b.postedAt)
    .map((turn) => {
      const pair = `${turn.conversationId} ${turn.agentId}`;
      const slot = slotFreeAt.indexOf(Math.min(...slotFreeAt));
      const start = Math.max(turn.postedAt, previousReply.get(pair) ?? -Infinity, slotFreeAt[slot]!);
      slotFreeAt[slot] = start + model.replyMs;
      previousReply.set(pair, start + model.replyMs);
      return { ...turn, firstTokenAt: start + model.firstTokenMs, repliedAt: start + model.replyMs };
    });
}

export interface LoadFigures {
  firstTokenP50: number;
  firstTokenP95: number;
  /** Replies stored per second, from the first post to the last reply. */
  repliesPerS: number;
  /** The conversation waiting longest (its mean wait) over the mean of all conversations' means. */
  fairness: number;
}

export function loadFigures(turns: TurnRecord[]): LoadFigures {
  const waits = turnWaits(turns);
  const spanMs = Math.max(...turns.map((turn) => turn.repliedAt)) - Math.min(...turns.map((turn) => turn.postedAt));
  const byConversation = new Map<string, number[]>();
  turns.forEach((turn, index) => byConversation.set(turn.conversationId, [...(byConversation.get(turn.conversationId) ?? []), waits[index]!]));
  const means = [...byConversation.values()].map(mean);
  return {
    firstTokenP50: percentile(waits, 50),
    firstTokenP95: percentile(waits, 95),
    repliesPerS: turns.length / (spanMs / 1000),
    fairness: Math.max(...means) / mean(means),
  };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
