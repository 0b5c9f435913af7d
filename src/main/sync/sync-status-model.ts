import type {
  SpaceSyncState,
  SyncOverallState,
  SyncStatusProblem,
  SyncStatusSnapshot,
} from '../../shared/contract/sync-status';
import type { PauseState } from '../cache/sync-pause';
import type { SpaceStatus } from './sync-engine';

/** What the status is built from: the engine's cache (SyncEngine fits). */
export interface SyncStatusSource {
  status(): SpaceStatus[];
  pendingChanges(spaceId?: string): number;
  pauseState(): PauseState;
}

/** What only a running watcher knows; a one-off `quire status` has none of it. */
export interface SyncRuntimeState {
  syncing: boolean;
  offline: boolean;
  /** Why the last run failed as a whole (the folder missing, the token refused...). */
  error: string | null;
  /** The last run found the token rejected (401); `error` says so. */
  tokenRejected?: boolean;
  /** When the last run (sync or push) finished, ISO. */
  lastRun: string | null;
}

export const IDLE_RUNTIME: SyncRuntimeState = {
  syncing: false,
  offline: false,
  error: null,
  lastRun: null,
};

/**
 * The one status model (see src/shared/contract/sync-status.ts). The overall state is the most urgent
 * thing the user should know: work in progress, then no network, then a failure, then a pause,
 * then things waiting for them (conflicts, then other problems: files not pushed or written),
 * else idle.
 */
export function buildSyncStatus(
  source: SyncStatusSource,
  runtime: SyncRuntimeState = IDLE_RUNTIME,
): SyncStatusSnapshot {
  const pause = source.pauseState();
  const spaces: SpaceSyncState[] = [];
  const problems: SyncStatusProblem[] = [];
  let conflicts = 0;
  let spaceError: string | null = null;
  let lastSync = runtime.lastRun;
  for (const space of source.status()) {
    // The conflict store's count when the engine has one; conflicts recorded as problems else.
    const spaceConflicts =
      space.conflicts ?? space.problems.filter((problem) => problem.kind === 'conflict').length;
    conflicts += spaceConflicts;
    for (const problem of space.problems) {
      if (problem.kind === 'conflict') continue;
      problems.push({
        path: problem.path === null ? space.folder : `${space.folder}/${problem.path}`,
        message: problem.message,
        spaceId: space.id,
        kind: problem.kind,
      });
    }
    if (space.state === 'error' && spaceError === null) {
      spaceError = `${space.title}: ${space.errors[0] ?? 'failed'}`;
    }
    if (space.lastSync !== null && (lastSync === null || space.lastSync > lastSync)) {
      lastSync = space.lastSync;
    }
    spaces.push({
      id: space.id,
      title: space.title,
      folder: space.folder,
      enabled: space.enabled,
      state: space.state,
      pending: source.pendingChanges(space.id),
      conflicts: spaceConflicts,
      lastSync: space.lastSync,
      errors: [...space.errors],
    });
  }
  const error = runtime.error ?? spaceError;
  let state: SyncOverallState = 'idle';
  if (runtime.syncing) state = 'syncing';
  else if (runtime.offline) state = 'offline';
  else if (error !== null) state = 'error';
  else if (pause.paused) state = 'paused';
  else if (conflicts > 0) state = 'conflicts';
  else if (problems.length > 0) state = 'problems';
  return {
    state,
    pending: source.pendingChanges(),
    lastSync,
    paused: pause.paused,
    pausedUntil: pause.until?.toISOString() ?? null,
    conflicts,
    error,
    tokenRejected: runtime.tokenRejected === true,
    spaces,
    problems,
  };
}
