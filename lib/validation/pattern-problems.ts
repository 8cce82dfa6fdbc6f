import type { RE2JSSyntaxException } from "re2js";

/** Why a pattern is refused, naming it as the caller does ("trigger", "routing rule"). */
export type PatternProblem = (noun: string) => string;

const notLinear = "which cannot be matched in linear time";

/**
 * RE2's syntax errors (the codes of Go's regexp/syntax, which re2js keeps, with the offending
 * text in `input`) in words a person can act on: the constructs RE2 leaves out on purpose are
 * named, with what to write instead.
 */
export function describeSyntaxError({ error, input }: Pick<RE2JSSyntaxException, "error" | "input">): PatternProblem {
  const offending = input ?? "";
  switch (error) {
    case "invalid or unsupported Perl syntax":
      if (offending === "(?=" || offending === "(?!") {
        return (noun) => `The ${noun} uses a look-ahead ${offending}…), ${notLinear}; match the words themselves instead.`;
      }
      break;
    case "invalid named capture":
      // (?<name>…) is a named group; (?<=…) and (?<!…) reach this code as look-behinds.
      if (offending.startsWith("(?<=") || offending.startsWith("(?<!")) {
        return (noun) => `The ${noun} uses a look-behind ${offending.slice(0, 4)}…), ${notLinear}; match the words themselves instead.`;
      }
      break;
    case "invalid escape sequence":
      if (/^\\([1-9]|k)/.test(offending)) {
        return (noun) => `The ${noun} uses a back-reference (${offending}), ${notLinear}; repeat what the group matches instead.`;
      }
      break;
    case "invalid repeat count":
      return repeatCount(offending);
    case "missing closing )":
      // RE2 quotes the whole pattern here, with the case-insensitive flag it was given: say it plainly.
      return (noun) => `The ${noun} is not a valid regular expression: a group opened with ( is never closed.`;
    case "unexpected )":
      return (noun) => `The ${noun} is not a valid regular expression: a ) closes a group that was never opened.`;
  }
  return (noun) => `The ${noun} is not a valid regular expression: ${error}${offending ? `: ${offending}` : ""}.`;
}

function repeatCount(count: string): PatternProblem {
  const [, min, max] = /^\{(\d+)(?:,(\d*))?\}$/.exec(count) ?? [];
  if (min !== undefined && max && Number(max) < Number(min)) {
    return (noun) => `The ${noun} repeats something ${count} times: the smallest count comes first.`;
  }
  return (noun) => `The ${noun} repeats something ${count} times; a count may be at most 1,000 (counts of nested groups multiply). Use a smaller count, or + or *.`;
}
