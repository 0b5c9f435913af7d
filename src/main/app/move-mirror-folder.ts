import { cp, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { CommandFailedError } from '../../shared/contract/command-error';
import { isInsideRoot } from '../mirror/resolve-inside';
import { absoluteFolder } from './folder-path';

/**
 * Moves the mirror folder to `target`, files and all. The cache keeps every space folder relative
 * to the mirror, so after the move nothing is downloaded or pushed again. The caller holds the
 * drain lock (no sync runs) and writes the configuration through `commit` at the right moment:
 * right after a rename; between copy and delete across disks, so a crash mid-copy leaves the old
 * folder in use and whole.
 */
export async function moveMirrorFolder(
  from: string,
  requested: string,
  homeRoot: string,
  commit: (folder: string) => Promise<void>,
): Promise<void> {
  const target = absoluteFolder(requested);
  await checkTarget(from, target, homeRoot);
  await mkdir(path.dirname(target), { recursive: true });
  // An empty folder the user picked is replaced by the mirror itself.
  if (await exists(target)) await rmdir(target);
  try {
    await rename(from, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw unusable(target, error);
    await copyAcrossDisks(from, target);
    await commit(target);
    await rm(from, { recursive: true, force: true });
    return;
  }
  await commit(target);
}

async function checkTarget(from: string, target: string, homeRoot: string): Promise<void> {
  if (path.resolve(target) === path.resolve(from)) invalid('that is the folder already in use');
  if (isInsideRoot(target, from) || isInsideRoot(from, target)) {
    invalid(`${target} and the current folder ${from} must not contain each other`);
  }
  if (isInsideRoot(target, homeRoot) || isInsideRoot(homeRoot, target)) {
    invalid(`${target} and the Quire home ${homeRoot} must not contain each other`);
  }
  if (!(await exists(from))) {
    invalid(`the current folder ${from} is missing: restore it before moving it`);
  }
  if (await exists(target)) {
    const info = await stat(target);
    if (!info.isDirectory() || (await readdir(target)).length > 0) {
      invalid(`${target} already exists and is not an empty folder`);
    }
  }
}

/** Copies with the files' times kept (the file index compares them); removes a partial copy. */
async function copyAcrossDisks(from: string, target: string): Promise<void> {
  try {
    await cp(from, target, {
      recursive: true,
      errorOnExist: true,
      force: false,
      preserveTimestamps: true,
      verbatimSymlinks: true,
    });
  } catch (error) {
    await rm(target, { recursive: true, force: true }).catch(() => undefined);
    throw unusable(target, error);
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

function invalid(message: string): never {
  throw new CommandFailedError({ kind: 'invalid-argument', field: 'folder', message });
}

function unusable(folder: string, error: unknown): CommandFailedError {
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new CommandFailedError(
    {
      kind: 'folder-unusable',
      folder,
      message: `cannot move the mirror folder to ${folder} (${reason})`,
    },
    { cause: error },
  );
}
