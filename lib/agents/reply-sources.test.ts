import { describe, expect, it } from "vitest";
import { assembleContext, noTiming } from "@/lib/context/assemble-context";
import { noRetrieval, type RetrievedKnowledge } from "@/lib/context/types";
import { counterFor } from "@/lib/llm/token-counter";
import { textOf } from "@/lib/llm/types";
import { replySources, snippetOf, SNIPPET_CHARS } from "./reply-sources";

const chunk = (id: string, score: number, content: string): RetrievedKnowledge => ({ id, content, source: `${id}.md`, documentId: `doc-${id}`, ordinal: 2, score });
const message = (seq: number, content: string) => ({ id: `m${seq}`, seq, role: "user" as const, content, authorAgentId: null, authorHandle: "ann", tokens: null });

async function assemble(knowledge: RetrievedKnowledge[], maxWorkingMemoryTokens = 8_000) {
  return assembleContext(
    {
      turn: { turnId: "t1", conversationId: "c1", agent: { id: "a", handle: "toby", model: "gpt-4o" } },
      config: { maxWorkingMemoryTokens, historyWindow: 10, pruningStrategy: "fifo", minHistoryMessages: 0, slidingWindowTurns: 5, summarizeFraction: 0.3, acceptsImages: false, maxAttachmentTokens: 2_000 },
      systemPrompt: "You are Toby.",
      history: [],
      current: message(1, "How long is leave?"),
      retrieved: { ...noRetrieval, knowledge },
      retrieval: { episodic: noTiming, semantic: noTiming, procedural: noTiming },
    },
    { counter: counterFor("gpt-4o") },
  );
}

describe("a reply's sources", () => {
  it("are the included chunks in the order the knowledge section numbered them: the n-th is what the model saw as [n]", async () => {
    const { snapshot, messages } = await assemble([chunk("low", 0.2, "Low."), chunk("high", 0.9, "High."), chunk("mid", 0.5, "Mid.")]);
    const sources = replySources(snapshot, [chunk("low", 0.2, "Low."), chunk("high", 0.9, "High."), chunk("mid", 0.5, "Mid.")]);
    expect(sources).toEqual([
      { chunkId: "high", documentId: "doc-high", document: "high.md", ordinal: 2, snippet: "High." },
      { chunkId: "mid", documentId: "doc-mid", document: "mid.md", ordinal: 2, snippet: "Mid." },
      { chunkId: "low", documentId: "doc-low", document: "low.md", ordinal: 2, snippet: "Low." },
    ]);
    const section = textOf(messages[1]!.content);
    sources.forEach((source, index) => expect(section).toContain(`[${index + 1}] <knowledge source="${source.document}">\n${source.snippet}\n</knowledge>`));
  });

  it("leave out chunks the budget dropped, and are none when the turn sent nothing", async () => {
    const long = (word: string) => `${word} `.repeat(300);
    const given = [chunk("kept", 0.9, long("kept")), chunk("dropped", 0.1, long("dropped"))];
    const { snapshot } = await assemble(given, 500);
    expect(snapshot.sections.find((section) => section.kind === "knowledge")!.items.map((item) => item.included)).toEqual([true, false]);
    expect(replySources(snapshot, given).map((source) => source.chunkId)).toEqual(["kept"]);
    expect(replySources((await assemble(given, 20)).snapshot, given)).toEqual([]);
  });

  it("carry the start of a chunk on one line, cut between words", () => {
    expect(snippetOf("  # Leave\n\nAnnual   leave\tis 25 days.  ")).toBe("# Leave Annual leave is 25 days.");
    const snippet = snippetOf("word ".repeat(100));
    expect(snippet.length).toBeLessThanOrEqual(SNIPPET_CHARS);
    expect(snippet).toMatch(/word…$/);
  });
});
