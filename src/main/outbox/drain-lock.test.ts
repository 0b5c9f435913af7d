import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DrainLock, DrainLockHeldError, drainLockPath, isProcessAlive } from './drain-lock';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-drain-lock-'));
  file = drainLockPath(dir);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Pids 1000 and up are "alive" unless listed as dead. */
function liveness(dead: number[] = []) {
  return (pid: number) => !dead.includes(pid);
}

describe('DrainLock', () => {
  it('is created exclusively with the owner, refused to a second owner, and released', async () => {
    const lock = await DrainLock.acquire(file, {
      command: 'quire sync --watch',
      pid: 1001,
      isAlive: liveness(),
    });
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(stored).toMatchObject({ pid: 1001, host: hostname(), command: 'quire sync --watch' });

    const refused = DrainLock.acquire(file, {
      command: 'Quire app',
      pid: 1002,
      isAlive: liveness(),
    });
    await expect(refused).rejects.toBeInstanceOf(DrainLockHeldError);
    await expect(refused).rejects.toThrow(/quire sync --watch, pid 1001/);
    expect(await DrainLock.holder(file, { isAlive: liveness() })).toMatchObject({ pid: 1001 });

    await lock.release();
    expect(existsSync(file)).toBe(false);
    expect(await DrainLock.holder(file)).toBeUndefined();
    const next = await DrainLock.acquire(file, { command: 'Quire app', pid: 1002 });
    await next.release();
  });

  it('takes over the lock of a process that is gone', async () => {
    await DrainLock.acquire(file, { command: 'quire sync --once', pid: 1001 });
    const lock = await DrainLock.acquire(file, {
      command: 'quire sync --watch',
      pid: 1002,
      isAlive: liveness([1001]),
    });
    expect(lock.owner.pid).toBe(1002);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: 1002 });
    expect(await DrainLock.holder(file, { isAlive: liveness([1001]) })).toMatchObject({
      pid: 1002,
    });
  });

  it('checks liveness with the real process table by default', async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(2 ** 30)).toBe(false);
    writeFileSync(
      file,
      JSON.stringify({ pid: 2 ** 30, host: hostname(), startedAt: 'x', command: 'quire' }),
    );
    const lock = await DrainLock.acquire(file, { command: 'quire sync --once' });
    expect(lock.owner.pid).toBe(process.pid);
    await expect(DrainLock.acquire(file, { command: 'again' })).rejects.toThrow(
      /another Quire process/,
    );
    await lock.release();
  });

  it('an unreadable lock file is held while young (being written), stale when old', async () => {
    writeFileSync(file, '');
    await expect(DrainLock.acquire(file, { command: 'quire', pid: 1002 })).rejects.toThrow(
      /another Quire process is syncing this home right now$/,
    );
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const lock = await DrainLock.acquire(file, { command: 'quire', pid: 1002 });
    expect(lock.owner.pid).toBe(1002);
  });

  it("another host's lock cannot be checked from here: it is held", async () => {
    writeFileSync(
      file,
      JSON.stringify({ pid: 2 ** 30, host: 'elsewhere', startedAt: 'x', command: 'Quire app' }),
    );
    await expect(DrainLock.acquire(file, { command: 'quire', pid: 1002 })).rejects.toThrow(
      /pid 1073741824 on elsewhere/,
    );
  });

  it('release leaves a lock that someone else took over alone', async () => {
    const mine = await DrainLock.acquire(file, { command: 'quire', pid: 1001 });
    const theirs = await DrainLock.acquire(file, {
      command: 'Quire app',
      pid: 1002,
      isAlive: liveness([1001]),
    });
    await mine.release();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: 1002 });
    await theirs.release();
    expect(existsSync(file)).toBe(false);
  });
});
