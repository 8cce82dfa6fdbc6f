import { describe, expect, it } from "vitest";
import { composerHint } from "./composer-hint";

const base = { participants: [], projectAgentHandles: ["toby"], lastSent: "" };

describe("composerHint", () => {
  it("says agents do not take part in direct messages when a DM mentions one", () => {
    expect(composerHint({ ...base, conversation: { type: "dm" }, unknownMentions: ["toby"], lastSent: "@toby hi" })).toMatch(/Agents don't take part in direct messages/);
  });

  it("still says nobody is called a handle that matches no agent", () => {
    expect(composerHint({ ...base, conversation: { type: "dm" }, unknownMentions: ["carol"], lastSent: "@carol" })).toBe("Nobody here is called @carol: nobody was notified.");
    expect(composerHint({ ...base, conversation: { type: "group" }, unknownMentions: ["toby"], lastSent: "@toby" })).toBe("Nobody here is called @toby: nobody was notified.");
  });

  it("names a disabled agent that was mentioned", () => {
    const participants = [{ kind: "agent" as const, id: "a", handle: "toby", name: "Toby", color: "#000000", avatarUrl: null, disabled: true }];
    expect(composerHint({ ...base, participants, conversation: { type: "group" }, unknownMentions: [], lastSent: "@toby" })).toBe("Toby is disabled by an admin and will not answer.");
  });
});
