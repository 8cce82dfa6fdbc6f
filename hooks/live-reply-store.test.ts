import { describe, expect, it } from "vitest";
import type { MessageDelta } from "@/lib/realtime/events";
import { LiveReplyStore } from "./live-reply-store";

const agent = { id: "a1", handle: "toby", displayName: "Toby", color: "#123456" };
const delta = (index: number, text: string, { dispatchId = "d1", attempt = 1 } = {}): MessageDelta => ({ dispatchId, conversationId: "c1", replyToMessageId: "m1", agent, attempt, index, text });

describe("LiveReplyStore", () => {
  it("tells the list when a reply starts or ends, and only that reply's readers about each piece", () => {
    const store = new LiveReplyStore();
    let lists = 0;
    const texts: Record<string, number> = { d1: 0, d2: 0 };
    store.subscribeReplies(() => lists++);
    store.subscribeText("d1", () => texts.d1!++);
    store.subscribeText("d2", () => texts.d2!++);

    store.applyDelta(delta(0, "Hello"));
    const replies = store.replies();
    store.applyDelta(delta(1, " there"));
    store.applyDelta(delta(2, "!"));
    expect(store.text("d1")).toBe("Hello there!");
    // The same array while no reply starts or ends: its readers do not render for a piece.
    expect(store.replies()).toBe(replies);
    expect(lists).toBe(1);
    expect(texts).toEqual({ d1: 3, d2: 0 });

    store.applyDelta(delta(0, "Other", { dispatchId: "d2" }));
    expect(store.replies().map((reply) => reply.dispatchId)).toEqual(["d1", "d2"]);
    store.finish("d1");
    expect(store.replies().map((reply) => reply.dispatchId)).toEqual(["d2"]);
    expect(lists).toBe(3);
    store.finish("d1");
    expect(lists).toBe(3);
  });

  it("orders pieces by index, drops an earlier attempt's, and starts over on a new attempt", () => {
    const store = new LiveReplyStore();
    store.applyDelta(delta(0, "a"));
    store.applyDelta(delta(2, "c"));
    store.applyDelta(delta(1, "b"));
    expect(store.text("d1")).toBe("abc");
    store.applyDelta(delta(0, "new", { attempt: 2 }));
    expect(store.text("d1")).toBe("new");
    store.applyDelta(delta(1, " stale", { attempt: 1 }));
    expect(store.text("d1")).toBe("new");
    store.clear();
    expect(store.replies()).toEqual([]);
    expect(store.text("d1")).toBe("");
  });
});
