import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codesDot, largestQueryInteger } from "./codes-dot";

/** Σ query_i·b_i over the characters after `offset`, in plain arithmetic. */
function plainDot(query: readonly number[], codes: string, offset: number): number {
  return query.reduce((sum, value, index) => sum + value * codes.charCodeAt(offset + index), 0);
}

/** A query of `dimensions` integers within the module's range, and rows of ASCII codes (1..127) after an 8-character header. */
const queryAndRows = fc.integer({ min: 1, max: 300 }).chain((dimensions) => {
  const largest = largestQueryInteger(dimensions);
  const text = (length: number) => fc.array(fc.integer({ min: 1, max: 127 }), { minLength: length, maxLength: length }).map((codes) => String.fromCharCode(...codes));
  return fc.tuple(
    fc.array(fc.oneof(fc.integer({ min: -largest, max: largest }), fc.constantFrom(-largest, largest, 0)), { minLength: dimensions, maxLength: dimensions }),
    fc.array(fc.tuple(text(8), text(dimensions)).map(([header, codes]) => header + codes), { minLength: 1, maxLength: 5 }),
  );
});

describe("the codes' dot product in WebAssembly", () => {
  it("is the exact integer sum, for any dimension and the largest allowed query values", () => {
    fc.assert(
      fc.property(queryAndRows, ([query, rows]) => {
        const dot = codesDot(query, 8);
        for (const codes of rows) expect(dot(codes)).toBe(plainDot(query, codes, 8));
      }),
      { numRuns: 300 },
    );
  });

  it("cannot overflow at the extremes: every code 127 against the largest query value, in 1,536 and 40,000 dimensions", () => {
    for (const dimensions of [1_536, 40_000]) {
      const largest = largestQueryInteger(dimensions);
      const codes = "\u007f".repeat(dimensions);
      expect(codesDot(Array(dimensions).fill(largest), 0)(codes)).toBe(127 * largest * dimensions);
      expect(codesDot(Array(dimensions).fill(-largest), 0)(codes)).toBe(-127 * largest * dimensions);
    }
  });

  it("keeps each query to itself: rows of two searches interleaved", () => {
    const codes = "\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008\u0009";
    const first = codesDot([1, 1, 1, 1, 1, 1, 1, 1, 1], 0);
    const second = codesDot([0, 0, 0, 0, 0, 0, 0, 0, -2], 0);
    expect([first(codes), second(codes), first(codes)]).toEqual([45, -18, 45]);
  });
});
