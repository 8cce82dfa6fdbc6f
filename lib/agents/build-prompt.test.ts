import { describe, expect, it } from "vitest";
import { buildPrompt, type HistoryMessage } from "./build-prompt";

const say = (content: string, from: { handle?: string; agentId?: string; role?: HistoryMessage["role"] } = {}): HistoryMessage => ({
  role: from.role ?? (from.agentId ? "assistant" : "user"),
  content,
  authorHandle: from.handle ?? null,
  authorAgentId: from.agentId ?? null,
});

describe("buildPrompt", () => {
  it("keeps only the last N messages after the system prompt, current one last", () => {
    const history = Array.from({ length: 60 }, (_, index) => say(`m${index}`, { handle: "mia" }));
    const prompt = buildPrompt({ systemPrompt: "You are Toby.", agentId: "toby", history, historyWindow: 50 });
    expect(prompt).toHaveLength(51);
    expect(prompt[0]).toEqual({ role: "system", content: "You are Toby." });
    expect(prompt[1]).toEqual({ role: "user", content: "m10", name: "mia" });
    expect(prompt.at(-1)).toEqual({ role: "user", content: "m59", name: "mia" });
  });

  it("gives the agent its own words as assistant and other agents' as named users; drops app notices", () => {
    const prompt = buildPrompt({
      systemPrompt: "s",
      agentId: "toby",
      historyWindow: 50,
      history: [say("welcome", { role: "system" }), say("mine", { agentId: "toby", handle: "toby" }), say("hers", { agentId: "ada", handle: "ada" }), say("@toby hi", { handle: "mia.member" })],
    });
    expect(prompt.slice(1)).toEqual([
      { role: "assistant", content: "mine" },
      { role: "user", content: "hers", name: "ada" },
      { role: "user", content: "@toby hi", name: "mia_member" },
    ]);
  });
});
