import { codesDot, largestQueryInteger } from "./codes-dot";

/**
 * The compact copy of an embedding that exact search scans (the `embeddingCodes` column, made by
 * `chorus_embedding_codes` in migration 20261127010000_embedding_codes): the hex of two float8,
 * s/‖e‖ and r/‖e‖, then one ASCII character per dimension, chr(c_i + 64) with c_i = round(e_i / s)
 * in -63..63, where s = max |e_i| / 63 and r = ‖e − s·c‖. For any query q,
 * cos(q, e) = (s/‖e‖)·(q·c)/‖q‖ ± r/‖e‖, so a scan over the codes bounds every row's cosine.
 */

/** Hex characters before the codes: s/‖e‖ and r/‖e‖ as float8. */
export const CODES_HEADER = 32;
/** The character of code 0. */
const CODE_ZERO = 64;
/** Room for float8 rounding in the sums, here and in SQL: far below any row's bound (about 0.01). */
const ROUNDING = 1e-9;

/**
 * The bounds of rows' cosines with `vector`, from their codes: [low, high], or null for codes that
 * say nothing (not made by chorus_embedding_codes). Null when the codes cannot tell for this vector
 * (it has no norm, or another dimension). The vector is rounded to float4 first, as `::real[]`
 * rounds it for the exact ranking.
 *
 * q·c is summed in integers (lib/memory/codes-dot.ts): q = p/λ + ε with p_i = round(λ·q_i), so
 * q·c = (p·c)/λ ± ‖ε‖·‖c‖, and ‖c‖ ≤ (‖e‖ + r)/s: the bound widens by (‖ε‖/‖q‖)·(1 + r/‖e‖),
 * about 10⁻⁴ of a cosine at most, against r/‖e‖ of about 10⁻².
 */
export function cosineBounds(vector: readonly number[], dimensions: number): ((codes: string) => [number, number] | null) | null {
  if (vector.length !== dimensions) return null;
  const query = vector.map(Math.fround);
  const norm = Math.sqrt(query.reduce((sum, value) => sum + value * value, 0));
  if (!(norm > 0 && norm < Infinity)) return null;
  const scale = largestQueryInteger(dimensions) / query.reduce((largest, value) => Math.max(largest, Math.abs(value)), 0);
  const integers = query.map((value) => Math.round(value * scale));
  const error = Math.sqrt(query.reduce((sum, value, index) => sum + (value - integers[index]! / scale) ** 2, 0)) / norm;
  // Σ (char - 64)·p = Σ char·p − 64·Σ p.
  const zero = CODE_ZERO * integers.reduce((sum, value) => sum + value, 0);
  const dot = codesDot(integers, CODES_HEADER);
  return (codes) => {
    if (codes.length !== CODES_HEADER + dimensions) return null;
    const score = (float64FromHex(codes, 0) * (dot(codes) - zero)) / scale / norm;
    const residual = float64FromHex(codes, 16);
    const bound = residual + error * (1 + residual) + ROUNDING;
    return Number.isFinite(score) && Number.isFinite(bound) ? [score - bound, score + bound] : null;
  };
}

/**
 * Bounds each row's cosine with `vector` as the scan hands it over (`add`, one row at a time:
 * none is kept but the few that may still be in the top k), then gives the ids of the rows whose
 * cosine may be among the `k` largest: every row whose upper bound reaches the k-th largest lower
 * bound (k rows are at least that close, so no row below it can be in the top k). Ranking these
 * few exactly gives the full scan's answer. Null when the codes cannot tell (see cosineBounds):
 * the caller ranks every row.
 */
export function candidateFilter(vector: readonly number[], k: number, dimensions: number): CandidateFilter | null {
  const boundsOf = k > 0 ? cosineBounds(vector, dimensions) : null;
  if (!boundsOf) return null;
  // The k largest lower bounds so far, ascending: the first is the floor, once there are k.
  const lows: number[] = [];
  let floor = -Infinity;
  let rows = 0;
  const kept: { id: string; high: number }[] = [];
  return {
    add(id, codes) {
      rows++;
      const bounds = boundsOf(codes);
      // Codes that say nothing: the row stays a candidate.
      if (!bounds) {
        kept.push({ id, high: Infinity });
        return;
      }
      const [low, high] = bounds;
      keepLargest(lows, k, low);
      if (lows.length === k) floor = lows[0]!;
      // A row below the floor now is below it at the end: the floor only rises.
      if (high >= floor) kept.push({ id, high });
    },
    ids() {
      if (rows < k) return null;
      return kept.filter((row) => row.high >= floor).map((row) => row.id);
    },
  };
}

export interface CandidateFilter {
  /** One row of the scan: its id and its codes. */
  add(id: string, codes: string): void;
  /** The rows that may be in the top k, in the scan's order; null for fewer than k rows. */
  ids(): string[] | null;
}

/** Adds `value` to the ascending `largest`, which keeps the `k` largest values it was given. */
function keepLargest(largest: number[], k: number, value: number): void {
  if (largest.length === k) {
    if (value <= largest[0]!) return;
    largest.shift();
  }
  let at = largest.length;
  largest.push(value);
  for (; at > 0 && largest[at - 1]! > value; at--) largest[at] = largest[at - 1]!;
  largest[at] = value;
}

const scratch = new DataView(new ArrayBuffer(8));
/** Hex digit values by character code; -1 elsewhere (the float turns into NaN). */
const HEX_DIGITS = new Float64Array(128).fill(Number.NaN);
for (const [value, digit] of [..."0123456789abcdef"].entries()) HEX_DIGITS[digit.charCodeAt(0)] = value;

/** The float8 written as 16 hex digits (big-endian, as float8send) at `at`; NaN if they are not hex digits. */
export function float64FromHex(text: string, at: number): number {
  const high = hexWord(text, at);
  const low = hexWord(text, at + 8);
  if (Number.isNaN(high) || Number.isNaN(low)) return Number.NaN;
  scratch.setUint32(0, high);
  scratch.setUint32(4, low);
  return scratch.getFloat64(0);
}

function hexWord(text: string, at: number): number {
  let value = 0;
  for (let index = at; index < at + 8; index++) value = value * 16 + (HEX_DIGITS[text.charCodeAt(index)] ?? Number.NaN);
  return value;
}
