import path from 'node:path';
import { CommandFailedError } from '../../shared/contract/command-error';
import type { OpenPathTarget } from '../../shared/contract/host';
import { UnknownSpaceError, type EngineSession } from './app-services';

/**
 * The absolute path `openPath` opens: a space's folder, a path under the mirror folder, or an
 * open conflict's file; refused (`invalid-argument`) when it resolves outside the mirror folder,
 * whatever the arguments' parser let through.
 */
export async function resolveOpenPathTarget(
  mirror: string,
  engine: EngineSession,
  target: OpenPathTarget,
): Promise<string> {
  let resolved: string;
  if ('spaceId' in target) {
    const space = (await engine.status()).find((candidate) => candidate.id === target.spaceId);
    if (space === undefined) throw new UnknownSpaceError(target.spaceId);
    resolved = path.resolve(mirror, space.folder);
  } else if ('conflictId' in target) {
    resolved = path.resolve((await engine.conflictVersions(target.conflictId)).conflict.file);
  } else {
    resolved = path.resolve(mirror, target.path);
  }
  if (!isInside(path.resolve(mirror), resolved)) {
    throw new CommandFailedError({
      kind: 'invalid-argument',
      field: 'path' in target ? 'path' : 'spaceId' in target ? 'spaceId' : 'conflictId',
      message: 'only files and folders inside the mirror folder can be opened',
    });
  }
  return resolved;
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}
