import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWithSystem, systemOpener } from './open-with-system';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('openWithSystem', () => {
  it('runs the platform opener with the path as its one argument', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-open-'));
    const calls: [string, readonly string[]][] = [];
    const run = async (command: string, args: readonly string[]) =>
      void calls.push([command, args]);
    await openWithSystem(dir, 'linux', run);
    await openWithSystem(dir, 'darwin', run);
    await openWithSystem(dir, 'win32', run);
    expect(calls).toEqual([
      ['xdg-open', [dir]],
      ['open', [dir]],
      ['explorer.exe', [dir]],
    ]);
    expect(systemOpener('freebsd')).toBe('xdg-open');
  });

  it('refuses a relative path, an option-like or multi-line one, and a missing one', async () => {
    const run = async () => {
      throw new Error('must not run');
    };
    await expect(openWithSystem('--help', 'linux', run)).rejects.toThrow(/not an absolute path/);
    await expect(openWithSystem('/tmp/a\nb', 'linux', run)).rejects.toThrow(/absolute/);
    await expect(openWithSystem(join(tmpdir(), 'quire-no-such-x'), 'linux', run)).rejects.toThrow(
      /does not exist/,
    );
  });
});
