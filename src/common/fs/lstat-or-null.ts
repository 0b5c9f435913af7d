import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';

/**
 * The entry at `target` without following a link, or null when there is none: missing, or a
 * component of its path is a file (ENOTDIR), which equally means nothing is there.
 */
export async function lstatOrNull(target: string): Promise<Stats | null> {
  try {
    return await lstat(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}
