import { describe, expect, it } from "vitest";
import { channelNameSchema, participantsScope, roomScope } from "./conversation-scope";

describe("conversation scopes", () => {
  it("gives the same participant set the same scope in any order, and different sets different scopes", () => {
    const alice = { userId: "alice" };
    const bob = { userId: "bob" };
    expect(participantsScope([alice, bob])).toBe(participantsScope([bob, alice]));
    expect(participantsScope([alice, bob])).not.toBe(participantsScope([alice, { userId: "carol" }]));
    // a user and an agent with the same id are different parties
    expect(participantsScope([alice, { userId: "x" }])).not.toBe(participantsScope([alice, { agentId: "x" }]));
  });

  it("treats room names case-insensitively", () => {
    expect(roomScope("Task:42")).toBe(roomScope("task:42"));
  });

  it("normalises channel names and explains invalid ones", () => {
    expect(channelNameSchema.parse("  Release-Notes ")).toBe("release-notes");
    expect(channelNameSchema.safeParse("has spaces").error?.issues[0]?.message).toMatch(/lowercase letters, digits or dashes/);
  });
});
