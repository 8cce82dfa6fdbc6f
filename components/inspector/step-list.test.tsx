import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { StepRecord } from "@/lib/context/types";
import { ModelCalls, modelCallsSummary } from "./model-calls";
import { shortArguments, startedText, StepList } from "./step-list";

const search: StepRecord = {
  callId: "call-1",
  tool: "notes__search_notes",
  server: "notes",
  arguments: '{"query":"plans","limit":3}',
  approval: "none",
  resultTokens: 14,
  cut: false,
  startedAt: 0,
  ms: 120,
};
const add: StepRecord = {
  callId: "call-2",
  tool: "notes__add_note",
  server: "notes",
  arguments: '{"title":"Plans","body":"Trip"}',
  approval: "approved",
  decidedBy: "Ana",
  resultTokens: 6,
  cut: false,
  startedAt: 130,
  ms: 40,
};

/** The text a person reads, tags dropped and entities decoded. */
const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&");
/** Each step's row: its top-level li's in the ordered list. */
const steps = (html: string) => {
  const list = /<ol[^>]*aria-label="Tool calls in order"[^>]*>(.*)<\/ol>/s.exec(html)?.[1] ?? "";
  return list.split(/(?=<li )/).filter(Boolean);
};

describe("StepList", () => {
  it("renders nothing for a snapshot older than tool steps, or a turn that called none", () => {
    expect(renderToStaticMarkup(<StepList />)).toBe("");
    expect(renderToStaticMarkup(<StepList steps={[]} />)).toBe("");
  });

  it("shows one row per call, in order, with the tool, its server, when it started and how long it took", () => {
    const html = renderToStaticMarkup(<StepList steps={[search, add]} />);
    expect(html).toMatch(/<section aria-labelledby="inspector-steps"><h3 id="inspector-steps"[^>]*>Tool calls \(2\)<\/h3><ol /);
    const [first, second] = steps(html).map(text);
    expect(steps(html)).toHaveLength(2);
    expect(first).toMatch(/^notes__search_notes \(notes\)started \+0 ms · took 120 ms · result 14 tokens/);
    expect(second).toMatch(/^notes__add_note \(notes\)started \+130 ms · took 40 ms · result 6 tokens · approved by Ana/);
  });

  it("keeps the arguments short until opened, then shows them as indented JSON", () => {
    const html = renderToStaticMarkup(<StepList steps={[search]} />);
    expect(text(/<summary[^>]*>(.*?)<\/summary>/s.exec(html)![1]!)).toBe('Arguments: {"query":"plans","limit":3}');
    expect(html).not.toMatch(/<details[^>]* open/);
    expect(text(/<pre[^>]*>(.*?)<\/pre>/s.exec(html)![1]!)).toBe('{\n  "query": "plans",\n  "limit": 3\n}');
    // Focusable when it scrolls, named, and wrapping at phone width.
    expect(html).toMatch(/<pre tabindex="0" aria-label="Arguments of notes__search_notes" class="[^"]*whitespace-pre-wrap[^"]*\[overflow-wrap:anywhere\]/);
  });

  it("cuts long arguments on their line, and keeps ones that are not JSON as given", () => {
    const long = JSON.stringify({ query: "x".repeat(100) });
    expect(shortArguments(long)).toHaveLength(60);
    expect(shortArguments(long).endsWith("…")).toBe(true);
    expect(shortArguments('{ "a" :  1 }')).toBe('{"a":1}');
    expect(shortArguments("{not\n json")).toBe("{not json");
    const html = renderToStaticMarkup(<StepList steps={[{ ...search, arguments: "" }]} />);
    expect(text(html)).toContain("No arguments");
    expect(html).not.toContain("<details");
  });

  it("marks a result cut to the agent's limit", () => {
    const html = renderToStaticMarkup(<StepList steps={[{ ...search, resultTokens: 2011, cut: true }]} />);
    expect(html).toMatch(/<span class="[^"]*">cut<\/span>/);
    expect(text(html)).toContain(`result ${(2011).toLocaleString()} tokens (cut to the agent's limit)`);
  });

  it("says who denied a call, that it did not run, and what the model was told instead", () => {
    const denied: StepRecord = { ...add, approval: "denied", decidedBy: "Ana", error: "Not run: denied by Ana (not now)", resultTokens: 9 };
    const row = text(steps(renderToStaticMarkup(<StepList steps={[denied]} />))[0]!);
    expect(row).toContain("not run");
    expect(row).toContain("denied by Ana");
    expect(row).toContain("Not run: denied by Ana (not now)");
    expect(row).not.toContain("failed");
    expect(text(renderToStaticMarkup(<StepList steps={[{ ...add, approval: "expired", decidedBy: undefined, error: "Not run: approval expired" }]} />))).toContain("approval expired");
  });

  it("marks a failed call and shows its error", () => {
    const html = renderToStaticMarkup(<StepList steps={[{ ...search, error: "The notes server timed out after 30 s.", ms: 30_000 }]} />);
    expect(html).toMatch(/<span class="[^"]*text-danger[^"]*">failed<\/span>/);
    expect(text(html)).toContain("Error: The notes server timed out after 30 s.");
    expect(text(html)).toContain("took 30.0 s");
    expect(startedText(12.6)).toBe("+13 ms");
  });
});

describe("ModelCalls", () => {
  it("renders nothing for a snapshot older than tool steps, and says so when no call was made", () => {
    expect(renderToStaticMarkup(<ModelCalls maxTokens={800} />)).toBe("");
    expect(text(renderToStaticMarkup(<ModelCalls calls={[]} maxTokens={800} />))).toBe("No model call was made.");
  });

  it("counts the calls and shows each one's tokens against the budget, closed at first", () => {
    const html = renderToStaticMarkup(<ModelCalls calls={[{ usedTokens: 420 }, { usedTokens: 610 }, { usedTokens: 655 }]} maxTokens={800} />);
    expect(text(/<summary[^>]*>(.*?)<\/summary>/s.exec(html)![1]!)).toBe("3 model calls · up to 655 of 800 tokens");
    expect(html).not.toMatch(/<details[^>]* open/);
    const calls = [...html.matchAll(/<li[^>]*>(.*?)<\/li>/gs)].map((match) => text(match[1]!));
    expect(calls).toEqual(["Call 1420 of 800 tokens", "Call 2610 of 800 tokens", "Call 3655 of 800 tokens"]);
    expect(html).toContain('aria-label="Model calls"');
  });

  it("says which call could not be made for the budget, and opens on it", () => {
    const calls = [{ usedTokens: 700 }, { usedTokens: 0, error: "budget" as const }];
    const html = renderToStaticMarkup(<ModelCalls calls={calls} maxTokens={800} />);
    expect(modelCallsSummary(calls, 800)).toBe("2 model calls · 700 of 800 tokens · call 2 not made: budget");
    expect(html).toMatch(/<details[^>]* open/);
    expect(html).toMatch(/<span class="[^"]*text-danger[^"]*">not made: budget<\/span>/);
    expect(modelCallsSummary([{ usedTokens: 1 }], 800)).toBe("1 model call · 1 of 800 tokens");
  });
});
