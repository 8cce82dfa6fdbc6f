import { describe, expect, it } from "vitest";
import { chatTitleFrom, conversationChangesSchema, FIRST_MESSAGE_TITLE_LENGTH, topicSchema } from "./conversation-settings";

describe("a chat's title from its first message", () => {
  it("keeps a short message whole, on one line", () => {
    expect(chatTitleFrom("  Plan the\nrelease\u202E notes ")).toBe("Plan the release notes");
  });

  it("cuts a long one at a word, within the length, and marks the cut", () => {
    const title = chatTitleFrom("Could you help me write a migration plan for moving our billing service to the new cluster?");
    expect(title).toBe("Could you help me write a migration plan for moving our…");
    expect(Array.from(title).length).toBeLessThanOrEqual(FIRST_MESSAGE_TITLE_LENGTH);
  });

  it("never splits an emoji, and names a message of spaces", () => {
    expect(Array.from(chatTitleFrom("🎉".repeat(100))).every((character) => character === "🎉" || character === "…")).toBe(true);
    expect(chatTitleFrom(" \n ")).toBe("New chat");
  });
});

describe("conversation changes", () => {
  it("refuses a topic over 250 characters or with a line break, with the reason", () => {
    expect(topicSchema.safeParse("x".repeat(251)).error?.issues[0]?.message).toBe("A topic can be at most 250 characters.");
    expect(topicSchema.safeParse("one\ntwo").error?.issues[0]?.message).toMatch(/^Topics can't contain control characters \(U\+000A line feed/);
  });

  it("asks for at least one change", () => {
    expect(conversationChangesSchema.safeParse({}).error?.issues[0]?.message).toMatch(/Say what to change/);
    expect(conversationChangesSchema.parse({ archived: true, topic: null })).toEqual({ archived: true, topic: null });
  });
});
