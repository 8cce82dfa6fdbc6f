import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { candidateFilter, CODES_HEADER, cosineBounds, float64FromHex } from "./embedding-codes";
import { cosine } from "@/test/support/cosine";

/** What chorus_embedding_codes (migration 20261127010000_embedding_codes) makes of a real[]. */
function encode(vector: number[]): string | null {
  const values = vector.map(Math.fround);
  const norm = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));
  if (!(norm > 0 && norm < Infinity)) return null;
  const step = Math.max(...values.map(Math.abs)) / 63;
  const codes = values.map((value) => roundHalfEven(value / step));
  const residual = Math.sqrt(values.reduce((sum, value, index) => sum + (value - codes[index]! * step) ** 2, 0));
  return hex(step / norm) + hex(residual / norm) + String.fromCharCode(...codes.map((code) => code + 64));
}

/** PostgreSQL's round(float8) (rint). */
function roundHalfEven(value: number): number {
  return Math.abs(value % 1) === 0.5 ? 2 * Math.round(value / 2) : Math.round(value);
}

function hex(value: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  return Array.from(new Uint8Array(view.buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The candidates of a scan of `rows`, fed to the filter one at a time as the driver does. */
function candidateIds(rows: { id: string; codes: string }[], vector: number[], k: number, dimensions: number): string[] | null {
  const filter = candidateFilter(vector, k, dimensions);
  if (!filter) return null;
  for (const row of rows) filter.add(row.id, row.codes);
  return filter.ids();
}

const DIMENSIONS = 12;
const component = fc.double({ min: -1, max: 1, noNaN: true });
const vectorArb = fc.array(component, { minLength: DIMENSIONS, maxLength: DIMENSIONS }).filter((vector) => vector.some((value) => Math.fround(value) !== 0));

describe("embedding codes", () => {
  it("reads the float8 that float8send wrote in hex", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (value) => {
        expect(float64FromHex(hex(value), 0)).toBe(value);
      }),
    );
  });

  it("keeps every row of the true top k, ties at the k-th included", () => {
    fc.assert(
      fc.property(
        // Some rows repeat, so ties happen.
        fc.array(vectorArb, { minLength: 1, maxLength: 60 }).chain((vectors) => fc.tuple(fc.constant(vectors), fc.array(fc.nat(vectors.length - 1), { maxLength: 20 }))),
        vectorArb,
        fc.integer({ min: 1, max: 8 }),
        ([distinct, repeats], query, k) => {
          const vectors = [...distinct, ...repeats.map((index) => distinct[index]!)];
          const rows = vectors.map((vector, index) => ({ id: `r${index}`, codes: encode(vector)! }));
          const ids = candidateIds(rows, query, k, DIMENSIONS);
          if (rows.length < k) {
            expect(ids).toBeNull();
            return;
          }
          const scores = vectors.map((vector) => cosine(query, vector));
          const kth = [...scores].sort((a, b) => b - a)[k - 1]!;
          const needed = rows.filter((_, index) => scores[index]! >= kth).map((row) => row.id);
          expect(ids).toEqual(expect.arrayContaining(needed));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("bounds every row's cosine, also where the codes hold the vector exactly and the query's rounding to integers is all the error", () => {
    // Integers up to 63 with one of ±63: the step is 1, the codes are the vector, r = 0.
    const exact = fc.tuple(fc.array(fc.integer({ min: -63, max: 63 }), { minLength: DIMENSIONS - 1, maxLength: DIMENSIONS - 1 }), fc.constantFrom(-63, 63)).map(([rest, end]) => [...rest, end]);
    // Components of very different sizes: the small ones round to 0 in the integer query.
    const mixed = fc.array(fc.tuple(component, fc.integer({ min: 0, max: 12 })), { minLength: DIMENSIONS, maxLength: DIMENSIONS }).map((parts) => parts.map(([value, exponent]) => value * 10 ** -exponent));
    fc.assert(
      fc.property(fc.oneof(exact, vectorArb), fc.oneof(mixed, vectorArb).filter((vector) => vector.some((value) => Math.fround(value) !== 0)), (row, query) => {
        const [low, high] = cosineBounds(query, DIMENSIONS)!(encode(row)!)!;
        const truth = cosine(query, row);
        expect(low).toBeLessThanOrEqual(truth);
        expect(high).toBeGreaterThanOrEqual(truth);
      }),
      { numRuns: 2_000 },
    );
  });

  it("leaves few candidates when scores are spread out", () => {
    const random = () => Array.from({ length: 256 }, () => Math.random() - 0.5);
    const rows = Array.from({ length: 2_000 }, (_, index) => ({ id: `r${index}`, codes: encode(random())! }));
    expect(rows[0]!.codes).toHaveLength(CODES_HEADER + 256);
    expect(candidateIds(rows, random(), 5, 256)!.length).toBeLessThan(100);
  });

  it("cannot tell, and says so, for fewer rows than k, a query without a norm or of another dimension", () => {
    const rows = [{ id: "a", codes: encode([1, 0, 0])! }, { id: "b", codes: encode([0, 1, 0])! }];
    expect(candidateIds(rows, [1, 0, 0], 3, 3)).toBeNull();
    expect(candidateIds(rows, [0, 0, 0], 1, 3)).toBeNull();
    expect(candidateIds(rows, [1, 0], 1, 3)).toBeNull();
    expect(candidateIds(rows, [1, 0, 0], 1, 3)).toEqual(["a"]);
  });

  it("keeps a row whose codes say nothing as a candidate", () => {
    const rows = [{ id: "a", codes: encode([1, 0, 0])! }, { id: "b", codes: encode([0.9, 0.1, 0])! }, { id: "odd", codes: "x" }];
    expect(candidateIds(rows, [1, 0, 0], 1, 3)).toEqual(["a", "odd"]);
  });
});
