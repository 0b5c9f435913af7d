import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';
import type { DesktopStatus } from './desktop-status';

/** The tray's icons, one per state the user tells apart at a glance (resources/tray/<state>.png). */
export const TRAY_ICON_STATES = [
  'idle',
  'syncing',
  'paused',
  'offline',
  'error',
  'conflicts',
] as const;
export type TrayIconState = (typeof TRAY_ICON_STATES)[number];

export type TrayAction =
  | 'sync-now'
  | 'pause-30m'
  | 'pause-1h'
  | 'pause-until-resumed'
  | 'resume'
  | 'open-folder'
  | 'open-app'
  | 'toggle-open-at-login'
  | 'quit';

export type TrayMenuItem =
  | { readonly kind: 'status'; readonly label: string }
  | { readonly kind: 'separator' }
  | {
      readonly kind: 'action';
      readonly action: TrayAction;
      readonly label: string;
      readonly enabled: boolean;
      /** A checkbox item's state. */
      readonly checked?: boolean;
    };

/** How a time is shown in the menu (the locale's short time by default). */
export type TimeFormat = (iso: string) => string;

const shortTime: TimeFormat = (iso) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/** The icon for a status. */
export function trayIconState(status: DesktopStatus): TrayIconState {
  const { runner, snapshot } = status;
  if (runner.kind === 'stopped') return 'error';
  if (runner.kind === 'other-process') return 'syncing';
  if (runner.kind !== 'watching' || snapshot === null) return 'idle';
  // `problems` (files not pushed) need the user like an error does.
  return snapshot.state === 'problems' ? 'error' : snapshot.state;
}

/** The first line of the menu and of the tooltip: the state in words, and what waits to be pushed. */
export function trayStatusLine(status: DesktopStatus, time: TimeFormat = shortTime): string {
  const { runner, snapshot } = status;
  switch (runner.kind) {
    case 'starting':
      return 'Starting…';
    case 'not-connected':
      return 'Not connected: open Quire to sign in';
    case 'stopped':
      return `Stopped: ${runner.message}`;
    case 'other-process':
      return runner.runner === null
        ? 'Syncing from another process'
        : `Syncing from another process (${runner.runner.command}, pid ${runner.runner.pid})`;
    case 'watching': {
      if (snapshot === null) return 'Starting…';
      const pending = pendingText(snapshot.pending);
      return `${snapshotLine(snapshot, time)}${pending ? ` · ${pending}` : ''}`;
    }
  }
}

function snapshotLine(snapshot: SyncStatusSnapshot, time: TimeFormat): string {
  switch (snapshot.state) {
    case 'idle':
      return 'Up to date';
    case 'syncing':
      return 'Syncing…';
    case 'paused':
      return `Paused ${snapshot.pausedUntil ? `until ${time(snapshot.pausedUntil)}` : 'until resumed'}`;
    case 'offline':
      return 'Offline';
    case 'error':
      return snapshot.tokenRejected
        ? 'Sign in again: the server rejected the token'
        : `Error: ${snapshot.error ?? 'the last sync failed'}`;
    case 'conflicts':
      return count(snapshot.conflicts, 'conflict', 'to resolve');
    case 'problems':
      return count(snapshot.problems.length, 'file', 'not synced');
  }
}

/** The tray's tooltip: the app, the state, and what waits to be pushed. */
export function trayTooltip(status: DesktopStatus, time: TimeFormat = shortTime): string {
  return `Quire: ${trayStatusLine(status, time)}`;
}

/** The tray menu for a status: status line, Sync now, Pause…, Resume, Open…, Quit. */
export function trayMenuModel(status: DesktopStatus, time: TimeFormat = shortTime): TrayMenuItem[] {
  const watching = status.runner.kind === 'watching';
  const paused = watching && status.snapshot?.paused === true;
  const syncing = status.snapshot?.state === 'syncing';
  const action = (
    action: TrayAction,
    label: string,
    enabled: boolean,
    checked?: boolean,
  ): TrayMenuItem => ({
    kind: 'action',
    action,
    label,
    enabled,
    ...(checked === undefined ? {} : { checked }),
  });
  return [
    { kind: 'status', label: trayStatusLine(status, time) },
    { kind: 'separator' },
    action('sync-now', 'Sync Now', watching && !syncing),
    action('pause-30m', 'Pause for 30 Minutes', watching && !paused),
    action('pause-1h', 'Pause for 1 Hour', watching && !paused),
    action('pause-until-resumed', 'Pause Until Resumed', watching && !paused),
    action('resume', 'Resume', paused),
    { kind: 'separator' },
    action('open-folder', 'Open Folder', status.folder !== null),
    action('open-app', 'Open Quire', true),
    action('toggle-open-at-login', 'Open at Login', true, status.openAtLogin),
    { kind: 'separator' },
    action('quit', 'Quit Quire', true),
  ];
}

function pendingText(pending: number): string {
  return pending === 0 ? '' : `${pending} ${pending === 1 ? 'change' : 'changes'} pending`;
}

function count(n: number, noun: string, rest: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`} ${rest}`;
}
