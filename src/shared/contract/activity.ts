/**
 * `pulled`: a new revision was written into the folder; `pushed`: local edits reached the working
 * change request; `merged`: local and remote edits of a page were merged line by line;
 * `removed`: a space was removed on the server; `resolved`: the user settled a conflict;
 * `failed`: a space's sync failed.
 */
export type ActivityKind = 'pulled' | 'pushed' | 'merged' | 'removed' | 'resolved' | 'failed';

/** One line of the activity log (newest first), kept in the cache across restarts. */
export interface ActivityEntry {
  readonly id: number;
  /** ISO time it happened. */
  readonly at: string;
  readonly kind: ActivityKind;
  readonly spaceId: string | null;
  readonly spaceTitle: string | null;
  /** The readable sentence: "Pulled revision r-7: 3 files written". */
  readonly summary: string;
  /** Files concerned, relative to the mirror folder (the first few). */
  readonly files: readonly string[];
}

/** Why a watcher run happened: start-up, a file change, the pull interval, a wake, a retry, asked. */
export type WatchRunReason = 'start' | 'change' | 'interval' | 'wake' | 'retry' | 'request';

/** What one run of the background sync did, in numbers (`quire sync --watch` prints a line). */
export interface WatchRunSummary {
  /** `push`: local edits only; `sync`: push then pull. */
  readonly kind: 'push' | 'sync';
  readonly reason: WatchRunReason;
  readonly finishedAt: string;
  readonly pushed: number;
  readonly written: number;
  readonly removed: number;
  /** The server could not be reached; the run is retried later. */
  readonly offline: boolean;
  /** `<space title>: <error>` or a failure outside one space, one each. */
  readonly failures: readonly string[];
}
