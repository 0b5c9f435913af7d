import type { Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { contentHash } from '../cache/content-hash';
import type { FileIndexEntry } from '../cache/file-index';
import { assertNoSymlinkOnPath, resolveInside } from '../mirror/resolve-inside';
import { lstatOrNull } from '../../common/fs/lstat-or-null';

/** What the file index records of a file's stats (unchanged ones mean unchanged bytes). */
export type FileStamp = Pick<Stats, 'size' | 'mtimeMs'>;

/** What a file in the folder is, relative to what the engine last wrote there. */
export type LocalState =
  | { kind: 'missing' }
  /** Bytes equal to what the engine wrote (or was about to write when it stopped). */
  | { kind: 'ours'; hash: string; stats: FileStamp }
  /**
   * Bytes the engine did not write: a local edit, or a file the engine never wrote. `hash` is
   * '' for a folder or a link where a file belongs.
   */
  | { kind: 'foreign'; hash: string; stats: FileStamp };

/**
 * Classifies the file at `relativePath`. Unchanged size and mtime since the engine's write mean
 * its bytes are the indexed ones without reading them; `pending` holds the hashes a killed
 * sync's journal says the engine was writing there.
 */
export async function localFileState(
  spaceRoot: string,
  relativePath: string,
  base: FileIndexEntry | undefined,
  pending: ReadonlySet<string> | undefined,
): Promise<LocalState> {
  const absolute = resolveInside(spaceRoot, relativePath);
  const stats = await lstatOrNull(absolute);
  if (stats === null) return { kind: 'missing' };
  if (!stats.isFile()) {
    // A folder or a link where a file belongs is never the engine's: leave it alone.
    return { kind: 'foreign', hash: '', stats };
  }
  if (base !== undefined && stats.size === base.size && stats.mtimeMs === base.mtimeMs) {
    return { kind: 'ours', hash: base.contentHash, stats };
  }
  await assertNoSymlinkOnPath(spaceRoot, absolute);
  const hash = contentHash(await readFile(absolute));
  if (hash === base?.contentHash || pending?.has(hash)) return { kind: 'ours', hash, stats };
  return { kind: 'foreign', hash, stats };
}
