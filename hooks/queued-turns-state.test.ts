import { describe, expect, it } from "vitest";
import { queuedTurnText, type QueuedTurn } from "@/lib/dispatch/queued-turn";
import { noQueuedTurns, withAnnouncedTurn, withListedTurns, withStartedTurn } from "./queued-turns-state";

const agent = (displayName: string) => ({ id: displayName.toLowerCase(), handle: displayName.toLowerCase(), displayName, color: "#0ea5e9" });
const turn = (dispatchId: string, displayName: string, ahead = 0, state: QueuedTurn["state"] = "queued"): QueuedTurn => ({
  dispatchId,
  conversationId: "c",
  replyToMessageId: `m-${dispatchId}`,
  agent: agent(displayName),
  state,
  ahead,
  retryInMs: state === "waiting_provider" ? 5_000 : null,
});
const shown = (state: typeof noQueuedTurns) => state.turns.map(queuedTurnText);

describe("queued turns of the open conversation", () => {
  it("shows an announced turn, and its new place when it is announced again", () => {
    let state = withAnnouncedTurn(noQueuedTurns, turn("1", "Toby", 2));
    state = withAnnouncedTurn(state, turn("2", "Ada"));
    expect(shown(state)).toEqual(["Toby is queued (2 ahead)", "Ada is queued"]);
    state = withAnnouncedTurn(state, turn("1", "Toby", 0, "waiting_provider"));
    expect(shown(state)).toEqual(["Toby is waiting for the provider's limit", "Ada is queued"]);
  });

  it("takes the server's list as it is: places move, turns that started elsewhere disappear", () => {
    let state = withAnnouncedTurn(withAnnouncedTurn(noQueuedTurns, turn("1", "Toby", 3)), turn("2", "Ada", 4));
    state = withListedTurns(state, [turn("2", "Ada", 1), turn("3", "Sage", 2)]);
    expect(shown(state)).toEqual(["Ada is queued (1 ahead)", "Sage is queued (2 ahead)"]);
  });

  it("drops a turn as soon as its reply streams, and a list read before that cannot bring it back", () => {
    let state = withListedTurns(noQueuedTurns, [turn("1", "Toby"), turn("2", "Ada", 1)]);
    state = withStartedTurn(state, "1");
    expect(shown(state)).toEqual(["Ada is queued (1 ahead)"]);
    // The answer to a request sent just before Toby started still lists him.
    state = withListedTurns(state, [turn("1", "Toby"), turn("2", "Ada")]);
    state = withAnnouncedTurn(state, turn("1", "Toby"));
    expect(shown(state)).toEqual(["Ada is queued"]);
  });

  it("a reply that arrives before the list that names it still keeps it away", () => {
    const state = withListedTurns(withStartedTurn(noQueuedTurns, "1"), [turn("1", "Toby")]);
    expect(state.turns).toEqual([]);
  });

  it("forgets a started turn once the server no longer lists it, and ignores further pieces of its reply", () => {
    let state = withStartedTurn(withListedTurns(noQueuedTurns, [turn("1", "Toby")]), "1");
    state = withListedTurns(state, []);
    expect(state.started.size).toBe(0);
    const streaming = withStartedTurn(state, "1");
    expect(withStartedTurn(streaming, "1")).toBe(streaming);
  });

  it("a started turn that waits for a person's approval shows again, and goes when it goes on", () => {
    let state = withStartedTurn(withAnnouncedTurn(noQueuedTurns, turn("1", "Scout")), "1");
    expect(shown(state)).toEqual([]);
    state = withAnnouncedTurn(state, turn("1", "Scout", 0, "awaiting_approval"));
    expect(shown(state)).toEqual(["Scout is waiting for approval"]);
    state = withStartedTurn(state, "1");
    expect(shown(state)).toEqual([]);
  });
});
