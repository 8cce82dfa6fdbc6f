import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { counterFor } from "@/lib/llm/token-counter";
import { encode, freeTestEncoders } from "./independent-count.fixture";
import { cutToolResult, cutToolResultYielding, DEFAULT_MAX_TOOL_RESULT_TOKENS, notRunResult } from "./tool-results";

afterAll(freeTestEncoders);
const gpt4o = counterFor("gpt-4o");

describe("cutToolResult", () => {
  it("gives a result within the limit as it is", () => {
    expect(cutToolResult("#12 login fails", gpt4o)).toEqual({ content: "#12 login fails", resultTokens: encode("o200k_base", "#12 login fails"), cut: false });
    expect(cutToolResult("", gpt4o)).toEqual({ content: "", resultTokens: 0, cut: false });
  });

  it("keeps the first 2,000 tokens by default and says how many more were cut", () => {
    const raw = Array.from({ length: 1500 }, (_, index) => `row ${index}: ok`).join("\n");
    const total = encode("o200k_base", raw);
    const { content, resultTokens, cut } = cutToolResult(raw, gpt4o);
    expect(cut).toBe(true);
    const marker = `\n[… ${total - DEFAULT_MAX_TOOL_RESULT_TOKENS} more tokens cut]`;
    expect(content.endsWith(marker)).toBe(true);
    const kept = content.slice(0, -marker.length);
    expect(raw.startsWith(kept)).toBe(true);
    expect(encode("o200k_base", kept)).toBe(DEFAULT_MAX_TOOL_RESULT_TOKENS);
    expect(resultTokens).toBe(encode("o200k_base", content));
  });

  it("drops a character the boundary splits rather than mangling it", () => {
    const raw = "🎉".repeat(50);
    const { content } = cutToolResult(raw, gpt4o, 3);
    const kept = content.slice(0, content.indexOf("\n[…"));
    expect(kept).not.toContain("\uFFFD");
    expect(raw.startsWith(kept)).toBe(true);
  });

  it("cuts any result exactly at the limit: a prefix of at most the limit's tokens, the marker counting the rest", () => {
    const text = fc.array(fc.constantFrom("alpha", "数据", "🎉", " ", "\n", "<|endoftext|>", "x".repeat(40), "résumé"), { maxLength: 200 }).map((words) => words.join(""));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 300 }), fc.constantFrom("gpt-4o", "gpt-3.5-turbo"), (raw, max, model) => {
        const counter = counterFor(model);
        const total = encode(counter.encoding, raw);
        const { content, resultTokens, cut } = cutToolResult(raw, counter, max);
        expect(cut).toBe(total > max);
        expect(resultTokens).toBe(encode(counter.encoding, content));
        if (!cut) {
          expect(content).toBe(raw);
          return;
        }
        const marker = `\n[… ${total - max} more tokens cut]`;
        expect(content.endsWith(marker)).toBe(true);
        const kept = content.slice(0, -marker.length);
        expect(raw.startsWith(kept)).toBe(true);
        expect(encode(counter.encoding, kept)).toBeLessThanOrEqual(max);
      }),
      { numRuns: 300 },
    );
  });
});

describe("notRunResult", () => {
  it("says why a call never ran, as the model receives it", () => {
    expect(notRunResult.denied("ann", "not now")).toBe("Not run: denied by ann (not now)");
    expect(notRunResult.expired()).toBe("Not run: approval expired");
    expect(notRunResult.invalidArguments("query: required")).toBe("Not run: invalid arguments: query: required");
  });
});

describe("cutToolResultYielding", () => {
  it("cuts a 2 MB result exactly as cutToolResult does, letting other work run while it counts", async () => {
    const raw = Array.from({ length: 60_000 }, (_, index) => `row ${index}: all systems nominal`).join("\n");
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const yielded = await cutToolResultYielding(raw, gpt4o, 500);
    clearInterval(ticking);
    expect(yielded).toEqual(cutToolResult(raw, gpt4o, 500));
    expect(yielded.cut).toBe(true);
    expect(turns).toBeGreaterThan(3);
  });
});
