import { describe, expect, it } from "vitest";
import { offlineVote, similarity } from "./offline-vote";
import { currentAnswers, latestVotes, tally, type AnswerRecord, type VoteRecord } from "./tally-votes";

const at = (second: number) => new Date(Date.UTC(2026, 10, 23, 10, 0, second));
const answer = (id: string, agentId: string, second: number, content = id): AnswerRecord => ({ id, agentId, content, createdAt: at(second) });
const vote = (voterAgentId: string, answerId: string, second: number): VoteRecord => ({ id: `${voterAgentId}-${second}`, voterAgentId, answerId, reason: "because", createdAt: at(second) });

describe("panel votes", () => {
  it("counts each agent's latest vote, and only for answers still current", () => {
    const answers = [answer("toby-1", "toby", 1), answer("ada-1", "ada", 2), answer("toby-2", "toby", 5)];
    expect(currentAnswers(answers).map((item) => item.id)).toEqual(["ada-1", "toby-2"]);
    const votes = [vote("sage", "toby-1", 3), vote("ada", "ada-1", 4), vote("rex", "ada-1", 6), vote("rex", "toby-2", 7)];
    expect(latestVotes(votes, answers).map(({ voterAgentId, valid }) => [voterAgentId, valid])).toEqual([
      ["sage", false],
      ["ada", true],
      ["rex", true],
    ]);
    const result = tally(answers, votes)!;
    expect([...result.votes]).toEqual([
      ["ada-1", 1],
      ["toby-2", 1],
    ]);
    // One valid vote each: the earliest current answer wins.
    expect(result.winner.id).toBe("ada-1");
  });

  it("gives the most valid votes the win, and nothing when nobody answered", () => {
    const answers = [answer("a", "ada", 1), answer("t", "toby", 2)];
    expect(tally(answers, [vote("sage", "t", 3), vote("ada", "t", 4), vote("toby", "a", 5)])!.winner.id).toBe("t");
    expect(tally([], [])).toBeNull();
  });

  it("votes offline for the other answer closest to its own", () => {
    expect(similarity("the cat sat", "the cat sat")).toBe(1);
    expect(similarity("alpha beta", "gamma delta")).toBe(0);
    const own = answer("o", "ada", 1, "ship the release on friday after the migration");
    const choice = offlineVote(own, [answer("x", "toby", 2, "buy more coffee"), answer("y", "sage", 3, "ship on friday once the migration is done")]);
    expect(choice?.answer.id).toBe("y");
    expect(choice?.reason).toMatch(/^Closest to my own answer \(word overlap 0\.\d\d\)\.$/);
    expect(offlineVote(own, [])).toBeNull();
  });
});
