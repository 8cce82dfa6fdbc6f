import { RE2JS, RE2JSSyntaxException } from "re2js";
import { log } from "@/lib/log/logger";
import { describeSyntaxError, type PatternProblem } from "./pattern-problems";

/**
 * Patterns people save (procedure triggers, routing rules) run on RE2 (re2js, a JavaScript port):
 * it matches in time linear in the text, whatever the pattern, so a pattern is judged once, when
 * it is saved, and matching needs no clock: the same message gets the same answer under any load.
 * RE2 leaves out what needs backtracking (look-around, back-references); such patterns are refused.
 */

const MAX_PATTERN_LENGTH = 300;
/**
 * Matching is linear in the text, but once RE2's cache of states overflows each character costs
 * up to the program's size, so capping the compiled program keeps the worst match on the longest
 * message to a fraction of a second. Only large repetition counts reach the cap: `.{400}` is 402
 * instructions, `\b(invoice|bill)` 17.
 */
const MAX_PROGRAM_SIZE = 500;
/** Messages are at most 16 KB, so every message is matched whole; anything longer is cut here. */
export const MAX_MATCHED_LENGTH = 16_384;
/** Distinct patterns kept compiled: the routing rules and triggers in use, least recently used dropped first. */
const CACHE_SIZE = 256;

type Compiled = { regex: RE2JS } | { problem: PatternProblem; logged: boolean };

const cache = new Map<string, Compiled>();

/** The pattern compiled once, or why RE2 cannot run it. */
function compiled(pattern: string): Compiled {
  const cached = cache.get(pattern);
  // A Map keeps insertion order: taking an entry out and back in marks it recently used.
  if (cached) cache.delete(pattern);
  const entry = cached ?? compile(pattern);
  cache.set(pattern, entry);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return entry;
}

function compile(pattern: string): Compiled {
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    const problem: PatternProblem =
      error instanceof RE2JSSyntaxException ? describeSyntaxError(error) : (noun) => `The ${noun} cannot be compiled: ${error instanceof Error ? error.message : String(error)}.`;
    return { problem, logged: false };
  }
  // re2js types its compiled program loosely; numInst() is the program's instruction count.
  const size = (regex.re2().prog as { numInst(): number }).numInst();
  if (size > MAX_PROGRAM_SIZE) {
    const problem: PatternProblem = (noun) =>
      `The ${noun} is too large to match quickly: it compiles to ${size.toLocaleString("en")} steps, and at most ${MAX_PROGRAM_SIZE} are allowed. Use smaller repetition counts, or + and *.`;
    return { problem, logged: false };
  }
  return { regex };
}

/**
 * Checks a pattern before it is saved: it must be short, compile with RE2 (case-insensitive) and
 * stay small. Returns the reason to show when it is refused, naming it as `noun`.
 */
export function checkPattern(pattern: string, noun = "trigger"): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `Keep the ${noun} under ${MAX_PATTERN_LENGTH} characters.`;
  const entry = compiled(pattern);
  return "problem" in entry ? entry.problem(noun) : null;
}

/**
 * Whether a saved pattern matches `text` (case-insensitive). A pattern RE2 cannot run (saved
 * before patterns were checked this way) never matches, and says so in the log once.
 */
export function matchesPattern(pattern: string, text: string): boolean {
  const entry = compiled(pattern);
  if ("regex" in entry) return entry.regex.test(text.length > MAX_MATCHED_LENGTH ? text.slice(0, MAX_MATCHED_LENGTH) : text);
  if (!entry.logged) {
    entry.logged = true;
    log.warn("saved pattern never matches: RE2 cannot run it", { pattern, reason: entry.problem("pattern") });
  }
  return false;
}
