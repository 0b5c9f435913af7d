import { readdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { lstatOrNull } from '../../common/fs/lstat-or-null';
import { fsyncDirectory, removeStaleTempFiles } from '../mirror/atomic-write';
import { assertInside, assertNoSymlinkOnPath, resolveInside } from '../mirror/resolve-inside';
import { SyncFolderMissingError } from './sync-error-of';

/** Whether `target` is strictly inside `root`. */
export function isWithin(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

export async function assertFolderExists(folder: string): Promise<void> {
  const stats = await lstatOrNull(folder);
  if (stats === null || !stats.isDirectory()) {
    // Recreating it could mirror into an unmounted disk's mount point, or "push" mass deletes.
    throw new SyncFolderMissingError(folder);
  }
}

/** rmdir only succeeds on an empty folder, so nothing but empty folders can go. */
export async function removeDirIfEmpty(root: string, directory: string): Promise<boolean> {
  assertInside(root, directory);
  await assertNoSymlinkOnPath(root, directory);
  try {
    await rmdir(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') return false;
    throw error;
  }
  await fsyncDirectory(path.dirname(directory));
  return true;
}

/** Removes the folders a removal left empty, up to (not including) the space folder. */
export async function removeEmptyParents(spaceRoot: string, relativePath: string): Promise<void> {
  let directory = path.dirname(resolveInside(spaceRoot, relativePath));
  while (directory !== spaceRoot && isWithin(spaceRoot, directory)) {
    if (!(await removeDirIfEmpty(spaceRoot, directory))) return;
    directory = path.dirname(directory);
  }
}

/** Deletes temp files a killed write left behind, in every folder of the space. */
export async function removeStaleTemps(spaceRoot: string): Promise<void> {
  const visit = async (directory: string): Promise<void> => {
    await removeStaleTempFiles(directory, { root: spaceRoot });
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      if (entry.isDirectory()) await visit(path.join(directory, entry.name));
    }
  };
  await visit(spaceRoot);
}
