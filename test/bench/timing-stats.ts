/** Summary of sequential, individually timed operations (milliseconds, sub-ms resolution). */
export interface TimingStats {
  samples: number;
  p50Ms: number;
  p95Ms: number;
  minMs: number;
  maxMs: number;
  meanMs: number;
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Nearest-rank percentile of sorted samples: always one of the measured values. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(samplesMs: readonly number[]): TimingStats {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    samples: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    minMs: round(sorted[0] ?? Number.NaN),
    maxMs: round(sorted.at(-1) ?? Number.NaN),
    meanMs: round(sorted.length > 0 ? total / sorted.length : Number.NaN),
  };
}

/** Runs `fn` and returns how long it took, in milliseconds. */
export function timeSync(fn: () => void): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}
