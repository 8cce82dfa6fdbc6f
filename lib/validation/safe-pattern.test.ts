import { describe, expect, it } from "vitest";
import { checkPattern, matchesPattern } from "./safe-pattern";

describe("saved patterns (procedure triggers, routing rules)", () => {
  it("accepts an ordinary pattern and matches case-insensitively", () => {
    expect(checkPattern("\\b(leave|holiday) request\\b")).toBeNull();
    expect(matchesPattern("\\b(leave|holiday) request\\b", "I want to file a Leave Request")).toBe(true);
    expect(matchesPattern("\\b(leave|holiday) request\\b", "the release is today")).toBe(false);
  });

  it("refuses a pattern that does not compile, with the reason", () => {
    expect(checkPattern("(unclosed")).toMatch(/not a valid regular expression: .*Unterminated group/);
  });

  it("names the pattern as the caller does", () => {
    expect(checkPattern("[", "routing rule")).toMatch(/^The routing rule is not a valid regular expression/);
  });

  it("refuses a catastrophically slow pattern at save", () => {
    expect(checkPattern("^(a+)+$")).toMatch(/too long to match/);
    expect(checkPattern("(\\d+)*x")).toMatch(/too long to match/);
  });

  it("counts a match that runs too long as no match instead of blocking", () => {
    const started = Date.now();
    expect(matchesPattern("^(a+)+$", `${"a".repeat(40)}!`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
