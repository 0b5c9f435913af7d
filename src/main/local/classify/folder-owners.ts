import { posix } from 'node:path';
import { README_PATH } from '../../../shared/gitsync/render-gitsync-layout';
import type { LocalProblem } from '../local-problem';
import type { ClassifyContext } from './classify-context';
import type { DetectedMoves } from './detect-moves';
import { dirOf } from './dir-of';
import { newKey, type Key } from './page-key';
import type { PlannedDeletions } from './plan-deletions';

/** Which page owns which folder, locally: where a page file's path puts its page. */
export interface FolderOwners {
  /** Page file → its page's key (a page id, or a new page's), for the pages this pass keeps. */
  localKey: ReadonlyMap<string, Key>;
  /** Moved page id → the folder no page owns that its new file sits in (the move is not made). */
  stranded: ReadonlyMap<string, string>;
  /** The page (or group) a page file's path makes its parent; null for the top level. */
  parentOfPath(path: string): Key | null;
  /**
   * The folder a page file sits in, when no page owns it (no README.md, no `folder.md`, not a
   * group's): the page cannot be placed there. Pushed anyway, it would land under an ancestor and
   * the pull would write it at another path, leaving two files for one page.
   */
  unownedFolderOf(path: string): string | undefined;
}

/**
 * Phase 4: the owner of each folder. A page's new parent is the page owning its new folder
 * (`folder/README.md`, else the page or group whose children the pull put there, else
 * `folder.md`).
 */
export function findFolderOwners(
  ctx: ClassifyContext & DetectedMoves & PlannedDeletions,
): FolderOwners {
  const { moved, survives } = ctx;
  const localKey = localKeys(ctx);
  const cachedFolderOwner = cachedFolderOwners(ctx);
  const ownedByCached = (folder: string) => {
    const cached = cachedFolderOwner.get(folder);
    return cached !== undefined && survives(cached) && !moved.has(cached) ? cached : undefined;
  };
  const ownerOfFolder = (start: string): Key | null => {
    for (let folder = start; folder !== ''; folder = dirOf(folder)) {
      const readme = localKey.get(`${folder}/${README_PATH}`);
      if (readme !== undefined) return readme;
      const cached = ownedByCached(folder);
      if (cached !== undefined) return cached;
      // `x/child.md` next to `x.md`: x gained a child (the pull will move x.md to x/README.md).
      const sibling = localKey.get(`${folder}.md`);
      if (sibling !== undefined) return sibling;
    }
    return null;
  };
  const parentOfPath = (path: string): Key | null => {
    if (path === README_PATH) return null;
    const folder = dirOf(path);
    return ownerOfFolder(posix.basename(path) === README_PATH ? dirOf(folder) : folder);
  };
  const unownedFolderOf = (path: string): string | undefined => {
    if (path === README_PATH) return undefined;
    const folder = posix.basename(path) === README_PATH ? dirOf(dirOf(path)) : dirOf(path);
    if (folder === '' || localKey.has(`${folder}/${README_PATH}`)) return undefined;
    if (localKey.has(`${folder}.md`)) return undefined;
    return ownedByCached(folder) === undefined ? folder : undefined;
  };
  // Moves into a folder no page owns are not made, so their files own no folder either.
  const stranded = new Map<string, string>();
  for (const [pageId, { to }] of moved) {
    const folder = unownedFolderOf(to.file.path);
    if (folder !== undefined) stranded.set(pageId, folder);
  }
  for (const id of stranded.keys()) localKey.delete(moved.get(id)!.to.file.path);
  return { localKey, stranded, parentOfPath, unownedFolderOf };
}

/** The problem for a page file left unpushed because no page owns its folder. */
export function unownedFolderProblem(path: string, folder: string, pageId?: string): LocalProblem {
  return {
    path,
    reason: 'unsupported',
    ...(pageId !== undefined ? { pageId } : {}),
    message: `no page owns the folder ${folder}/ (add ${folder}/README.md, or move the file into a page's folder); it was not pushed`,
  };
}

/** Page file → key, for the files this pass keeps: synced, moved and new pages. */
function localKeys(ctx: ClassifyContext & DetectedMoves & PlannedDeletions): Map<string, Key> {
  const localKey = new Map<string, Key>();
  for (const [pageId, path] of ctx.tree.pathOfPage) {
    if (!ctx.deleted.has(pageId) && !ctx.moved.has(pageId)) localKey.set(path, pageId);
  }
  for (const [pageId, { to }] of ctx.moved) localKey.set(to.file.path, pageId);
  for (const page of ctx.newPages) localKey.set(page.file.path, newKey(page.file.path));
  return localKey;
}

/** Folder → the cached page or group whose children the pull put there. */
function cachedFolderOwners({ tree }: ClassifyContext): Map<string, string> {
  const owners = new Map<string, string>();
  for (const id of tree.treeOrder) {
    for (const child of tree.nodes.get(id)!.page.pages) {
      const path = tree.pathOfPage.get(child.id);
      if (path === undefined || path === README_PATH) continue;
      const folder = posix.basename(path) === README_PATH ? dirOf(dirOf(path)) : dirOf(path);
      if (folder !== '' && !owners.has(folder)) owners.set(folder, id);
    }
  }
  return owners;
}
