import type { BenchRow, Target } from './bench-table';
import type { LoadOptions } from './measure-load';

export interface RunOptions extends LoadOptions {
  /** Seconds of unmeasured load before each measurement, so JIT warm-up is not in the p99. */
  warmupS: number;
  /** Fewer samples in the timed (sequential) scenarios, for a fast check. */
  quick: boolean;
}

/** What the runner hands every scenario. */
export interface RunContext {
  options: RunOptions;
  /** A temp directory owned by this run (databases, fixtures); removed when the run exits. */
  workDir: string;
  /** Progress, on stderr, so stdout stays the table. */
  log(message: string): void;
}

/**
 * One benchmark scenario: sets up whatever it needs, measures, tears down, and returns its row
 * (or rows, when one set-up is measured several ways). Throwing means the harness failed (the
 * row becomes ERROR); a missed target is a FAIL row.
 */
export interface Scenario {
  name: string;
  target: Target;
  run(ctx: RunContext): Promise<BenchRow | BenchRow[]>;
}
