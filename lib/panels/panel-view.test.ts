import { describe, expect, it } from "vitest";
import { panelView, type PanelRecord, type TurnRecord } from "./panel-view";
import type { AnswerRecord, VoteRecord } from "./tally-votes";

const at = (second: number) => new Date(Date.UTC(2026, 10, 23, 10, 0, second));
const panel: PanelRecord = { id: "p", conversationId: "c", questionMessageId: "q", status: "finished", endedReason: "all_voted", maxRounds: 3, tokensUsed: 900, tokenCap: 20_000, finalMessageId: "f" };
const agents = ["ada", "toby", "sage"].map((id) => ({ id, handle: id, displayName: id, color: "#123456" }));
const answers: AnswerRecord[] = [
  { id: "ada-1", agentId: "ada", content: "first", createdAt: at(1) },
  { id: "toby-1", agentId: "toby", content: "mine", createdAt: at(2) },
  { id: "ada-2", agentId: "ada", content: "better", createdAt: at(4) },
];
const votes: VoteRecord[] = [
  { id: "v1", voterAgentId: "toby", answerId: "ada-1", reason: "clear", createdAt: at(3) },
  { id: "v2", voterAgentId: "toby", answerId: "ada-2", reason: "clearer", createdAt: at(5) },
];
const turns: TurnRecord[] = [
  { id: "t1", agentId: "ada", round: 1, status: "answered", error: null },
  { id: "t2", agentId: "toby", round: 1, status: "answered", error: null },
  { id: "t3", agentId: "sage", round: 1, status: "failed", error: "The model is unavailable." },
  { id: "t4", agentId: "toby", round: 2, status: "voted", error: null },
  { id: "t5", agentId: "ada", round: 2, status: "answered", error: null },
  { id: "t6", agentId: "toby", round: 3, status: "voted", error: null },
];

describe("a finished panel's card", () => {
  it("shows the same answers and votes once its turn records are deleted, with each agent's last act", () => {
    const withTurns = panelView(panel, agents, turns, answers, votes);
    const without = panelView(panel, agents, [], answers, votes);

    expect(without.votes).toEqual(withTurns.votes);
    const records = (view: typeof without) => view.agents.map(({ id, answer, earlier, votes }) => ({ id, answer, earlier, votes }));
    expect(records(without)).toEqual(records(withTurns));
    expect(withTurns.agents.map(({ id, state, round }) => [id, state, round])).toEqual([
      ["ada", "answered", 2],
      ["toby", "voted", 3],
      ["sage", "failed", 1],
    ]);
    expect(without.agents.map(({ id, state, round }) => [id, state, round])).toEqual([
      ["ada", "answered", 2],
      ["toby", "voted", 3],
      // Its failure was in a turn record: what is left says only that it gave nothing.
      ["sage", "waiting", 0],
    ]);
  });
});
