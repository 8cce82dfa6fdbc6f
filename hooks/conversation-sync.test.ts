import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { unchangedMessage, type MessageDto } from "@/lib/conversations/message-dto";
import { memoryStore } from "@/test/support/message-store";
import { contiguousSeq, ConversationSync, type MessageStore, type SyncSocket } from "./conversation-sync";

const conversationId = "c1";

function message(seq: number): MessageDto {
  return {
    id: `m${seq}`,
    conversationId,
    seq,
    clientId: null,
    role: "user",
    content: `message ${seq}`,
    metadata: { isHandoffSummary: false, isToolResult: false, timestamp: "2026-01-01T00:00:00.000Z" },
    author: { kind: "user", id: "u1", name: "Ann", color: null, avatarUrl: null },
    createdAt: "2026-01-01T00:00:00.000Z",
    ...unchangedMessage,
  };
}

/** A server holding the truth (seqs 1..n) that answers joins and catch-ups, one page of `pageSize` at a time. */
class FakeServerSocket extends EventEmitter {
  connected = true;
  truth: MessageDto[] = [];
  pageSize = 500;
  syncRequests: number[] = [];
  changeRequests: (number | undefined)[] = [];
  answerSyncs = true;
  lastChangeSeq = 0;

  /** Changes a message as the server would: the next change number, announced (or not). */
  change(seq: number, content: string): MessageDto {
    const changed = { ...this.truth[seq - 1]!, content, changeSeq: ++this.lastChangeSeq };
    this.truth[seq - 1] = changed;
    return changed;
  }

  post(): MessageDto {
    const created = message(this.truth.length + 1);
    this.truth.push(created);
    return created;
  }

  deliver(created: MessageDto): void {
    super.emit("message:created", created);
  }

  override emit(event: string, payload?: unknown, ack?: (result: unknown) => void): boolean {
    if (event === "conversation:join") ack?.({ data: { conversationId } });
    if (event === "sync:since") {
      const { afterSeq, afterChangeSeq } = payload as { afterSeq: number; afterChangeSeq?: number };
      this.syncRequests.push(afterSeq);
      this.changeRequests.push(afterChangeSeq);
      const missing = this.truth.filter((candidate) => candidate.seq > afterSeq);
      const changed = this.truth.filter((candidate) => candidate.seq <= afterSeq && candidate.changeSeq > (afterChangeSeq ?? Infinity));
      const changes = { messages: changed, lastChangeSeq: this.lastChangeSeq, complete: true };
      if (this.answerSyncs) queueMicrotask(() => ack?.({ data: { messages: missing.slice(0, this.pageSize), complete: missing.length <= this.pageSize, changes } }));
    }
    if (event === "conversation:leave") ack?.({ data: { conversationId } });
    return true;
  }

  hint(): void {
    super.emit("sync:hint");
  }

  reconnect(): void {
    this.connected = true;
    super.emit("connect");
  }
}


const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("contiguousSeq", () => {
  it("is the highest seq with nothing missing below it, from the oldest held", () => {
    expect(contiguousSeq([])).toBe(0);
    expect(contiguousSeq([51, 52, 53])).toBe(53);
    expect(contiguousSeq([53, 51, 52, 55, 56])).toBe(53);
    expect(contiguousSeq([1, 1, 2])).toBe(2);
  });
});

describe("ConversationSync", () => {
  let server: FakeServerSocket;
  beforeEach(() => {
    server = new FakeServerSocket();
  });
  afterEach(() => vi.useRealTimers());

  const start = (store: MessageStore, options = {}) => {
    const sync = new ConversationSync(server as unknown as SyncSocket, conversationId, store, options);
    sync.start();
    return sync;
  };

  it("catches up from the contiguous seq, not the newest: its own post before the join answer does not hide others' messages", async () => {
    for (let i = 0; i < 5; i++) server.post();
    const store = memoryStore(server.truth.slice(0, 3));
    // Offline, others posted 4 and 5; back online, this client's own post (6) is answered first.
    server.connected = false;
    const sync = start(store);
    sync.received([server.post()]);
    server.reconnect();
    await settle();
    expect([...store.held.keys()].sort()).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
    expect(server.syncRequests[0]).toBe(3);
    sync.stop();
  });

  it("fills a gap noticed later: a message more than one past the contiguous seq fetches the missing range", async () => {
    const store = memoryStore();
    const sync = start(store);
    await settle();
    server.post(); // broadcast lost
    server.post(); // broadcast lost
    server.deliver(server.post());
    await settle();
    expect(server.syncRequests.at(-1)).toBe(0);
    expect(contiguousSeq(store.seqs())).toBe(3);
    sync.stop();
  });

  it("pages until complete", async () => {
    server.pageSize = 2;
    for (let i = 0; i < 7; i++) server.post();
    const store = memoryStore();
    const sync = start(store);
    for (let i = 0; i < 6; i++) await settle();
    expect(store.held.size).toBe(7);
    expect(server.syncRequests.slice(0, 4)).toEqual([0, 2, 4, 6]);
    sync.stop();
  });

  it("recovers broadcasts lost while connected, with nothing else arriving: the periodic check and the server's hint", async () => {
    vi.useFakeTimers();
    const store = memoryStore();
    const sync = start(store, { checkEveryMs: 1_000 });
    await vi.advanceTimersByTimeAsync(0);
    server.post(); // lost: nothing more arrives
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.held.has("m1")).toBe(true);

    server.post(); // lost again; the node's Redis link came back and it says so
    server.hint();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.held.has("m2")).toBe(true);
    sync.stop();
  });

  it("asks again when a catch-up's answer never comes (its connection dropped)", async () => {
    vi.useFakeTimers();
    const store = memoryStore();
    server.answerSyncs = false;
    const sync = start(store, { checkEveryMs: 1_000 });
    server.post();
    await vi.advanceTimersByTimeAsync(0);
    server.answerSyncs = true;
    server.reconnect();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.held.has("m1")).toBe(true);
    sync.stop();
  });

  it("stops listening when stopped", async () => {
    const store = memoryStore();
    const sync = start(store);
    await settle();
    sync.stop();
    server.deliver(server.post());
    expect(store.held.size).toBe(0);
  });

  it("catches up on edits missed while away, from the change number it holds, and never adds a message it does not hold", async () => {
    for (let i = 0; i < 3; i++) server.post();
    const store = memoryStore(server.truth.slice(1), 0);
    const sync = start(store);
    await settle();
    server.change(2, "edited while away");
    server.change(1, "an older message, not held");
    server.hint();
    await settle();
    expect(store.held.get("m2")!.content).toBe("edited while away");
    expect(store.held.has("m1")).toBe(false);
    server.hint();
    await settle();
    expect(server.changeRequests.at(-1)).toBe(2);
    sync.stop();
  });
});
