import type { SyncProgress, SyncStatusSnapshot } from '../../../shared/contract/sync-status';
import { clockTime, plural, relativeTime } from './format-time';
import type { Tone } from './tone';

/** What the header says about the sync. */
export interface HeaderStatus {
  /** The overall state in a few words: "Up to date", "Syncing…", "Paused until 14:30"… */
  readonly label: string;
  readonly tone: Tone;
  /** Why, when something is wrong (the server's or the engine's sentence, shown as text). */
  readonly detail: string | null;
  /** "Nothing waiting" or "3 changes waiting". */
  readonly pending: string;
  /** "Last sync 5 minutes ago" or "Never synced". */
  readonly lastSync: string;
  readonly paused: boolean;
}

function stateLabel(status: SyncStatusSnapshot, timeZone?: string): { label: string; tone: Tone } {
  switch (status.state) {
    case 'idle':
      return { label: 'Up to date', tone: 'ok' };
    case 'syncing':
      return { label: 'Syncing…', tone: 'busy' };
    case 'paused':
      return {
        label: status.pausedUntil
          ? `Paused until ${clockTime(status.pausedUntil, timeZone)}`
          : 'Paused',
        tone: 'neutral',
      };
    case 'offline':
      return { label: 'Offline', tone: 'warn' };
    case 'error':
      return status.tokenRejected
        ? { label: 'Token rejected', tone: 'danger' }
        : { label: 'Sync failed', tone: 'danger' };
    case 'conflicts':
      return { label: plural(status.conflicts, 'conflict'), tone: 'warn' };
    case 'problems':
      return { label: plural(status.problems.length, 'problem'), tone: 'warn' };
  }
}

function stateDetail(status: SyncStatusSnapshot): string | null {
  if (status.tokenRejected)
    return 'The server rejected the token: nothing syncs until you sign in again.';
  if (status.state === 'offline')
    return status.error ?? 'The server cannot be reached; your edits wait.';
  if (status.state === 'error') return status.error;
  return null;
}

/** The header's words for a status snapshot, relative to `now`. */
export function headerStatus(
  status: SyncStatusSnapshot,
  now: Date,
  timeZone?: string,
): HeaderStatus {
  return {
    ...stateLabel(status, timeZone),
    detail: stateDetail(status),
    pending:
      status.pending === 0 ? 'Nothing waiting' : `${plural(status.pending, 'change')} waiting`,
    lastSync: status.lastSync ? `Last sync ${relativeTime(status.lastSync, now)}` : 'Never synced',
    paused: status.paused,
  };
}

const PHASES: Record<SyncProgress['phase'], string> = {
  listing: 'Listing pages',
  fetching: 'Downloading',
  writing: 'Writing files',
  done: 'Done',
};

/** The progress bar's label, or null when there is nothing to show (no work, or finished). */
export function progressLabel(progress: SyncProgress | null): string | null {
  if (!progress || progress.phase === 'done') return null;
  const phase = PHASES[progress.phase];
  return progress.total > 0 ? `${phase}: ${progress.done} of ${progress.total}` : `${phase}…`;
}
