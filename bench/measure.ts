/** One benchmark result as bench/results/latest.json stores it. */
export interface BenchResult {
  name: string;
  unit: string;
  value: number;
  baseline: number;
  /** value / baseline */
  ratio: number;
  /** What the issue asks for, stated on the ratio or the value; printed, not stored. */
  target?: { ratioAtMost?: number; ratioAtLeast?: number; valueAtMost?: number; addedAtMost?: number };
}

export function result(name: string, unit: string, value: number, baseline: number, target?: BenchResult["target"]): BenchResult {
  return { name, unit, value: round(value), baseline: round(baseline), ratio: round(value / baseline), target };
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function meetsTarget({ value, baseline, ratio, target }: BenchResult): boolean | null {
  if (!target) return null;
  if (target.ratioAtMost !== undefined && ratio > target.ratioAtMost) return false;
  if (target.ratioAtLeast !== undefined && ratio < target.ratioAtLeast) return false;
  if (target.valueAtMost !== undefined && value > target.valueAtMost) return false;
  if (target.addedAtMost !== undefined && value - baseline > target.addedAtMost) return false;
  return true;
}

const round = (value: number) => Math.round(value * 1000) / 1000;
