import { homedir } from 'node:os';
import path from 'node:path';
import { CommandFailedError } from '../../shared/contract/command-error';

/**
 * A folder as a person types it in the app (`~/Quire`, `/home/me/Docs`) → an absolute path. A
 * relative path is refused: it would land wherever the syncing process happened to start.
 */
export function absoluteFolder(input: string, home: string = homedir()): string {
  const typed = input.trim();
  const expanded = /^~(?=$|[\\/])/.test(typed) ? path.join(home, typed.slice(1)) : typed;
  if (expanded === '' || !path.isAbsolute(expanded)) {
    throw new CommandFailedError({
      kind: 'invalid-argument',
      field: 'folder',
      message: `give the folder's full path, like ${path.join(home, 'Quire')} or ~/Quire`,
    });
  }
  return path.resolve(expanded);
}
