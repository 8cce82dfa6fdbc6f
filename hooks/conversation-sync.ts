import type { MessageDto } from "@/lib/conversations/message-dto";
import type { Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "@/lib/realtime/events";

/** A catch-up not answered within this long is given up (its connection was lost) and asked again. */
const ANSWER_TIMEOUT_MS = 10_000;

/** A Socket.IO client of Chorus's events (the browser's socket, or a soak client's). */
export type SyncSocket = Pick<Socket<ServerToClientEvents, ClientToServerEvents>, "connected" | "on" | "off" | "emit">;

/** Where the conversation's messages are kept (React Query's cache in the browser). */
export interface MessageStore {
  /** Adds messages, each id once; a message held already is replaced by a copy with a later change. */
  add(messages: MessageDto[]): void;
  /** Replaces held messages by these copies when they have a later change; others are not held, and stay so. */
  update(messages: MessageDto[]): void;
  /** Every seq held when syncing starts (pages loaded from the database are contiguous). */
  seqs(): Iterable<number>;
  /** The change number every held message is at least as new as (when syncing starts). */
  changeWatermark(): number;
}

export interface ConversationSyncOptions {
  /** How often an open conversation checks the database for what broadcasts may have missed. */
  checkEveryMs?: number;
  /** Pause before asking again after a refused join or sync. */
  retryMs?: number;
}

/**
 * The highest seq held with nothing missing below it, down to the oldest page held. Seqs have no
 * gaps in the database, so anything above this point that is not held was missed.
 */
export function contiguousSeq(seqs: Iterable<number>): number {
  const sorted = [...new Set(seqs)].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  let high = sorted[0]!;
  for (const seq of sorted.slice(1)) {
    if (seq !== high + 1) break;
    high = seq;
  }
  return high;
}

/**
 * Keeps one open conversation complete, whatever the network did: joins its room on every
 * (re)connect, then catches up from the contiguous seq, page by page; a message that arrives
 * more than one past that point means some were missed, and so does the server's hint after a
 * Redis outage: both catch up. A periodic check covers broadcasts lost while nothing else
 * arrives (a node's last moments before exit). Changes to messages held (edits, deletions,
 * reactions, versions) are caught up the same way, by the conversation's change number. The
 * database is the truth; this asks it.
 */
export class ConversationSync {
  /** When the catch-up in progress was asked for (0: none). Its answer is lost if the link drops. */
  private catchingUpSince = 0;
  /** Numbers each catch-up, so a late answer to an abandoned one is ignored. */
  private requests = 0;
  /** Everything up to here is held; `above` holds seqs past a gap. */
  private high = 0;
  private readonly above = new Set<number>();
  /** Every change up to here is held. */
  private changeHigh = 0;
  private again = false;
  private stopped = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly socket: SyncSocket,
    private readonly conversationId: string,
    private readonly store: MessageStore,
    private readonly options: ConversationSyncOptions = {},
  ) {}

  start(): void {
    this.high = contiguousSeq(this.store.seqs());
    this.changeHigh = this.store.changeWatermark();
    this.socket.on("message:created", this.onCreated);
    this.socket.on("message:updated", this.onChanged);
    this.socket.on("message:deleted", this.onChanged);
    this.socket.on("connect", this.join);
    this.socket.on("sync:hint", this.catchUp);
    if (this.socket.connected) this.join();
    this.timer = setInterval(() => {
      if (this.socket.connected) this.catchUp();
    }, this.options.checkEveryMs ?? 15_000);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.retry);
    this.socket.off("message:created", this.onCreated);
    this.socket.off("message:updated", this.onChanged);
    this.socket.off("message:deleted", this.onChanged);
    this.socket.off("connect", this.join);
    this.socket.off("sync:hint", this.catchUp);
    if (this.socket.connected) this.socket.emit("conversation:leave", { conversationId: this.conversationId }, () => undefined);
  }

  /** Messages that arrived another way (the send's own answer). */
  received(messages: MessageDto[]): void {
    this.store.add(messages);
    if (this.advance(messages)) this.catchUp();
  }

  /** The contiguous seq held so far. */
  contiguous(): number {
    return this.high;
  }

  /** Moves the contiguous point over what arrived; true when something above it is still missing. */
  private advance(messages: MessageDto[]): boolean {
    for (const message of messages) if (message.seq > this.high) this.above.add(message.seq);
    while (this.above.delete(this.high + 1)) this.high += 1;
    return this.above.size > 0;
  }

  private readonly onCreated = (message: MessageDto) => {
    if (message.conversationId === this.conversationId) this.received([message]);
  };

  private readonly onChanged = (message: MessageDto) => {
    if (message.conversationId === this.conversationId) this.store.update([message]);
  };

  private readonly join = () => {
    // An answer still awaited went down with the old connection.
    this.catchingUpSince = 0;
    this.requests += 1;
    this.socket.emit("conversation:join", { conversationId: this.conversationId }, (ack) => {
      if ("data" in ack) this.catchUp();
      else if (ack.error.code === "rate_limited" || ack.error.code === "internal" || ack.error.code === "unavailable") this.later(this.join);
    });
  };

  /** One catch-up at a time; a request during one runs another right after it. */
  private readonly catchUp = () => {
    // Offline, the next connect joins and catches up.
    if (this.stopped || !this.socket.connected) return;
    if (this.catchingUpSince > 0 && Date.now() - this.catchingUpSince < ANSWER_TIMEOUT_MS) {
      this.again = true;
      return;
    }
    const request = ++this.requests;
    this.catchingUpSince = Date.now();
    this.again = false;
    const afterSeq = this.high;
    const afterChangeSeq = this.changeHigh;
    this.socket.emit("sync:since", { conversationId: this.conversationId, afterSeq, afterChangeSeq }, (ack) => {
      if (request !== this.requests || this.catchingUpSince === 0) return;
      this.catchingUpSince = 0;
      if (!("data" in ack)) {
        if (ack.error.code !== "forbidden" && ack.error.code !== "not_found") this.later(this.catchUp);
        return;
      }
      const { messages, complete, changes } = ack.data;
      this.store.add(messages);
      if (changes) this.store.update(changes.messages);
      this.advance(messages);
      if (changes) this.changeHigh = Math.max(this.changeHigh, changes.lastChangeSeq);
      const progressed = this.high > afterSeq || this.changeHigh > afterChangeSeq;
      if (this.again || (progressed && (!complete || changes?.complete === false))) this.catchUp();
    });
  };

  private later(run: () => void): void {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      if (!this.stopped && this.socket.connected) run();
    }, this.options.retryMs ?? 1_000);
  }
}
