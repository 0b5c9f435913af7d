import { describe, expect, it } from 'vitest';
import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';
import { snapshot } from '../../../test/electron/status-snapshot';
import type { DesktopStatus } from './desktop-status';
import {
  trayIconState,
  trayMenuModel,
  trayStatusLine,
  trayTooltip,
  type TrayMenuItem,
} from './tray-menu-model';

function watching(fields: Partial<SyncStatusSnapshot> = {}): DesktopStatus {
  return {
    runner: { kind: 'watching' },
    snapshot: snapshot(fields),
    folder: '/home/ada/Quire',
    openAtLogin: false,
  };
}

const time = (iso: string) => iso.slice(11, 16);

/** The enabled actions, in menu order. */
function enabled(items: TrayMenuItem[]): string[] {
  return items.flatMap((item) => (item.kind === 'action' && item.enabled ? [item.action] : []));
}

describe('trayMenuModel', () => {
  it('offers sync and pause when up to date', () => {
    const items = trayMenuModel(watching(), time);
    expect(items[0]).toEqual({ kind: 'status', label: 'Up to date' });
    expect(items.map((item) => (item.kind === 'separator' ? '-' : item.label))).toEqual([
      'Up to date',
      '-',
      'Sync Now',
      'Pause for 30 Minutes',
      'Pause for 1 Hour',
      'Pause Until Resumed',
      'Resume',
      '-',
      'Open Folder',
      'Open Quire',
      'Open at Login',
      '-',
      'Quit Quire',
    ]);
    expect(enabled(items)).toEqual([
      'sync-now',
      'pause-30m',
      'pause-1h',
      'pause-until-resumed',
      'open-folder',
      'open-app',
      'toggle-open-at-login',
      'quit',
    ]);
  });

  it('offers resume only while paused, with the end of a timed pause', () => {
    const items = trayMenuModel(
      watching({
        state: 'paused',
        paused: true,
        pausedUntil: '2026-11-26T14:30:00.000Z',
        pending: 2,
      }),
      time,
    );
    expect(items[0]).toEqual({ kind: 'status', label: 'Paused until 14:30 · 2 changes pending' });
    expect(enabled(items)).toEqual([
      'sync-now',
      'resume',
      'open-folder',
      'open-app',
      'toggle-open-at-login',
      'quit',
    ]);
    const forever = trayMenuModel(watching({ state: 'paused', paused: true }), time);
    expect(forever[0]).toEqual({ kind: 'status', label: 'Paused until resumed' });
  });

  it('does not offer Sync Now while a sync runs', () => {
    const items = trayMenuModel(watching({ state: 'syncing', pending: 1 }), time);
    expect(items[0]).toEqual({ kind: 'status', label: 'Syncing… · 1 change pending' });
    expect(enabled(items)).not.toContain('sync-now');
  });

  it('says offline, error, conflicts and problems in words', () => {
    const line = (fields: Partial<SyncStatusSnapshot>) => trayStatusLine(watching(fields), time);
    expect(line({ state: 'offline', pending: 3 })).toBe('Offline · 3 changes pending');
    expect(line({ state: 'error', error: 'disk full' })).toBe('Error: disk full');
    expect(line({ state: 'error', tokenRejected: true })).toBe(
      'Sign in again: the server rejected the token',
    );
    expect(line({ state: 'conflicts', conflicts: 1 })).toBe('1 conflict to resolve');
    expect(line({ state: 'conflicts', conflicts: 2 })).toBe('2 conflicts to resolve');
    const problem = { path: 'a.md', message: 'bad', spaceId: 's', kind: 'not-pushed' } as const;
    expect(line({ state: 'problems', problems: [problem] })).toBe('1 file not synced');
  });

  it('tells a CLI holding the drain lock apart, and offers no sync then', () => {
    const status: DesktopStatus = {
      runner: {
        kind: 'other-process',
        runner: {
          pid: 4242,
          host: 'h',
          command: 'quire sync --watch',
          since: '2026-11-26T12:00:00Z',
        },
      },
      snapshot: null,
      folder: '/home/ada/Quire',
      openAtLogin: true,
    };
    const items = trayMenuModel(status, time);
    expect(items[0]).toEqual({
      kind: 'status',
      label: 'Syncing from another process (quire sync --watch, pid 4242)',
    });
    expect(enabled(items)).toEqual(['open-folder', 'open-app', 'toggle-open-at-login', 'quit']);
    expect(
      items.find((item) => item.kind === 'action' && item.action === 'toggle-open-at-login'),
    ).toMatchObject({ checked: true });
    expect(trayIconState(status)).toBe('syncing');
  });

  it('before a login: no sync, no folder', () => {
    const status: DesktopStatus = {
      runner: { kind: 'not-connected' },
      snapshot: null,
      folder: null,
      openAtLogin: false,
    };
    expect(trayStatusLine(status)).toBe('Not connected: open Quire to sign in');
    expect(enabled(trayMenuModel(status))).toEqual(['open-app', 'toggle-open-at-login', 'quit']);
  });
});

describe('trayIconState and trayTooltip', () => {
  it('has an icon for every state', () => {
    expect(trayIconState(watching())).toBe('idle');
    expect(trayIconState(watching({ state: 'syncing' }))).toBe('syncing');
    expect(trayIconState(watching({ state: 'paused' }))).toBe('paused');
    expect(trayIconState(watching({ state: 'offline' }))).toBe('offline');
    expect(trayIconState(watching({ state: 'error' }))).toBe('error');
    expect(trayIconState(watching({ state: 'problems' }))).toBe('error');
    expect(trayIconState(watching({ state: 'conflicts' }))).toBe('conflicts');
    expect(
      trayIconState({
        runner: { kind: 'stopped', message: 'x' },
        snapshot: null,
        folder: null,
        openAtLogin: false,
      }),
    ).toBe('error');
  });

  it('puts the pending count in the tooltip', () => {
    expect(trayTooltip(watching({ state: 'offline', pending: 5 }), time)).toBe(
      'Quire: Offline · 5 changes pending',
    );
    expect(trayTooltip(watching(), time)).toBe('Quire: Up to date');
  });
});
