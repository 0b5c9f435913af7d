import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from './parse-command-args';
import { COMMAND_NAMES } from './quire-commands';

describe('parseCommandArgs', () => {
  it('passes well-formed arguments through unchanged', () => {
    expect(parseCommandArgs('status', {})).toEqual({ ok: true, args: {} });
    expect(
      parseCommandArgs('login', { server: 'http://127.0.0.1:8787', token: 't', folder: '/m' }),
    ).toEqual({ ok: true, args: { server: 'http://127.0.0.1:8787', token: 't', folder: '/m' } });
    expect(
      parseCommandArgs('resolveConflict', { id: 3, choice: { mode: 'merged', text: 'x' } }),
    ).toEqual({ ok: true, args: { id: 3, choice: { mode: 'merged', text: 'x' } } });
    expect(parseCommandArgs('pause', { until: '2026-11-26T15:00:00.000Z' }).ok).toBe(true);
    expect(parseCommandArgs('retryRefused', { id: null }).ok).toBe(true);
    expect(parseCommandArgs('updateSettings', { changeRequestSubject: null }).ok).toBe(true);
    expect(parseCommandArgs('openPath', { spaceId: 's1' })).toEqual({
      ok: true,
      args: { spaceId: 's1' },
    });
    expect(parseCommandArgs('openPath', { path: 'Handbook/intro.md' }).ok).toBe(true);
    expect(parseCommandArgs('openPath', { conflictId: 4 }).ok).toBe(true);
    expect(parseCommandArgs('startDemo', { folder: '/home/me/quire-demo' }).ok).toBe(true);
    expect(parseCommandArgs('capabilities', {}).ok).toBe(true);
    expect(parseCommandArgs('desktopSettings', {}).ok).toBe(true);
    expect(parseCommandArgs('updateDesktopSettings', { notifications: false })).toEqual({
      ok: true,
      args: { notifications: false },
    });
    expect(parseCommandArgs('updateDesktopSettings', {}).ok).toBe(true);
  });

  it.each([
    ['status', null, 'args'],
    ['status', [], 'args'],
    ['status', { extra: 1 }, 'extra'],
    ['login', { server: 'x', token: 't' }, 'folder'],
    ['login', { server: 'x', token: 't', folder: '/m', __proto__x: 1 }, '__proto__x'],
    ['setSpaceEnabled', { spaceId: 's', enabled: 'yes' }, 'enabled'],
    ['conflictVersions', { id: -1 }, 'id'],
    ['conflictVersions', { id: 1.5 }, 'id'],
    ['changeRequest', { space: '', number: 1 }, 'space'],
    ['changeRequest', { space: 's', number: 0 }, 'number'],
    ['changeRequestDiff', { space: 's', number: '4' }, 'number'],
    ['changeRequestDiff', { space: 's', number: 4, page: 'p' }, 'page'],
    ['changeRequests', { all: true }, 'all'],
    ['pinChangeRequest', { space: 's', number: 4 }, 'pinned'],
    ['pinChangeRequest', { space: 's', number: 4, pinned: 1 }, 'pinned'],
    ['resolveConflict', { id: 1, choice: { mode: 'both' } }, 'choice.mode'],
    ['resolveConflict', { id: 1, choice: { mode: 'mine', text: 'x' } }, 'text'],
    ['pause', { until: 'tomorrow' }, 'until'],
    ['updateSettings', { syncIntervalMs: 10 }, 'syncIntervalMs'],
    ['checkServerUrl', { server: 'x'.repeat(5000) }, 'server'],
    ['openPath', {}, 'path'],
    ['openPath', { spaceId: 's', path: 'a.md' }, 'path'],
    ['openPath', { path: '../outside.md' }, 'path'],
    ['openPath', { path: 'space/../../outside.md' }, 'path'],
    ['openPath', { path: '/etc/passwd' }, 'path'],
    ['openPath', { path: 'C:/Windows' }, 'path'],
    ['openPath', { path: '\\\\server\\share' }, 'path'],
    ['openPath', { path: 'a//b' }, 'path'],
    ['openPath', { path: '' }, 'path'],
    ['openPath', { conflictId: 'x' }, 'conflictId'],
    ['startDemo', {}, 'folder'],
    ['startDemo', { folder: 1 }, 'folder'],
    ['desktopSettings', { x: 1 }, 'x'],
    ['updateDesktopSettings', { launchAtLogin: 'yes' }, 'launchAtLogin'],
    ['updateDesktopSettings', { theme: 'dark' }, 'theme'],
  ] as const)('refuses %s with %j, naming %s', (name, args, field) => {
    const parsed = parseCommandArgs(name, args);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatchObject({ kind: 'invalid-argument', field });
  });

  it('has a parser for every command', () => {
    for (const name of COMMAND_NAMES) expect(() => parseCommandArgs(name, {})).not.toThrow();
  });
});
