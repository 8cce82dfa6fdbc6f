/** One benchmark result as bench/results/latest.json stores it. */
export interface BenchResult {
  name: string;
  unit: string;
  value: number;
  /** The same work measured another way in the same run; null when nothing was measured to compare with (never a constant). */
  baseline: number | null;
  /** value / baseline */
  ratio: number | null;
  /** What the issue asks for, stated on the ratio or the value; printed, not stored. */
  target?: { ratioAtMost?: number; ratioAtLeast?: number; valueAtMost?: number; valueAtLeast?: number; addedAtMost?: number };
}

export function result(name: string, unit: string, value: number, baseline: number | null, target?: BenchResult["target"]): BenchResult {
  // Nothing against nothing (0 / 0) has no ratio.
  return { name, unit, value: round(value), baseline: baseline === null ? null : round(baseline), ratio: baseline === null || baseline === 0 ? null : round(value / baseline), target };
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function meetsTarget({ value, baseline, ratio, target }: BenchResult): boolean | null {
  if (!target) return null;
  if (target.ratioAtMost !== undefined && (ratio === null || ratio > target.ratioAtMost)) return false;
  if (target.ratioAtLeast !== undefined && (ratio === null || ratio < target.ratioAtLeast)) return false;
  if (target.valueAtMost !== undefined && value > target.valueAtMost) return false;
  if (target.valueAtLeast !== undefined && value < target.valueAtLeast) return false;
  if (target.addedAtMost !== undefined && (baseline === null || value - baseline > target.addedAtMost)) return false;
  return true;
}

const round = (value: number) => Math.round(value * 1000) / 1000;
