import { describe, expect, it } from "vitest";
import { TYPING_TTL_MS } from "@/lib/realtime/events";
import { applyTypingEvent, describeTypists, withoutExpired, type Typists } from "./typing-state";

const alice = { kind: "user" as const, id: "a", name: "Alice" };
const bob = { kind: "user" as const, id: "b", name: "Bob" };
const carol = { kind: "user" as const, id: "c", name: "Carol" };
const toby = { kind: "agent" as const, id: "t", name: "Toby" };

describe("typing indicator", () => {
  it("describes one, two and many typists, and thinking agents", () => {
    expect(describeTypists([])).toBeNull();
    expect(describeTypists([alice])).toBe("Alice is typing…");
    expect(describeTypists([alice, bob])).toBe("Alice and Bob are typing…");
    expect(describeTypists([alice, bob, carol])).toBe("Alice and 2 others are typing…");
    expect(describeTypists([toby])).toBe("Toby is thinking…");
  });

  it("expires an entry that was not refreshed, and removes one on stop", () => {
    let typists: Typists = new Map();
    typists = applyTypingEvent(typists, { conversationId: "c", actor: alice, typing: true }, 0);
    typists = applyTypingEvent(typists, { conversationId: "c", actor: bob, typing: true }, 5_000);
    expect([...withoutExpired(typists, TYPING_TTL_MS + 1).keys()]).toEqual(["b"]);
    expect([...applyTypingEvent(typists, { conversationId: "c", actor: bob, typing: false }, 5_001).keys()]).toEqual(["a"]);
  });
});
