import type { SpaceState } from './space-state';

/**
 * The sync status as `quire status --json` prints it and the app shows it. Plain data only: built
 * in src/main (sync-status-model.ts), sent across as JSON.
 */

/**
 * `syncing`: a sync or push is running; `offline`: the server could not be reached, edits wait;
 * `paused`: pushing is paused (`quire pause`); `error`: the last sync or a space failed;
 * `conflicts`: everything else is fine but conflicts wait for the user (`quire conflicts`);
 * `problems`: no conflict, but files were not pushed or written (bad frontmatter, a change the
 * server refused, the mass-delete guard...), listed in `problems`; `idle`: in sync.
 */
export type SyncOverallState =
  'idle' | 'syncing' | 'paused' | 'offline' | 'error' | 'conflicts' | 'problems';

export type SyncProblemKind =
  /** A page or space deleted remotely whose file was edited locally: the file was kept. */
  | 'kept-deleted'
  /** Changed remotely and locally: the local file was kept, the remote version not written. */
  | 'conflict'
  /** A file the engine would write is in the way (a local file it never wrote). */
  | 'path-taken'
  /** A file or folder could not be written or removed. */
  | 'write-failed'
  /** The server could not serve an asset (not found, an unsafe download URL...): not written. */
  | 'download-failed'
  /** A local edit that was not pushed (invalid frontmatter, a file that cannot be read...). */
  | 'not-pushed'
  /** Nothing of the space was pushed until the user confirms (mass deletion, missing folder). */
  | 'push-blocked'
  /** The space folder is gone: nothing of the space was pushed until it is back (or the space off). */
  | 'folder-missing'
  /** The server refused a pushed change (`quire retry` / `quire drop`). */
  | 'push-failed';

/** A file that was not pushed (or not written), and why. */
export interface SyncStatusProblem {
  /** Relative to the mirror folder ('/'-separated); the space folder when no file is at fault. */
  path: string;
  message: string;
  spaceId: string;
  kind: SyncProblemKind;
}

export interface SpaceSyncState {
  id: string;
  title: string;
  /** The space folder, relative to the mirror folder. */
  folder: string;
  enabled: boolean;
  state: SpaceState;
  /** Local changes waiting to be sent (not those the server refused, listed in `problems`). */
  pending: number;
  conflicts: number;
  lastSync: string | null;
  errors: string[];
}

export interface SyncStatusSnapshot {
  state: SyncOverallState;
  /** Local changes not yet acknowledged by the server, all spaces (refused ones left out). */
  pending: number;
  /** When the last sync (or push) finished, ISO; null if never. */
  lastSync: string | null;
  paused: boolean;
  /** When a timed pause ends (ISO), null while paused until resume or when not paused. */
  pausedUntil: string | null;
  conflicts: number;
  /** Why the last run failed or the server is unreachable, when `state` is error or offline. */
  error: string | null;
  /**
   * The server rejected the token (state `error`): nothing syncs until the user signs in again
   * (`quire login`); a watcher stops scheduling runs meanwhile.
   */
  tokenRejected: boolean;
  spaces: SpaceSyncState[];
  problems: SyncStatusProblem[];
}

/** How far a long sync is (the initial mirror of a large space): for a progress bar. */
export interface SyncProgress {
  phase: 'listing' | 'fetching' | 'writing' | 'done';
  /** The space being worked on, by id. */
  space?: string;
  done: number;
  total: number;
}
