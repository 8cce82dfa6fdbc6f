/**
 * The scan's hot loop of exact search (lib/memory/embedding-codes.ts): Σ p_i·b_i over a row's code
 * characters b_i (ASCII, one a dimension) and a query quantised to integers p_i, exactly, in
 * WebAssembly with 128-bit SIMD: 8 dimensions an instruction where JavaScript does one, about a
 * tenth of the time (2 ms for 20,000 rows of 512 dimensions, against 20 to 25 ms for charCodeAt
 * times a Float64Array), the codes copied from each row's string into the module's memory.
 *
 * The module, 134 bytes, assembled by hand from this text (opcodes as in the WebAssembly 2.0
 * specification, checked by lib/memory/codes-dot.test.ts against a plain sum):
 *
 *   (module
 *     (memory (export "memory") 1)
 *     (func (export "dot") (param $query i32) (param $codes i32) (param $end i32) (result i32)
 *       (local $sums v128)
 *       (local.set $end (i32.add (local.get $codes) (local.get $end)))   ;; third argument: a length
 *       (block (loop
 *         (br_if 1 (i32.ge_u (local.get $codes) (local.get $end)))
 *         (local.set $sums (i32x4.add (local.get $sums)
 *           (i32x4.dot_i16x8_s (v128.load8x8_u (local.get $codes)) (v128.load (local.get $query)))))
 *         (local.set $query (i32.add (local.get $query) (i32.const 16)))
 *         (local.set $codes (i32.add (local.get $codes) (i32.const 8)))
 *         (br 0)))
 *       (i32.add (i32.add (i32x4.extract_lane 0 (local.get $sums)) (i32x4.extract_lane 1 (local.get $sums)))
 *                (i32.add (i32x4.extract_lane 2 (local.get $sums)) (i32x4.extract_lane 3 (local.get $sums))))))
 */
const DOT = [
  [0x01, 0x01, 0x7b], // one local, v128: the four sums
  [0x20, 0x01, 0x20, 0x02, 0x6a, 0x21, 0x02], // $end = $codes + length
  [0x02, 0x40, 0x03, 0x40], // block, loop
  [0x20, 0x01, 0x20, 0x02, 0x4f, 0x0d, 0x01], // br_if 1 ($codes >= $end)
  [0x20, 0x03], // $sums
  [0x20, 0x01, 0xfd, 0x02, 0x00, 0x00], // v128.load8x8_u $codes: 8 bytes to 8 × i16
  [0x20, 0x00, 0xfd, 0x00, 0x00, 0x00], // v128.load $query: 8 × i16
  [0xfd, 0xba, 0x01], // i32x4.dot_i16x8_s
  [0xfd, 0xae, 0x01, 0x21, 0x03], // i32x4.add, local.set $sums
  [0x20, 0x00, 0x41, 0x10, 0x6a, 0x21, 0x00], // $query += 16
  [0x20, 0x01, 0x41, 0x08, 0x6a, 0x21, 0x01], // $codes += 8
  [0x0c, 0x00, 0x0b, 0x0b], // br 0, end loop, end block
  [0x20, 0x03, 0xfd, 0x1b, 0x00], // i32x4.extract_lane 0
  [0x20, 0x03, 0xfd, 0x1b, 0x01, 0x6a], // + lane 1
  [0x20, 0x03, 0xfd, 0x1b, 0x02, 0x6a], // + lane 2
  [0x20, 0x03, 0xfd, 0x1b, 0x03, 0x6a], // + lane 3
  [0x0b], // end
].flat();

const section = (id: number, body: number[]): number[] => [id, body.length, ...body];
const ascii = (name: string): number[] => [name.length, ...Array.from(name, (character) => character.charCodeAt(0))];

const MODULE = new WebAssembly.Module(
  new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // \0asm, version 1
    ...section(1, [0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x01, 0x7f]), // type: (i32 i32 i32) -> i32
    ...section(3, [0x01, 0x00]), // one function of that type
    ...section(5, [0x01, 0x00, 0x01]), // one memory, at least one page
    ...section(7, [0x02, ...ascii("dot"), 0x00, 0x00, ...ascii("memory"), 0x02, 0x00]), // exports
    ...section(10, [0x01, DOT.length, ...DOT]), // the function's body
  ]),
);

const PAGE = 65_536;

/** The largest |p_i| for which Σ p_i·b_i, b_i ≤ 127, cannot leave int32 over `dimensions` (and p_i fits int16). */
export function largestQueryInteger(dimensions: number): number {
  return Math.min(32_767, Math.floor(0x7fff_ffff / (127 * Math.max(1, dimensions))));
}

/**
 * A dot product with one query, `query` (integers of at most largestQueryInteger(its length) in
 * magnitude): given a row's string, Σ query_i·b_i over the character codes b_i from `offset` on
 * (ASCII, as chorus_embedding_codes writes them), exact. An instance of its own per query, so
 * searches running at once never share a query.
 */
export function codesDot(query: readonly number[] | Int16Array, offset: number): (codes: string) => number {
  const dimensions = query.length;
  // Whole steps of 8; the query's padding is zero, so what lies past the codes counts for nothing.
  const padded = Math.ceil(dimensions / 8) * 8;
  const codesAt = 2 * padded + offset;
  const instance = new WebAssembly.Instance(MODULE);
  const memory = instance.exports.memory as WebAssembly.Memory;
  const needed = Math.ceil((codesAt + padded) / PAGE);
  if (needed > 1) memory.grow(needed - 1);
  new Int16Array(memory.buffer, 0, padded).set(query);
  const bytes = Buffer.from(memory.buffer);
  const dot = instance.exports.dot as (query: number, codes: number, length: number) => number;
  return (codes) => {
    bytes.write(codes, codesAt - offset, offset + dimensions, "latin1");
    return dot(0, codesAt, padded);
  };
}
