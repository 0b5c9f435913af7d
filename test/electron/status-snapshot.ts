import type { SyncStatusSnapshot } from '../../src/shared/contract/sync-status';

/** A status snapshot for the shell's tests: up to date unless `fields` say otherwise. */
export function snapshot(fields: Partial<SyncStatusSnapshot> = {}): SyncStatusSnapshot {
  return {
    state: 'idle',
    pending: 0,
    lastSync: '2026-11-26T12:00:00.000Z',
    paused: false,
    pausedUntil: null,
    conflicts: 0,
    error: null,
    tokenRejected: false,
    spaces: [],
    problems: [],
    ...fields,
  };
}
