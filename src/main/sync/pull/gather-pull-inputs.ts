import { readFile, readdir } from 'node:fs/promises';
import { contentHash } from '../../cache/content-hash';
import type { FileIndexEntry } from '../../cache/file-index';
import type { LocalEdit } from '../../cache/local-edits';
import { createIgnoreRules } from '../../local/ignore-rules';
import { resolveInside } from '../../mirror/resolve-inside';
import { localFileState, type LocalState } from '../local-file-state';
import type { LayoutEntry } from '../space-layout';

/**
 * The state of a file in the space folder as the pull sees it: a file with a local edit row
 * (queued or pushed, not in a pulled revision yet) is a local edit, kept, never replaced.
 */
export function pullFileState(
  spaceRoot: string,
  indexByPath: ReadonlyMap<string, FileIndexEntry>,
  pending: ReadonlyMap<string, ReadonlySet<string>>,
  localEdits: readonly LocalEdit[],
): (relativePath: string) => Promise<LocalState> {
  const held = new Set(localEdits.map((edit) => edit.path));
  return async (relativePath) => {
    const local = await localFileState(
      spaceRoot,
      relativePath,
      indexByPath.get(relativePath),
      pending.get(relativePath),
    );
    return local.kind === 'ours' && held.has(relativePath)
      ? { kind: 'foreign', hash: local.hash, stats: local.stats }
      : local;
  };
}

/**
 * The local states planPull looks at, each read once: every path of the layout, the file index
 * and the journal, and the files of pages edited locally (a page moved locally is merged there).
 */
export async function gatherLocalStates(
  state: (relativePath: string) => Promise<LocalState>,
  paths: {
    layout: readonly LayoutEntry[];
    indexEntries: readonly FileIndexEntry[];
    pending: ReadonlyMap<string, unknown>;
    localEdits: readonly LocalEdit[];
  },
): Promise<Map<string, LocalState>> {
  const all = new Set([
    ...paths.layout.map((entry) => entry.path),
    ...paths.indexEntries.map((entry) => entry.path),
    ...paths.pending.keys(),
    ...paths.localEdits
      .filter((edit) => edit.pageId !== null && edit.contentHash !== null)
      .map((edit) => edit.path),
  ]);
  const states = new Map<string, LocalState>();
  for (const relativePath of all) states.set(relativePath, await state(relativePath));
  return states;
}

/**
 * Markdown files of a space folder outside every layout path (hidden and ignored ones left
 * out), by content hash: what a home that never synced the folder cannot place by path.
 */
export async function unindexedPageFiles(
  spaceRoot: string,
  layoutPaths: ReadonlySet<string>,
): Promise<Map<string, string[]>> {
  const byHash = new Map<string, string[]>();
  // Editor temp files are never a page's file (the user's own patterns only narrow this).
  const ignored = createIgnoreRules();
  const visit = async (relativeDir: string): Promise<void> => {
    const absolute = relativeDir === '' ? spaceRoot : resolveInside(spaceRoot, relativeDir);
    for (const item of await readdir(absolute, { withFileTypes: true })) {
      const relative = relativeDir === '' ? item.name : `${relativeDir}/${item.name}`;
      if (item.name.startsWith('.') || ignored(relative, item.isDirectory())) continue;
      if (item.isDirectory()) await visit(relative);
      else if (item.isFile() && item.name.endsWith('.md') && !layoutPaths.has(relative)) {
        const hash = contentHash(await readFile(resolveInside(spaceRoot, relative)));
        byHash.set(hash, [...(byHash.get(hash) ?? []), relative]);
      }
    }
  };
  await visit('');
  return byHash;
}
