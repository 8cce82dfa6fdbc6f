import { describe, expect, it } from "vitest";
import { checkTrigger, matchesTrigger } from "./trigger-pattern";

describe("procedure triggers", () => {
  it("accepts an ordinary pattern and matches case-insensitively", () => {
    expect(checkTrigger("\\b(leave|holiday) request\\b")).toBeNull();
    expect(matchesTrigger("\\b(leave|holiday) request\\b", "I want to file a Leave Request")).toBe(true);
    expect(matchesTrigger("\\b(leave|holiday) request\\b", "the release is today")).toBe(false);
  });

  it("refuses a pattern that does not compile, with the reason", () => {
    expect(checkTrigger("(unclosed")).toMatch(/not a valid regular expression: .*Unterminated group/);
  });

  it("refuses a catastrophically slow pattern at save", () => {
    expect(checkTrigger("^(a+)+$")).toMatch(/too long to match/);
    expect(checkTrigger("(\\d+)*x")).toMatch(/too long to match/);
  });

  it("counts a match that runs too long as no match instead of blocking", () => {
    const started = Date.now();
    expect(matchesTrigger("^(a+)+$", `${"a".repeat(40)}!`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
