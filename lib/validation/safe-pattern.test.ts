import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { RE2JS } from "re2js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log/logger";
import { checkPattern, matchesPattern, MAX_MATCHED_LENGTH } from "./safe-pattern";

const longest = MAX_MATCHED_LENGTH;

/**
 * Patterns that make a backtracking engine take exponential (or quadratic) time, each with a
 * message of the longest size that does not match and one that does. On RE2 they are ordinary.
 */
const hostile: [pattern: string, noMatch: string, match: string][] = [
  ["^(a+)+$", `${"a".repeat(longest - 1)}!`, "a".repeat(longest)],
  ["(x+x+)+y", "x".repeat(longest), `${"x".repeat(longest - 1)}y`],
  ["(b+)+$", `${"b".repeat(longest - 1)}!`, `!${"b".repeat(longest - 1)}`],
  ["(?:q|qq)+$", `${"q".repeat(longest - 1)}!`, "q".repeat(longest)],
  ["(.*a){20}", "b".repeat(longest), `${"b".repeat(longest - 20)}${"a".repeat(20)}`],
  ["(\\d+)*x", `${"1".repeat(longest - 1)}!`, `${"1".repeat(longest - 1)}x`],
  // Quadratic for a backtracking engine: on a long message V8 runs past the old 20 ms clock, which then answered "no match".
  ["\\s+$|hello", `${" ".repeat(longest - 8)}x hell0`, `${" ".repeat(longest - 8)}x hello`],
];

describe("saved patterns (procedure triggers, routing rules)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("accepts an ordinary pattern and matches case-insensitively, beyond ASCII too", () => {
    expect(checkPattern("\\b(leave|holiday) request\\b")).toBeNull();
    expect(matchesPattern("\\b(leave|holiday) request\\b", "I want to file a Leave Request")).toBe(true);
    expect(matchesPattern("\\b(leave|holiday) request\\b", "the release is today")).toBe(false);
    expect(matchesPattern("congés? d'été", "Mes CONGÉS D'ÉTÉ")).toBe(true);
  });

  it("refuses a pattern that does not compile, with the reason, naming it as the caller does", () => {
    expect(checkPattern("(unclosed")).toBe("The trigger is not a valid regular expression: a group opened with ( is never closed.");
    expect(checkPattern("[", "routing rule")).toBe("The routing rule is not a valid regular expression: missing closing ]: [.");
    expect(checkPattern("x".repeat(301), "routing rule")).toBe("Keep the routing rule under 300 characters.");
  });

  it("refuses look-around and back-references, which need backtracking, saying what to write instead", () => {
    expect(checkPattern("(?=.*refund)invoice", "routing rule")).toBe(
      "The routing rule uses a look-ahead (?=…), which cannot be matched in linear time; match the words themselves instead.",
    );
    expect(checkPattern("^(?!hello)")).toMatch(/^The trigger uses a look-ahead \(\?!…\), which cannot be matched in linear time/);
    expect(checkPattern("(?<=my )invoice")).toMatch(/^The trigger uses a look-behind \(\?<=…\), which cannot be matched in linear time/);
    expect(checkPattern("(?<!no )invoice")).toMatch(/^The trigger uses a look-behind \(\?<!…\)/);
    expect(checkPattern("(\\w+) \\1", "routing rule")).toBe(
      "The routing rule uses a back-reference (\\1), which cannot be matched in linear time; repeat what the group matches instead.",
    );
    expect(checkPattern("(?<word>\\w+) \\k<word>")).toMatch(/^The trigger uses a back-reference \(\\k\)/);
    // Named groups themselves are fine.
    expect(checkPattern("(?<what>invoice|bill)")).toBeNull();
  });

  it("refuses absurd repetition counts and patterns too large to match quickly", () => {
    expect(checkPattern("a{99999999999}", "routing rule")).toBe(
      "The routing rule repeats something {99999999999} times; a count may be at most 1,000 (counts of nested groups multiply). Use a smaller count, or + or *.",
    );
    expect(checkPattern("(a{100}){100}")).toMatch(/^The trigger repeats something \{100\} times; a count may be at most 1,000/);
    expect(checkPattern("x{5,2}")).toBe("The trigger repeats something {5,2} times: the smallest count comes first.");
    expect(checkPattern(".{400}.{400}")).toBe(
      "The trigger is too large to match quickly: it compiles to 802 steps, and at most 500 are allowed. Use smaller repetition counts, or + and *.",
    );
    expect(checkPattern("\\d{4}-\\d{2}-\\d{2}")).toBeNull();
  });

  it.each(hostile)("accepts %s, which backtracking engines choke on, and answers right on the longest message", (pattern, noMatch, match) => {
    expect(checkPattern(pattern)).toBeNull();
    expect(matchesPattern(pattern, noMatch)).toBe(false);
    expect(matchesPattern(pattern, match)).toBe(true);
  });

  it("matches the first 16 KB of a text, every message whole", () => {
    expect(matchesPattern("needle", `${"x".repeat(longest - 6)}needle`)).toBe(true);
    expect(matchesPattern("needle", `${"x".repeat(longest)}needle`)).toBe(false);
  });

  it("gives the same answers while every core is kept busy", async () => {
    const spin = `require("node:worker_threads").parentPort.postMessage("busy"); for (;;) {}`;
    const workers = Array.from({ length: availableParallelism() + 1 }, () => new Worker(spin, { eval: true }));
    try {
      await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once("message", resolve))));
      const answers = hostile.flatMap(([pattern, noMatch, match]) => [checkPattern(pattern), matchesPattern(pattern, noMatch), matchesPattern(pattern, match)]);
      expect(answers).toEqual(hostile.flatMap(() => [null, false, true]));
    } finally {
      await Promise.all(workers.map((worker) => worker.terminate()));
    }
  });

  it("compiles a pattern once, and keeps the patterns in use compiled", () => {
    const compile = vi.spyOn(RE2JS, "compile");
    expect(checkPattern("\\bonce\\b")).toBeNull();
    for (let turn = 0; turn < 5; turn++) expect(matchesPattern("\\bonce\\b", `turn ${turn}: once more`)).toBe(true);
    expect(compile).toHaveBeenCalledTimes(1);

    // A few hundred others pass through; the least recently used is the one compiled again.
    for (let other = 0; other < 300; other++) matchesPattern(`other-${other}`, "x");
    compile.mockClear();
    matchesPattern("other-299", "x");
    expect(compile).not.toHaveBeenCalled();
    matchesPattern("\\bonce\\b", "x");
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it("never matches a saved pattern RE2 cannot run, and logs it once, not at every turn", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    for (let turn = 0; turn < 3; turn++) expect(matchesPattern("(?=.*urgent)ticket", "urgent ticket")).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith("saved pattern never matches: RE2 cannot run it", {
      pattern: "(?=.*urgent)ticket",
      reason: expect.stringMatching(/^The pattern uses a look-ahead/),
    });
  });
});
