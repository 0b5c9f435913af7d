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
    ['resolveConflict', { id: 1, choice: { mode: 'both' } }, 'choice.mode'],
    ['resolveConflict', { id: 1, choice: { mode: 'mine', text: 'x' } }, 'text'],
    ['pause', { until: 'tomorrow' }, 'until'],
    ['updateSettings', { syncIntervalMs: 10 }, 'syncIntervalMs'],
    ['checkServerUrl', { server: 'x'.repeat(5000) }, 'server'],
  ] as const)('refuses %s with %j, naming %s', (name, args, field) => {
    const parsed = parseCommandArgs(name, args);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatchObject({ kind: 'invalid-argument', field });
  });

  it('has a parser for every command', () => {
    for (const name of COMMAND_NAMES) expect(() => parseCommandArgs(name, {})).not.toThrow();
  });
});
