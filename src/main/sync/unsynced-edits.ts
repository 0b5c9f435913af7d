import type { FileIndex } from '../cache/file-index';
import type { IgnoreRule } from '../local/ignore-rules';
import type { LocalEdits } from '../cache/local-edits';
import { scanForPush } from './scan-for-push';

/** A file changed in a space folder that no push pass has recorded yet. */
export interface UnsyncedEdit {
  spaceId: string;
  /** Relative to the space folder. */
  path: string;
  /** `moved`: a new file with the bytes of one that is gone (`from`). */
  change: 'edited' | 'new' | 'deleted' | 'moved';
  from?: string;
}

export interface UnsyncedEditsDeps {
  index: FileIndex;
  edits: LocalEdits;
  ignore: IgnoreRule;
  /** Files already reported as problems (recorded ones and refused changes'), by space. */
  reportedPaths(spaceId: string): readonly string[];
}

export interface ScannedSpace {
  spaceId: string;
  /** The space folder, absolute. */
  root: string;
  /** Files in open conflicts (path → local hash): never pushed, so not pending either. */
  held: ReadonlyMap<string, string | null>;
}

/**
 * What the next push would find, without queueing anything: the push pass's own scan (size and
 * mtime against the file index, a hash only when they moved), so `quire status` counts edits
 * saved since the last sync, made while nothing was watching. Files already reported as problems
 * (bad frontmatter, no page owns their folder…) are not counted: they are not going anywhere.
 */
export async function findUnsyncedEdits(
  deps: UnsyncedEditsDeps,
  spaces: readonly ScannedSpace[],
): Promise<UnsyncedEdit[]> {
  const found: UnsyncedEdit[] = [];
  for (const space of spaces) {
    const { scan } = await scanForPush(deps, space.spaceId, space.root, space.held);
    if (scan.status !== 'scanned') continue;
    const reported = new Set(deps.reportedPaths(space.spaceId));
    const gone = new Map(scan.deleted.map((file) => [file.contentHash, file.path]));
    const moved = new Set<string>();
    const edits: UnsyncedEdit[] = [];
    for (const file of scan.changed) {
      edits.push({ spaceId: space.spaceId, path: file.path, change: 'edited' });
    }
    for (const file of scan.added) {
      const from = gone.get(file.hash);
      if (from !== undefined && !moved.has(from)) {
        moved.add(from);
        edits.push({ spaceId: space.spaceId, path: file.path, change: 'moved', from });
      } else {
        edits.push({ spaceId: space.spaceId, path: file.path, change: 'new' });
      }
    }
    for (const file of scan.deleted) {
      if (!moved.has(file.path)) {
        edits.push({ spaceId: space.spaceId, path: file.path, change: 'deleted' });
      }
    }
    found.push(...edits.filter((edit) => !reported.has(edit.path)));
  }
  return found;
}
