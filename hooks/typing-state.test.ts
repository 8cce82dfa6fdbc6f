import { describe, expect, it } from "vitest";
import { TYPING_TTL_MS } from "@/lib/realtime/events";
import { applyTypingEvent, describeTypists, typistsLabel, withoutExpired, type Typists } from "./typing-state";

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

  it("says what a lone agent is doing while its tool runs, and keeps the generic text for several", () => {
    const scout = { kind: "agent" as const, id: "s", name: "Scout", activity: "using search_notes" };
    expect(describeTypists([scout])).toBe("Scout is using search_notes…");
    expect(describeTypists([{ ...scout, activity: "using search_notes…" }])).toBe("Scout is using search_notes…");
    expect(describeTypists([{ ...scout, activity: "  " }])).toBe("Scout is thinking…");
    expect(describeTypists([scout, toby])).toBe("Scout and Toby are thinking…");
    expect(describeTypists([scout, alice])).toBe("Scout and Alice are typing…");
  });

  it("lets a new event replace the activity of the one before", () => {
    let typists: Typists = new Map();
    typists = applyTypingEvent(typists, { conversationId: "c", actor: { ...toby, activity: "using search_notes" }, typing: true }, 0);
    expect(describeTypists([...typists.values()].map((entry) => entry.actor))).toBe("Toby is using search_notes…");
    typists = applyTypingEvent(typists, { conversationId: "c", actor: toby, typing: true }, 1_000);
    expect(describeTypists([...typists.values()].map((entry) => entry.actor))).toBe("Toby is thinking…");
  });

  it("expires an entry that was not refreshed, and removes one on stop", () => {
    let typists: Typists = new Map();
    typists = applyTypingEvent(typists, { conversationId: "c", actor: alice, typing: true }, 0);
    typists = applyTypingEvent(typists, { conversationId: "c", actor: bob, typing: true }, 5_000);
    expect([...withoutExpired(typists, TYPING_TTL_MS + 1).keys()]).toEqual(["b"]);
    expect([...applyTypingEvent(typists, { conversationId: "c", actor: bob, typing: false }, 5_001).keys()]).toEqual(["a"]);
  });

  it("keeps the same entries when none expired, so a sweep that changes nothing renders nothing", () => {
    const typists = applyTypingEvent(new Map(), { conversationId: "c", actor: toby, typing: true }, 0);
    expect(withoutExpired(typists, TYPING_TTL_MS - 1)).toBe(typists);
    expect(typistsLabel(withoutExpired(typists, TYPING_TTL_MS - 1))).toBe("Toby is thinking…");
    expect(typistsLabel(withoutExpired(typists, TYPING_TTL_MS))).toBeNull();
  });
});
