import type { SyncReport } from './sync-report';

/**
 * What a run takes: `signal` stops it between requests (see SyncReport.stopped);
 * `refreshChangeRequests` refreshes the change-request mirror whatever its interval (a sync the
 * user asked for: a review they wait for must not lag a minute behind).
 */
export interface SyncRunOptions {
  signal?: AbortSignal;
  refreshChangeRequests?: boolean;
}

/** Thrown inside a pull when the run's signal aborted; its space is reported stopped. */
export class SyncStopped extends Error {
  constructor() {
    super('The sync was stopped');
  }
}

/**
 * The state of one syncOnce or pushOnce call: its signal, read between requests, and its report.
 * Made per call and passed down, so nothing of a run outlives it on the engine.
 */
export class SyncRun {
  readonly report: SyncReport;

  constructor(
    readonly signal: AbortSignal | undefined,
    startedAt: string,
    readonly refreshChangeRequests = false,
  ) {
    this.report = {
      startedAt,
      finishedAt: '',
      spaces: [],
      errors: [],
      filesWritten: 0,
      filesRemoved: 0,
    };
  }

  /** Whether the run's signal aborted: checked before each request that starts new work. */
  get stopRequested(): boolean {
    return this.signal?.aborted === true;
  }
}
