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

export interface CodedRow {
  id: string;
  codes: string;
}

/**
 * The ids of the rows whose cosine with `vector` may be among the `k` largest: every row whose
 * upper bound reaches the k-th largest lower bound (k rows are at least that close, so no row
 * below it can be in the top k). Ranking these few exactly gives the full scan's answer.
 * Null when the codes cannot tell (fewer than `k` rows, a vector without a norm, or of another
 * dimension): the caller ranks every row.
 *
 * The vector is rounded to float4 first, as `::real[]` rounds it for the exact ranking.
 */
export function candidateIds(rows: readonly CodedRow[], vector: readonly number[], k: number, dimensions: number): string[] | null {
  if (vector.length !== dimensions || rows.length < k || k <= 0) return null;
  const query = new Float64Array(dimensions);
  let squares = 0;
  let sum = 0;
  for (let index = 0; index < dimensions; index++) {
    const value = Math.fround(vector[index]!);
    query[index] = value;
    squares += value * value;
    sum += value;
  }
  if (!(squares > 0 && squares < Infinity)) return null;
  const norm = Math.sqrt(squares);
  // Σ (char - 64)·q = Σ char·q − 64·Σ q: one multiply-add a dimension.
  const zero = CODE_ZERO * sum;
  const low = new Float64Array(rows.length);
  const high = new Float64Array(rows.length);
  for (let row = 0; row < rows.length; row++) {
    const codes = rows[row]!.codes;
    let score = Number.NaN;
    let bound = Number.NaN;
    if (codes.length === CODES_HEADER + dimensions) {
      score = (float64FromHex(codes, 0) * (codesDot(codes, query) - zero)) / norm;
      bound = float64FromHex(codes, 16) + ROUNDING;
    }
    // Codes that say nothing (not made by chorus_embedding_codes): the row stays a candidate.
    const known = Number.isFinite(score) && Number.isFinite(bound);
    low[row] = known ? score - bound : -Infinity;
    high[row] = known ? score + bound : Infinity;
  }
  const floor = Float64Array.from(low).sort()[rows.length - k]!;
  const ids: string[] = [];
  for (let row = 0; row < rows.length; row++) if (high[row]! >= floor) ids.push(rows[row]!.id);
  return ids;
}

/** Σ char_i·query_i over the codes: the scan's hot loop (four sums: about a sixth quicker than one). */
function codesDot(codes: string, query: Float64Array): number {
  const dimensions = query.length;
  const whole = dimensions - (dimensions % 4);
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let index = 0;
  for (; index < whole; index += 4) {
    const at = CODES_HEADER + index;
    a += codes.charCodeAt(at) * query[index]!;
    b += codes.charCodeAt(at + 1) * query[index + 1]!;
    c += codes.charCodeAt(at + 2) * query[index + 2]!;
    d += codes.charCodeAt(at + 3) * query[index + 3]!;
  }
  for (; index < dimensions; index++) a += codes.charCodeAt(CODES_HEADER + index) * query[index]!;
  return a + b + c + d;
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
