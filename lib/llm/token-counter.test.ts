import { get_encoding } from "tiktoken";
import { afterAll, describe, expect, it } from "vitest";
import { countTokens, encodingFor, firstTokens, freeEncoders } from "./token-counter";

describe("countTokens", () => {
  afterAll(freeEncoders);

  it("counts with the model's encoding and falls back to o200k_base for unknown models", () => {
    expect(countTokens("hello world", "gpt-4o")).toBe(2);
    expect(countTokens("hello world", "llama3:8b")).toBe(2);
    expect(countTokens("", "gpt-4o")).toBe(0);
  });

  it("names each model's encoding, with o200k_base for models tiktoken does not know", () => {
    expect([encodingFor("gpt-4o-mini"), encodingFor("gpt-4"), encodingFor("llama3.1:8b")]).toEqual(["o200k_base", "cl100k_base", "o200k_base"]);
    expect(countTokens("hello world", "gpt-4")).toBe(2);
  });

  it("does not throw on special-token strings in user text", () => {
    expect(countTokens("<|endoftext|> and <|im_start|>", "gpt-4o")).toBeGreaterThan(2);
  });

  it("counts long ordinary text the same in pieces as whole", () => {
    const prose = "The quick brown fox jumps over the lazy dog. ".repeat(200);
    const whole = get_encoding("o200k_base");
    expect(countTokens(prose, "gpt-4o")).toBe(whole.encode(prose, [], []).length);
    whole.free();
  });

  it("handles a long unbroken run of one character (finishes within the test's time-out)", () => {
    expect(countTokens("a".repeat(300_000), "gpt-4o")).toBeGreaterThan(1000);
  });
});

describe("firstTokens", () => {
  afterAll(freeEncoders);

  it("keeps the text of the first tokens and counts them all, across the pieces long text is encoded in", () => {
    const prose = Array.from({ length: 600 }, (_, index) => `Line ${index} of the release log.`).join(" ");
    const cut = firstTokens(prose, 1_000, "gpt-4o");
    expect(cut.tokens).toBe(countTokens(prose, "gpt-4o"));
    expect(prose.startsWith(cut.text)).toBe(true);
    expect(countTokens(cut.text, "gpt-4o")).toBeLessThanOrEqual(1_000);
    expect(countTokens(cut.text, "gpt-4o")).toBeGreaterThan(990);
  });

  it("returns the whole text when it fits", () => {
    expect(firstTokens("short text", 50, "gpt-4o")).toEqual({ text: "short text", tokens: 2 });
  });

  it("drops a character whose bytes the boundary splits instead of writing a replacement character", () => {
    // Rare CJK characters take more than one token each in o200k_base.
    const text = "𠮷".repeat(20);
    for (let max = 1; max < 10; max++) {
      const cut = firstTokens(text, max, "gpt-4o").text;
      expect(cut).not.toContain("\uFFFD");
      expect(text.startsWith(cut)).toBe(true);
    }
  });
});
