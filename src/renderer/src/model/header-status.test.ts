import { describe, expect, it } from 'vitest';
import type { SyncStatusSnapshot } from '../../../shared/contract/sync-status';
import { headerStatus, progressLabel } from './header-status';

const NOW = new Date('2026-03-01T12:00:00Z');

function snapshot(patch: Partial<SyncStatusSnapshot> = {}): SyncStatusSnapshot {
  return {
    state: 'idle',
    pending: 0,
    lastSync: '2026-03-01T11:55:00Z',
    paused: false,
    pausedUntil: null,
    conflicts: 0,
    error: null,
    tokenRejected: false,
    spaces: [],
    problems: [],
    ...patch,
  };
}

describe('headerStatus', () => {
  it('says up to date, nothing waiting and when the last sync was', () => {
    expect(headerStatus(snapshot(), NOW)).toEqual({
      label: 'Up to date',
      tone: 'ok',
      detail: null,
      pending: 'Nothing waiting',
      lastSync: 'Last sync 5 minutes ago',
      paused: false,
    });
  });

  it('counts pending changes and says when it never synced', () => {
    const view = headerStatus(snapshot({ state: 'syncing', pending: 1, lastSync: null }), NOW);
    expect([view.label, view.tone, view.pending, view.lastSync]).toEqual([
      'Syncing…',
      'busy',
      '1 change waiting',
      'Never synced',
    ]);
    expect(headerStatus(snapshot({ pending: 3 }), NOW).pending).toBe('3 changes waiting');
  });

  it('says until when a timed pause lasts', () => {
    const view = headerStatus(
      snapshot({ state: 'paused', paused: true, pausedUntil: '2026-03-01T12:30:00Z' }),
      NOW,
      'UTC',
    );
    expect(view.label).toBe('Paused until 12:30');
    expect(view.paused).toBe(true);
    expect(headerStatus(snapshot({ state: 'paused', paused: true }), NOW).label).toBe('Paused');
  });

  it('gives the reason when offline or failed, and asks to sign in when the token was rejected', () => {
    expect(headerStatus(snapshot({ state: 'offline', error: 'ECONNREFUSED' }), NOW)).toMatchObject({
      label: 'Offline',
      tone: 'warn',
      detail: 'ECONNREFUSED',
    });
    expect(headerStatus(snapshot({ state: 'error', error: 'disk full' }), NOW)).toMatchObject({
      label: 'Sync failed',
      detail: 'disk full',
    });
    expect(
      headerStatus(snapshot({ state: 'error', tokenRejected: true, error: '401' }), NOW),
    ).toMatchObject({ label: 'Token rejected', tone: 'danger' });
  });

  it('counts conflicts and problems', () => {
    expect(headerStatus(snapshot({ state: 'conflicts', conflicts: 2 }), NOW).label).toBe(
      '2 conflicts',
    );
    const problem = { path: 'a.md', message: 'bad', spaceId: 's', kind: 'not-pushed' as const };
    expect(headerStatus(snapshot({ state: 'problems', problems: [problem] }), NOW).label).toBe(
      '1 problem',
    );
  });
});

describe('progressLabel', () => {
  it('shows the phase and the count while working, nothing when done or unknown', () => {
    expect(progressLabel({ phase: 'fetching', done: 3, total: 10 })).toBe('Downloading: 3 of 10');
    expect(progressLabel({ phase: 'listing', done: 0, total: 0 })).toBe('Listing pages…');
    expect(progressLabel({ phase: 'done', done: 10, total: 10 })).toBeNull();
    expect(progressLabel(null)).toBeNull();
  });
});
