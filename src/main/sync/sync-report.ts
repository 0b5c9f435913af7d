import type { CommentSyncReport } from '../comments/sync-comments';
import type { SyncProblemKind } from '../cache/sync-problems';
import type { CachedSpace } from '../cache/space-cache';
import type { SyncError } from '../../shared/contract/sync-error';

/** Something a sync left for the user: a kept file, a conflict, a failed write. */
export interface ReportedProblem {
  kind: SyncProblemKind;
  /** Relative to the space folder. */
  path: string | null;
  pageId: string | null;
  message: string;
}

export interface SpaceSyncReport {
  spaceId: string;
  title: string;
  /** The space folder, relative to the mirror root. */
  folder: string;
  /** The revision the folder reflected before and after (unchanged after an error). */
  fromRevision: string | null;
  toRevision: string | null;
  /** Paths relative to the space folder. */
  written: string[];
  removed: string[];
  problems: ReportedProblem[];
  /** Local changes queued, and acknowledged by the server, by this run's push. */
  queued?: number;
  pushed?: number;
  /** Whether the pull ran (its revision had moved). */
  pulled?: boolean;
  /** Files the pull three-way merged (local and remote edits), to be pushed. */
  merged?: string[];
  /** The space was removed remotely and its folder cleaned up. */
  removedSpace?: boolean;
  /** The server could not be reached while pushing or pulling this space. */
  offline?: boolean;
  /** The run was stopped while on this space (see SyncReport.stopped); not an error. */
  stopped?: boolean;
  /**
   * Main moved since the space's last pull (seen before sending, or when the working change
   * request was created from it): queued edits wait for the pull that merges it (the next
   * syncOnce, which runs it at once when the push saw it).
   */
  mainMoved?: boolean;
  error?: SyncError;
}

export interface SyncReport {
  startedAt: string;
  finishedAt: string;
  spaces: SpaceSyncReport[];
  /** Failures outside one space (listing organizations or spaces). */
  errors: SyncError[];
  filesWritten: number;
  filesRemoved: number;
  /** The server could not be reached at some point of this run (edits stay queued). */
  offline?: boolean;
  /**
   * The run's `signal` aborted: it stopped after the request in flight. What it finished is
   * recorded; the rest (spaces not reached, queued batches, a pull cut short) is left for the next
   * run, which redoes an unfinished pull (its written files are recognised by the journal).
   */
  stopped?: boolean;
  /** The server rejected the token (401): nothing more can sync until the user signs in again. */
  tokenRejected?: boolean;
  /** What the comment step did (set when the engine syncs comments and the run reached it). */
  comments?: CommentSyncReport;
}

/** A space's report before anything happened to it. */
export function emptyReport(space: CachedSpace): SpaceSyncReport {
  return {
    spaceId: space.id,
    title: space.title,
    folder: space.folderPath,
    fromRevision: space.syncedRevision,
    toRevision: space.syncedRevision,
    written: [],
    removed: [],
    problems: [],
  };
}
