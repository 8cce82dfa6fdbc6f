import { get_encoding } from "tiktoken";
import { afterAll, describe, expect, it } from "vitest";
import { countTokens, freeEncoders } from "./token-counter";

describe("countTokens", () => {
  afterAll(freeEncoders);

  it("counts with the model's encoding and falls back to o200k_base for unknown models", () => {
    expect(countTokens("hello world", "gpt-4o")).toBe(2);
    expect(countTokens("hello world", "llama3:8b")).toBe(2);
    expect(countTokens("", "gpt-4o")).toBe(0);
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
