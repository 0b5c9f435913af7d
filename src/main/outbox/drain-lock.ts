/**
 * One process at a time drains a cache's outbox: the desktop app and `quire sync` share the Quire
 * home, and two drainers would send the same batches from two places (each with its own view of
 * what is in flight). The lock is a file created with O_EXCL holding the owner's pid, host, start
 * time and command; it is stale (and taken over) when that pid is no longer alive on this host,
 * so a crashed or killed owner never blocks the next run.
 */
import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface DrainLockOwner {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  startedAt: string;
  /** What holds it, for the message of whoever is refused: `quire sync --watch`, `Quire app`. */
  command: string;
}

export interface DrainLockOptions {
  command: string;
  /** Defaults: this process. Tests pass other pids. */
  pid?: number;
  host?: string;
  now?: () => Date;
  /** Whether a pid is alive on this host (default: process.kill(pid, 0)). */
  isAlive?: (pid: number) => boolean;
  /** An unreadable lock file younger than this is someone still writing it. Default 10 s. */
  unreadableGraceMs?: number;
}

export class DrainLockHeldError extends Error {
  override readonly name = 'DrainLockHeldError';

  constructor(readonly owner: DrainLockOwner | undefined) {
    super(
      owner === undefined
        ? 'another Quire process is syncing this home right now'
        : `another Quire process is syncing this home right now (${owner.command}, pid ${owner.pid}` +
            `${owner.host !== hostname() ? ` on ${owner.host}` : ''}, since ${owner.startedAt}); ` +
            'stop it first, or let it do the syncing',
    );
  }
}

export class DrainLock {
  private released = false;

  private constructor(
    readonly file: string,
    readonly owner: DrainLockOwner,
  ) {}

  /** Takes the lock, taking over a stale one; throws DrainLockHeldError when it is held. */
  static async acquire(file: string, options: DrainLockOptions): Promise<DrainLock> {
    const owner: DrainLockOwner = {
      pid: options.pid ?? process.pid,
      host: options.host ?? hostname(),
      startedAt: (options.now?.() ?? new Date()).toISOString(),
      command: options.command,
    };
    // Two rounds: a stale lock removed in the first lets the second create it.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await createExclusive(file, `${JSON.stringify(owner)}\n`)) {
        return new DrainLock(file, owner);
      }
      const current = await readLock(file, options);
      if (current.kind === 'gone') continue;
      if (current.kind === 'held') throw new DrainLockHeldError(current.owner);
      await breakStale(file, current.text);
    }
    throw new DrainLockHeldError(undefined);
  }

  /** The live owner of the lock, if any (for `quire status`). Never takes or breaks it. */
  static async holder(
    file: string,
    options: Pick<DrainLockOptions, 'isAlive' | 'unreadableGraceMs' | 'now'> = {},
  ): Promise<DrainLockOwner | undefined> {
    const current = await readLock(file, options);
    return current.kind === 'held' ? current.owner : undefined;
  }

  /** Removes the lock file if it is still ours. Idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return;
    }
    const owner = parseOwner(text);
    if (owner?.pid === this.owner.pid && owner.startedAt === this.owner.startedAt) {
      await unlink(this.file).catch(() => {});
    }
  }
}

type LockState =
  | { kind: 'gone' }
  | { kind: 'held'; owner: DrainLockOwner | undefined }
  | { kind: 'stale'; text: string };

async function readLock(
  file: string,
  options: Pick<DrainLockOptions, 'isAlive' | 'unreadableGraceMs' | 'now'>,
): Promise<LockState> {
  let text: string;
  let modified: number;
  try {
    [text, modified] = await Promise.all([
      readFile(file, 'utf8'),
      stat(file).then((stats) => stats.mtimeMs),
    ]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' };
    throw error;
  }
  const owner = parseOwner(text);
  if (owner === undefined) {
    // Created but not written yet, or a crash in between: give a writer time to finish.
    const age = (options.now?.() ?? new Date()).getTime() - modified;
    return age > (options.unreadableGraceMs ?? 10_000)
      ? { kind: 'stale', text }
      : { kind: 'held', owner: undefined };
  }
  // Another host's pid cannot be checked from here: held until that host releases it.
  if (owner.host !== hostname()) return { kind: 'held', owner };
  const alive = (options.isAlive ?? isProcessAlive)(owner.pid);
  return alive ? { kind: 'held', owner } : { kind: 'stale', text };
}

/**
 * Removes a stale lock without racing another process that removes it too and takes it at once:
 * the file is renamed aside, and if what was renamed is not the stale lock seen (someone took it
 * in between), it is linked back (which fails harmlessly if yet another lock exists by then).
 */
async function breakStale(file: string, staleText: string): Promise<void> {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const moved = await readFile(aside, 'utf8');
    if (moved !== staleText) await link(aside, file).catch(() => {});
  } finally {
    await unlink(aside).catch(() => {});
  }
}

async function createExclusive(file: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

function parseOwner(text: string): DrainLockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<DrainLockOwner>;
    if (
      typeof value.pid === 'number' &&
      Number.isInteger(value.pid) &&
      value.pid > 0 &&
      typeof value.host === 'string' &&
      typeof value.startedAt === 'string' &&
      typeof value.command === 'string'
    ) {
      return value as DrainLockOwner;
    }
  } catch {
    // Not JSON (yet): see readLock.
  }
  return undefined;
}

/** Signal 0 checks existence; EPERM means it exists but belongs to someone else. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Where the app and the CLI keep the lock: beside the cache it protects. */
export function drainLockPath(quireHomeRoot: string): string {
  return join(quireHomeRoot, 'sync.lock');
}
