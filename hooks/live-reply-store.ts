import type { MessageDelta } from "@/lib/realtime/events";

/** A reply that is streaming, without its text: what the list needs to place its bubble. */
export interface LiveReplyInfo {
  dispatchId: string;
  /** The message being answered: its author may stop the reply. */
  replyToMessageId: string;
  agent: MessageDelta["agent"];
}

interface Entry {
  info: LiveReplyInfo;
  attempt: number;
  pieces: string[];
  text: string;
}

const noReplies: LiveReplyInfo[] = [];

/**
 * Agents' replies while they stream, outside React: pieces gathered per dispatch in index order.
 * Two kinds of subscribers, so a streamed piece re-renders only its own bubble: the list of
 * replies (it changes when a reply starts or ends) and each reply's text (every piece).
 * Plain TypeScript, read through `useSyncExternalStore`.
 */
export class LiveReplyStore {
  private entries = new Map<string, Entry>();
  private list: LiveReplyInfo[] = noReplies;
  private readonly listListeners = new Set<() => void>();
  private readonly textListeners = new Map<string, Set<() => void>>();

  /** A piece of a reply; a piece of an earlier attempt is dropped, a new attempt (or piece 0 again) starts over. */
  applyDelta(delta: MessageDelta): void {
    const held = this.entries.get(delta.dispatchId);
    if (held && delta.attempt < held.attempt) return;
    const entry: Entry = held ?? { info: { dispatchId: delta.dispatchId, replyToMessageId: delta.replyToMessageId, agent: delta.agent }, attempt: delta.attempt, pieces: [], text: "" };
    if (held && (delta.attempt > held.attempt || delta.index === 0)) {
      entry.pieces = [];
      entry.text = "";
    }
    entry.attempt = delta.attempt;
    // In order (the usual case) the text grows by the piece; a piece out of order rebuilds it.
    if (delta.index === entry.pieces.length) {
      entry.pieces.push(delta.text);
      entry.text += delta.text;
    } else {
      entry.pieces[delta.index] = delta.text;
      entry.text = entry.pieces.join("");
    }
    if (!held) {
      this.entries.set(delta.dispatchId, entry);
      this.publishList();
    }
    this.textListeners.get(delta.dispatchId)?.forEach((listener) => listener());
  }

  /** The reply's message arrived (created, or a regenerated version): its bubble goes. */
  finish(dispatchId: string): void {
    if (!this.entries.delete(dispatchId)) return;
    this.publishList();
  }

  /** Disconnected: what finished meanwhile arrives as messages through catch-up. */
  clear(): void {
    if (this.entries.size === 0) return;
    this.entries.clear();
    this.publishList();
  }

  /** The replies streaming now, in the order they started; the same array until one starts or ends. */
  replies = (): LiveReplyInfo[] => this.list;

  text(dispatchId: string): string {
    return this.entries.get(dispatchId)?.text ?? "";
  }

  subscribeReplies = (listener: () => void): (() => void) => {
    this.listListeners.add(listener);
    return () => this.listListeners.delete(listener);
  };

  subscribeText(dispatchId: string, listener: () => void): () => void {
    const listeners = this.textListeners.get(dispatchId) ?? new Set();
    listeners.add(listener);
    this.textListeners.set(dispatchId, listeners);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.textListeners.delete(dispatchId);
    };
  }

  private publishList(): void {
    this.list = [...this.entries.values()].map((entry) => entry.info);
    this.listListeners.forEach((listener) => listener());
  }
}
