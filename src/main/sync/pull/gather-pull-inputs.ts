import { readFile, readdir } from 'node:fs/promises';
import { contentHash } from '../../cache/content-hash';
import type { FileIndexEntry } from '../../cache/file-index';
import type { LocalEdit } from '../../cache/local-edits';
import { createIgnoreRules } from '../../local/ignore-rules';
import { resolveInside } from '../../mirror/resolve-inside';
import type { CachedSpace } from '../../cache/space-cache';
import type { RemoteRevision } from '../../sync-ports';
import type { EngineContext } from '../engine-context';
import { localFileState, type LocalState } from '../local-file-state';
import type { LayoutEntry } from '../space-layout';
import type { PullInputs } from './pull-plan';

/** What planPull takes, and what applying its plan needs of the same reads. */
export interface GatheredPull {
  inputs: PullInputs;
  /** The local edit rows and the file index (by path) the plan was made with. */
  localEdits: readonly LocalEdit[];
  indexByPath: ReadonlyMap<string, FileIndexEntry>;
  /** Reads a file's state again (see pullFileState). */
  fileState(relativePath: string): Promise<LocalState>;
}

/**
 * Reads what the pull of `revision` into `spaceRoot` is planned from: the cache's file index,
 * journal, edit rows and files, and the state of each file concerned in the folder.
 */
export async function gatherPullInputs(
  ctx: EngineContext,
  space: CachedSpace,
  spaceRoot: string,
  pulled: { layout: readonly LayoutEntry[]; revision: RemoteRevision; folderExisted: boolean },
): Promise<GatheredPull> {
  const { layout, revision, folderExisted } = pulled;
  // A space folder deleted as a whole is mirrored afresh: pushing the removal of every page
  // of a space from one folder deletion would be too destructive to infer.
  const indexEntries = folderExisted ? ctx.index.entries(space.id) : [];
  const indexByPath = new Map(indexEntries.map((entry) => [entry.path, entry]));
  const pending = ctx.index.pendingWrites(space.id);
  const localEdits = ctx.edits.list(space.id);
  const fileState = pullFileState(spaceRoot, indexByPath, pending, localEdits);
  const local = await gatherLocalStates(fileState, { layout, indexEntries, pending, localEdits });
  // A folder this home has never synced (a new home on it): its page files that are at no
  // page's path, by hash, to be matched with pages whose own path is empty.
  const unplaced = layout.some(
    (entry) =>
      entry.kind === 'page' &&
      !indexByPath.has(entry.path) &&
      local.get(entry.path)?.kind === 'missing',
  );
  const strays =
    space.syncedRevision === null && folderExisted && unplaced
      ? await unindexedPageFiles(spaceRoot, new Set(layout.map((entry) => entry.path)))
      : new Map<string, string[]>();
  return {
    inputs: {
      layout,
      remoteFiles: revision.files,
      cachedFiles: ctx.content.files(space.id),
      indexEntries,
      pending,
      localEdits,
      local,
      strays,
    },
    localEdits,
    indexByPath,
    fileState,
  };
}

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
