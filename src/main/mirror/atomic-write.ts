import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { lstatOrNull } from '../../common/fs/lstat-or-null';
import {
  UnsafePathError,
  assertInside,
  assertNoSymlinkOnPath,
  resolveInside,
} from './resolve-inside';
import { truncateUtf8 } from '../../shared/gitsync/safe-file-name';

/**
 * Crash-safe file operations for the Markdown mirror. A write goes to a temp file in the same
 * folder, is fsynced, renamed over the target and the folder is fsynced, so after a crash every
 * file is either the old or the new version, never torn. Every operation stays inside `root` and
 * refuses to go through a symbolic link, so a hostile or accidental link cannot redirect a write.
 */

export interface MirrorFsOptions {
  /** The space folder; every path must resolve inside it. */
  readonly root: string;
}

export interface AtomicWriteOptions extends MirrorFsOptions {
  /** Permissions for a new file (before umask). An existing file keeps its own. Default 0o666. */
  readonly mode?: number;
}

const TEMP_MARKER = '.quire-tmp-';
const TEMP_NAME = /^\..*\.quire-tmp-[0-9a-f]{16}$/s;
/** Keeps `.<name>.quire-tmp-<16 hex>` under the 255-byte name limit. */
const TEMP_NAME_PREFIX_BYTES = 100;

/** Whether a directory entry is one of our temp files, which watchers and scanners should skip. */
export function isAtomicWriteTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/**
 * Replaces `filePath` (absolute, or relative to `root`) with `data` atomically. Refuses with
 * `UnsafePathError` when the path leaves `root` or any component below `root`, the target
 * included, is a symlink. The parent folder must exist (see `ensureDir`).
 */
export async function atomicWriteFile(
  filePath: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions,
): Promise<void> {
  const { root, target } = checkedTarget(filePath, options);
  await assertNoSymlinkOnPath(root, target);
  const existing = await lstatOrNull(target);
  const directory = path.dirname(target);
  const temp = path.join(directory, tempName(path.basename(target)));

  // 'wx' is O_CREAT|O_EXCL: it never follows or reuses whatever already sits at the temp path.
  const handle = await open(temp, 'wx', options.mode ?? 0o666);
  try {
    try {
      if (existing?.isFile()) await handle.chmod(existing.mode & 0o7777);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Re-check right before the rename to narrow the window for a swapped-in link.
    await assertNoSymlinkOnPath(root, target);
    await rename(temp, target);
  } catch (error) {
    await unlinkIfPresent(temp);
    throw error;
  }
  await fsyncDirectory(directory);
}

/**
 * Removes the file at `filePath` and fsyncs its folder. Returns false if it did not exist. Refuses
 * symlinks on the way and at the target: the mirror never creates links, so one is the user's.
 */
export async function atomicRemove(filePath: string, options: MirrorFsOptions): Promise<boolean> {
  const { root, target } = checkedTarget(filePath, options);
  await assertNoSymlinkOnPath(root, target);
  const stats = await lstatOrNull(target);
  if (stats === null) return false;
  if (stats.isDirectory()) {
    throw new UnsafePathError('not-a-directory', root, target, `${target} is a directory`);
  }
  if (!(await unlinkIfPresent(target))) return false;
  await fsyncDirectory(path.dirname(target));
  return true;
}

/**
 * Creates `dirPath` (absolute, or relative to `root`) one component at a time below the existing
 * `root`, refusing symlinks and files in the way, and fsyncs each parent that gained an entry so
 * the new folders survive a crash along with the files later written into them.
 */
export async function ensureDir(dirPath: string, options: MirrorFsOptions): Promise<string> {
  const root = resolveInside(options.root);
  const target = assertInside(root, dirPath);
  const relative = path.relative(root, target);
  let current = root;
  for (const part of relative === '' ? [] : relative.split(path.sep)) {
    const parent = current;
    current = path.join(current, part);
    let stats = await lstatOrNull(current);
    if (stats === null) {
      if (await mkdirIfAbsent(current)) {
        await fsyncDirectory(parent);
        continue;
      }
      // Someone else created it meanwhile; inspect what is there now.
      stats = await lstat(current);
    }
    if (stats.isSymbolicLink()) {
      throw new UnsafePathError('symlink', root, target, `${current} is a symbolic link`);
    }
    if (!stats.isDirectory()) {
      throw new UnsafePathError('not-a-directory', root, target, `${current} is not a directory`);
    }
  }
  return target;
}

/**
 * Deletes temp files a crash left in one folder (not recursive) and returns their names. Only
 * regular files whose names match our pattern are touched.
 */
export async function removeStaleTempFiles(
  dirPath: string,
  options: MirrorFsOptions,
): Promise<string[]> {
  const root = resolveInside(options.root);
  const directory = assertInside(root, dirPath);
  await assertNoSymlinkOnPath(root, directory);
  const removed: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    if (!entry.isFile() || !isAtomicWriteTempName(entry.name)) continue;
    if (await unlinkIfPresent(path.join(directory, entry.name))) removed.push(entry.name);
  }
  if (removed.length > 0) await fsyncDirectory(directory);
  return removed;
}

/**
 * Makes a rename or unlink in `directory` durable. Windows cannot open a directory (EISDIR) or
 * fsync one (EPERM), and some file systems reject fsync on directories (EINVAL); there the rename
 * is as durable as the platform allows, so those errors alone are ignored.
 */
export async function fsyncDirectory(directory: string): Promise<void> {
  const ignorable = new Set(['EISDIR', 'EPERM', 'EINVAL']);
  let handle;
  try {
    handle = await open(directory, 'r');
  } catch (error) {
    if (ignorable.has((error as NodeJS.ErrnoException).code ?? '')) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!ignorable.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle.close();
  }
}

export function checkedTarget(
  filePath: string,
  options: MirrorFsOptions,
): { root: string; target: string } {
  const root = resolveInside(options.root);
  const target = assertInside(root, filePath);
  if (target === root) {
    throw new UnsafePathError('is-root', root, target, 'Refusing to replace the mirror root');
  }
  return { root, target };
}

export function tempName(baseName: string): string {
  const prefix = truncateUtf8(baseName, TEMP_NAME_PREFIX_BYTES);
  return `.${prefix}${TEMP_MARKER}${randomBytes(8).toString('hex')}`;
}

async function mkdirIfAbsent(directory: string): Promise<boolean> {
  try {
    await mkdir(directory);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

export async function unlinkIfPresent(target: string): Promise<boolean> {
  try {
    await unlink(target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
