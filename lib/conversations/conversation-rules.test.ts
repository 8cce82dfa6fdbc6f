import { describe, expect, it } from "vitest";
import { assertValidParticipants } from "./conversation-rules";

const alice = { userId: "alice" };
const bob = { userId: "bob" };
const toby = { agentId: "toby" };

describe("participant rules", () => {
  it("accepts the valid shapes", () => {
    expect(() => assertValidParticipants("dm", [alice, bob])).not.toThrow();
    expect(() => assertValidParticipants("agent_dm", [alice, toby])).not.toThrow();
    expect(() => assertValidParticipants("group", [alice, bob, toby])).not.toThrow();
  });

  it.each([
    ["dm", [alice, toby], /two people only/],
    ["dm", [alice, bob, toby], /two people only/],
    ["dm", [alice], /exactly two different people/],
    ["dm", [alice, alice], /exactly two different people/],
    ["agent_dm", [alice, bob], /one person and one agent/],
    ["agent_dm", [alice, toby, { agentId: "ada" }], /one person and one agent/],
    ["group", [], /at least one participant/],
  ] as const)("refuses %s with %j", (type, parties, message) => {
    expect(() => assertValidParticipants(type, [...parties])).toThrow(message);
  });
});
