import { describe, expect, it } from "vitest";
import { searchInputSchema } from "./search-input";

const parse = (input: Record<string, string | undefined>) => searchInputSchema.safeParse(input);
const problem = (input: Record<string, string | undefined>) => parse(input).error?.issues[0]?.message;

describe("searchInputSchema", () => {
  it("trims the words and reads days and times; empty filters mean none", () => {
    expect(parse({ q: "  deploy  ", after: "2026-11-26", before: "2026-11-27T09:30:00+01:00", conversationId: "", authorId: " ", offset: "" }).data).toEqual({
      query: "deploy",
      after: new Date("2026-11-26T00:00:00Z"),
      before: new Date("2026-11-27T08:30:00Z"),
      offset: 0,
    });
  });

  it("refuses what cannot be searched, saying what to change", () => {
    expect(problem({})).toBe("Type something to search for.");
    expect(problem({ q: " \t " })).toBe("Type something to search for.");
    expect(problem({ q: "é".repeat(501) })).toMatch(/at most 500 characters; this one has 501/);
    expect(problem({ q: "a\u0007" })).toMatch(/control characters \(U\+0007 at character 2\)/);
    expect(problem({ q: "x", after: "2026-02-29" })).toMatch(/^after must be a date like 2026-11-26/);
    expect(problem({ q: "x", before: "26/11/2026" })).toMatch(/^before must be a date/);
    expect(problem({ q: "x", after: "2026-11-27", before: "2026-11-26" })).toMatch(/after must be earlier than before/);
    expect(problem({ q: "x", authorId: "a b" })).toMatch(/^authorId must be an id/);
    expect(problem({ q: "x", offset: "1.5" })).toMatch(/^offset must be a whole number/);
  });
});
