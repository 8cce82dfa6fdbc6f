/** Cosine as chorus_cosine_distance computes it: float4 values, float8 sums (a reference for search tests). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let index = 0; index < a.length; index++) {
    const x = Math.fround(a[index]!);
    const y = Math.fround(b[index]!);
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  return dot / (Math.sqrt(aa) * Math.sqrt(bb));
}
