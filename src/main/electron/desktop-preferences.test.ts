import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DesktopPreferences } from './desktop-preferences';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'quire-prefs-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('DesktopPreferences', () => {
  it('defaults to notifications on, and keeps a change across instances', async () => {
    const prefs = DesktopPreferences.in(join(dir, 'userData'));
    expect(prefs.current()).toEqual({ notifications: true });
    expect(await prefs.read()).toEqual({ notifications: true });
    expect(await prefs.update({ notifications: false })).toEqual({ notifications: false });
    expect(prefs.current()).toEqual({ notifications: false });
    expect(await DesktopPreferences.in(join(dir, 'userData')).read()).toEqual({
      notifications: false,
    });
    const saved = readFileSync(join(dir, 'userData', 'desktop-settings.json'), 'utf8');
    expect(JSON.parse(saved)).toEqual({ notifications: false });
  });

  it('reads a damaged file as the defaults', async () => {
    writeFileSync(join(dir, 'desktop-settings.json'), '{not json');
    expect(await DesktopPreferences.in(dir).read()).toEqual({ notifications: true });
    writeFileSync(join(dir, 'desktop-settings.json'), '{"notifications":"no"}');
    expect(await DesktopPreferences.in(dir).read()).toEqual({ notifications: true });
  });
});
