import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { CachedSpace } from '../cache/space-cache';
import { NameAllocator } from '../../shared/gitsync/name-allocator';
import { resolveInside } from '../mirror/resolve-inside';
import type { EngineContext } from '../sync/engine-context';

/** `<organization>/<space> (change requests)`: where a space's checkouts go, relative. */
export function checkoutsParentOf(space: CachedSpace): string {
  const parent = path.posix.dirname(space.folderPath);
  const name = `${path.posix.basename(space.folderPath)} (change requests)`;
  return parent === '.' ? name : `${parent}/${name}`;
}

/**
 * A new checkout's folder, relative to the mirror root: `<number> <subject>` made a safe name
 * (the subject is the server's, untrusted) that no entry of the parent folder, on disk or
 * recorded, already has (a suffix is added then).
 */
export async function allocateCheckoutFolder(
  ctx: Pick<EngineContext, 'folder' | 'db'>,
  space: CachedSpace,
  checkout: { number: number; subject: string },
): Promise<string> {
  const parent = checkoutsParentOf(space);
  const taken = new Set<string>();
  try {
    for (const name of await readdir(resolveInside(ctx.folder, ...parent.split('/')))) {
      taken.add(name);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const recorded = ctx.db
    .prepare('SELECT folder_path AS folder FROM spaces WHERE folder_path LIKE ? ESCAPE ?')
    .all(`${escapeLike(parent)}/%`, '\\') as { folder: string }[];
  for (const { folder } of recorded) taken.add(folder.slice(parent.length + 1).split('/')[0]!);
  const allocator = new NameAllocator({ reserved: taken });
  return `${parent}/${allocator.allocate({ stem: `${checkout.number} ${checkout.subject}` })}`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
