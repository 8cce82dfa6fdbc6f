import { describe, expect, it } from "vitest";
import { reactionChips, reactionLabel, reactionName, whoReacted } from "./reaction-text";

const people = (...names: string[]) => names.map((name) => ({ id: name.toLowerCase(), name }));

describe("whoReacted", () => {
  it("names one, two or three people", () => {
    expect(whoReacted("👍", people("Ada"), "me")).toBe("Ada reacted with thumbs up");
    expect(whoReacted("👍", people("Ada", "Bob"), "me")).toBe("Ada and Bob reacted with thumbs up");
    expect(whoReacted("👍", people("Ada", "Bob", "Cy"), "me")).toBe("Ada, Bob and Cy reacted with thumbs up");
  });

  it("names the first two of more and counts the others", () => {
    expect(whoReacted("👍", people("Ada", "Bob", "Cy", "Dee"), "me")).toBe("Ada, Bob and 2 others reacted with thumbs up");
    expect(whoReacted("❤️", people("Ada", "Bob", "Cy", "Dee", "Eve"), "me")).toBe("Ada, Bob and 3 others reacted with red heart");
  });

  it("puts the current user first as You", () => {
    expect(whoReacted("🎉", people("Me"), "me")).toBe("You reacted with party popper");
    expect(whoReacted("🎉", people("Ada", "Me"), "me")).toBe("You and Ada reacted with party popper");
    expect(whoReacted("🎉", people("Ada", "Bob", "Me", "Cy"), "me")).toBe("You, Ada and 2 others reacted with party popper");
  });
});

describe("reactionLabel", () => {
  it("holds the visible count, singular or plural", () => {
    expect(reactionLabel("👍", 3)).toBe("thumbs up: 3 reactions");
    expect(reactionLabel("❤", 1)).toBe("red heart: 1 reaction");
  });

  it("falls back to the emoji itself when the catalogue doesn't know it", () => {
    expect(reactionName("👍🏽")).toBe("👍🏽");
    expect(reactionLabel("👍🏽", 2)).toBe("👍🏽: 2 reactions");
  });
});

describe("reactionChips", () => {
  it("counts each person once, marks the current user's and drops emptied reactions", () => {
    const chips = reactionChips(
      [
        { emoji: "👍", users: [...people("Ada", "Me"), { id: "ada", name: "Ada" }] },
        { emoji: "😂", users: [] },
        { emoji: "👀", users: people("Bob") },
      ],
      "me",
    );
    expect(chips).toEqual([
      { emoji: "👍", count: 2, mine: true, label: "thumbs up: 2 reactions", description: "You and Ada reacted with thumbs up" },
      { emoji: "👀", count: 1, mine: false, label: "eyes: 1 reaction", description: "Bob reacted with eyes" },
    ]);
  });
});
