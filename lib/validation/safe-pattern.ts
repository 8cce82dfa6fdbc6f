import vm from "node:vm";
import { log } from "@/lib/log/logger";

/** Longest a pattern may take on one message; longer counts as no match. */
const MATCH_LIMIT_MS = 20;
/** A pattern that takes this long on a hostile input is refused at save. */
const SAVE_LIMIT_MS = 100;
const MAX_PATTERN_LENGTH = 300;

// One context for every match: creating a context costs more than the match itself.
const context = vm.createContext({ re: /$^/, text: "" });
const test = new vm.Script("re.test(text)");

function run(pattern: RegExp, text: string, timeout: number): boolean {
  context.re = pattern;
  context.text = text;
  return test.runInContext(context, { timeout }) === true;
}

/** Inputs that make backtracking patterns explode, e.g. /^(a+)+$/ on "aaaa…!". */
const hostile = ["a", "1", " ", "ab", "a ", "-"].map((unit) => `${unit.repeat(40)}!`);

/**
 * A pattern people save (a procedure's trigger, a routing rule), checked before it is saved: it
 * must compile (case-insensitive) and must not take long on hostile input. Returns the reason to
 * show when it is refused, naming it as `noun`.
 */
export function checkPattern(pattern: string, noun = "trigger"): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `Keep the ${noun} under ${MAX_PATTERN_LENGTH} characters.`;
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern, "i");
  } catch (error) {
    return `The ${noun} is not a valid regular expression: ${error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : String(error)}.`;
  }
  try {
    for (const input of hostile) run(compiled, input, SAVE_LIMIT_MS);
  } catch {
    return `The ${noun} takes too long to match some messages (catastrophic backtracking). Simplify nested repetitions such as (a+)+.`;
  }
  return null;
}

/** Whether `text` matches the pattern, within the match-time limit (a slow match is no match). */
export function matchesPattern(pattern: string, text: string): boolean {
  try {
    return run(new RegExp(pattern, "i"), text.slice(0, 10_000), MATCH_LIMIT_MS);
  } catch (error) {
    log.warn("pattern skipped", { pattern, reason: error instanceof Error ? error.message : String(error) });
    return false;
  }
}
