import { GITBOOK_CONFIG_PATH, readGitBookConfig } from '../../shared/gitsync/gitbook-config';
import type { CachedSpace } from '../cache/space-cache';
import { atomicRemove } from '../mirror/atomic-write';
import { README_PATH, SUMMARY_PATH } from '../../shared/gitsync/render-gitsync-layout';
import { resolveInside } from '../mirror/resolve-inside';
import { docsRootKey, spaceRootOf, summaryNameKey, type EngineContext } from './engine-context';
import { localFileState } from './local-file-state';
import { readmeNameKey } from './readme-name-key';

type Ctx = Pick<EngineContext, 'folder' | 'state' | 'index'>;

/**
 * Mirrors the docs in the sub-folder the server's `.gitbook.yaml` names as `root`, its table of
 * contents under `structure.summary` and its first page under `structure.readme`, so the space
 * folder is laid out as the repository it came from. Only while the mirror holds no page or
 * asset: moving mirrored files would look like deleting them. Returns a problem otherwise.
 */
export async function adoptGitBookLayout(
  ctx: Ctx,
  space: CachedSpace,
  remote: string | undefined | null,
): Promise<string | undefined> {
  if (remote === undefined || remote === null) return undefined;
  const config = readGitBookConfig(remote);
  if ('problem' in config) return undefined;
  const root = ctx.state.get(docsRootKey(space.id)) ?? '';
  const summary = ctx.state.get(summaryNameKey(space.id)) ?? SUMMARY_PATH;
  const readme = ctx.state.get(readmeNameKey(space.id)) ?? README_PATH;
  if (config.root === root && config.summary === summary && config.readme === readme) {
    return undefined;
  }
  const mirrored = ctx.index.entries(space.id).some((entry) => entry.kind !== 'layout');
  if (!mirrored) {
    await forgetLayoutFiles(ctx, space);
    ctx.state.set(docsRootKey(space.id), config.root);
    ctx.state.set(summaryNameKey(space.id), config.summary);
    ctx.state.set(readmeNameKey(space.id), config.readme);
    return undefined;
  }
  const names = (folder: string, ...files: string[]) =>
    files.map((file) => `"${folder || './'}${file}"`).join(' and ');
  return (
    `${GITBOOK_CONFIG_PATH} puts the docs in ${names(config.root, config.summary, config.readme)}, ` +
    `but this mirror keeps them in ${names(root, summary, readme)}. It goes on syncing as it ` +
    'is; a new mirror of the space (another folder or Quire home) is laid out as the repository'
  );
}

/**
 * The table of contents an empty space was mirrored with goes with the old layout: removed when
 * untouched (an edited one stays, as the user's), and the index forgets it.
 */
async function forgetLayoutFiles(ctx: Ctx, space: CachedSpace): Promise<void> {
  const oldRoot = spaceRootOf(ctx, space);
  for (const entry of ctx.index.entries(space.id)) {
    const local = await localFileState(oldRoot, entry.path, entry, undefined);
    if (local.kind === 'ours') {
      await atomicRemove(resolveInside(oldRoot, entry.path), { root: oldRoot });
    }
  }
  ctx.index.clearSpace(space.id);
}
