import type { RunnerInfo } from '../../shared/contract/connection';
import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';

/** Who syncs this home from the app's point of view. */
export type SyncRunnerState =
  /** Before the first answer of the background sync. */
  | { readonly kind: 'starting' }
  /** No login yet, or logged out: nothing to sync until the user connects. */
  | { readonly kind: 'not-connected' }
  /** This app's watcher holds the drain lock and syncs. */
  | { readonly kind: 'watching' }
  /** Another process (`quire sync --watch`) holds the drain lock: it syncs, the app waits. */
  | { readonly kind: 'other-process'; readonly runner: RunnerInfo | null }
  /** The watcher stopped on a failure it cannot retry by itself (a rejected token…). */
  | { readonly kind: 'stopped'; readonly message: string };

/** Everything the tray and the notifications are drawn from. */
export interface DesktopStatus {
  readonly runner: SyncRunnerState;
  /** The last status snapshot; null before the first. */
  readonly snapshot: SyncStatusSnapshot | null;
  /** The mirror folder, when connected. */
  readonly folder: string | null;
  /** Whether the OS starts the app at login. */
  readonly openAtLogin: boolean;
}
