import { describe, expect, it } from "vitest";
import { fifoDrops, slidingWindowKeeps } from "./pruners";

type Role = "user" | "assistant";
const roles = (pattern: string): Role[] => [...pattern].map((c) => (c === "u" ? "user" : "assistant"));

describe("slidingWindowKeeps", () => {
  it("keeps the last N user–assistant pairs", () => {
    expect(slidingWindowKeeps(roles("uauaua"), 2)).toEqual([false, false, true, true, true, true]);
  });

  it("makes an assistant message with no user before it a pair of its own, and lets a user without reply be a pair", () => {
    // a | ua | u | ua  → 4 pairs; keep the last 2: u | ua
    expect(slidingWindowKeeps(roles("auauua"), 2)).toEqual([false, false, false, true, true, true]);
    // two replies in a row (two agents answering one question): the second is a pair of its own
    expect(slidingWindowKeeps(roles("uaa"), 1)).toEqual([false, false, true]);
  });

  it("keeps everything when there are fewer pairs than the window", () => {
    expect(slidingWindowKeeps(roles("uau"), 10)).toEqual([true, true, true]);
  });
});

describe("fifoDrops", () => {
  it("drops the oldest until within budget, taking an assistant that becomes oldest along", () => {
    // Dropping the first user frees 10, then the assistant after it goes too.
    expect(fifoDrops(roles("uaua"), [10, 10, 10, 10], 5, 0)).toBe(2);
  });

  it("stops at MinHistoryMessages, and can end one below it (the seed's pair rule)", () => {
    expect(fifoDrops(roles("uuuu"), [10, 10, 10, 10], 100, 2)).toBe(2);
    // 5 messages, min 4: one drop leaves 4, but the new oldest is an assistant, so 3 remain.
    expect(fifoDrops(roles("uauau"), [10, 10, 10, 10, 10], 100, 4)).toBe(2);
  });

  it("drops nothing when within budget", () => {
    expect(fifoDrops(roles("uaua"), [10, 10, 10, 10], 0, 0)).toBe(0);
  });
});
