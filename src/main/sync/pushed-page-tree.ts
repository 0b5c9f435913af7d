import { posix } from 'node:path';
import type { FileIndexEntry } from '../cache/file-index';
import type { LocalEdit } from '../cache/local-edits';
import type { CachedPage } from '../local/classify-local-changes';
import type { RemotePage } from '../sync-ports';
import { isQueuedPageId } from './queued-page-ids';

/**
 * The synced revision's tree plus the pages pushes created since (their `local_edits` rows know
 * their ids; the tree learns of them only when a pull brings a revision with them). Each goes
 * where its file puts it (under the page owning its folder, last), so that editing, moving or
 * deleting it before the next pull updates or deletes that page instead of being refused (or
 * inserting it again). `newPagesOnly`: over a tree that already holds what was sent (the working
 * change request's), only the queued new pages it lacks are added.
 */
export function withPushedPages(
  pages: readonly CachedPage[],
  view: readonly FileIndexEntry[],
  edits: readonly LocalEdit[],
  options: { newPagesOnly?: boolean } = {},
): readonly CachedPage[] {
  const known = new Set<string>();
  const visit = (list: readonly CachedPage[]) => {
    for (const page of list) {
      known.add(page.id);
      visit(page.pages);
    }
  };
  visit(pages);
  const pushed = edits
    .filter(
      (edit) =>
        edit.kind === 'page' &&
        edit.pageId !== null &&
        edit.contentHash !== null &&
        !known.has(edit.pageId) &&
        (!options.newPagesOnly || isQueuedPageId(edit.pageId)),
    )
    // Parents first: a new page inside a folder made for another new page goes under it.
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length);
  // Pages a push moved (a row at the new path, a deletion row at the old one, same page) sit in
  // the working change request under the page owning their new folder: deleting their old
  // parent must not take them along, and positions are counted among their new siblings.
  const movedFrom = new Set(
    edits.filter((edit) => edit.contentHash === null && edit.pageId !== null).map((e) => e.pageId),
  );
  const moved = (options.newPagesOnly ? [] : edits)
    .filter(
      (edit) =>
        edit.kind === 'page' &&
        edit.pageId !== null &&
        edit.contentHash !== null &&
        known.has(edit.pageId) &&
        movedFrom.has(edit.pageId),
    )
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length);
  // Pages a push deleted (a deletion row and no other row of the page) are gone from it; pages
  // still below them there had been moved out first, so they are lifted to the deleted one's place.
  const rowOf = new Set(
    edits.filter((edit) => edit.contentHash !== null && edit.pageId !== null).map((e) => e.pageId),
  );
  const deleted = options.newPagesOnly
    ? []
    : [...movedFrom].filter((id): id is string => id !== null && known.has(id) && !rowOf.has(id));
  if (pushed.length === 0 && moved.length === 0 && deleted.length === 0) return pages;

  type Mutable = Omit<CachedPage, 'pages'> & { pages: Mutable[] };
  const byId = new Map<string, Mutable>();
  const siblingsOf = new Map<string, Mutable[]>();
  const copy = (list: readonly CachedPage[]): Mutable[] => {
    const copied = list.map((page) => {
      const node: Mutable = { ...page, pages: copy(page.pages) };
      byId.set(page.id, node);
      return node;
    });
    for (const node of copied) siblingsOf.set(node.id, copied);
    return copied;
  };
  const roots = copy(pages);
  const pageAt = new Map<string, string>();
  for (const entry of view) {
    if (entry.kind === 'page' && entry.pageId !== null) pageAt.set(entry.path, entry.pageId);
  }
  const groupFolders = groupFoldersOf(pages, view);
  const ownerOf = (folder: string): Mutable | undefined => {
    for (let dir = folder; dir !== '.' && dir !== ''; dir = posix.dirname(dir)) {
      const id =
        pageAt.get(`${dir}/${README_FILE}`) ?? pageAt.get(`${dir}.md`) ?? groupFolders.get(dir);
      const node = id === undefined ? undefined : byId.get(id);
      if (node !== undefined) return node;
    }
    return undefined;
  };
  for (const id of deleted) {
    const node = byId.get(id)!;
    const siblings = siblingsOf.get(id)!;
    siblings.splice(siblings.indexOf(node), 1, ...node.pages);
    for (const child of node.pages) siblingsOf.set(child.id, siblings);
    byId.delete(id);
  }
  for (const edit of pushed) {
    const base = posix.basename(edit.path);
    if (edit.path === README_FILE) continue;
    const folder = posix.dirname(edit.path);
    const name = base === README_FILE ? posix.basename(folder) : base.replace(/\.md$/i, '');
    const node: Mutable = { id: edit.pageId!, type: 'document', title: name, pages: [] };
    byId.set(node.id, node);
    const parent = ownerOf(base === README_FILE ? posix.dirname(folder) : folder);
    (parent?.pages ?? roots).push(node);
  }
  // After the new pages: a page may have been moved into one.
  const parentFolderOf = (path: string) => {
    const folder = posix.dirname(path);
    return posix.basename(path) === README_FILE ? posix.dirname(folder) : folder;
  };
  for (const edit of moved) {
    const node = byId.get(edit.pageId!)!;
    const parent = edit.path === README_FILE ? undefined : ownerOf(parentFolderOf(edit.path));
    const target = parent?.pages ?? roots;
    const current = siblingsOf.get(node.id)!;
    const inside = (page: Mutable, id: string): boolean =>
      page.pages.some((child) => child.id === id || inside(child, id));
    if (current === target || parent === node || (parent && inside(node, parent.id))) continue;
    current.splice(current.indexOf(node), 1);
    target.push(node);
    siblingsOf.set(node.id, target);
  }
  return roots;
}

const README_FILE = 'README.md';

/**
 * Folder → the group whose children the pull put there. A group has no file of its own, so
 * without this a page pushed into a group's folder would be counted at the top level, and every
 * position computed among the top-level pages after it would be one too many.
 */
function groupFoldersOf(
  pages: readonly CachedPage[],
  view: readonly FileIndexEntry[],
): Map<string, string> {
  const pathOf = new Map<string, string>();
  for (const entry of view) {
    if (entry.kind === 'page' && entry.pageId !== null) pathOf.set(entry.pageId, entry.path);
  }
  const folders = new Map<string, string>();
  const visit = (list: readonly CachedPage[]) => {
    for (const page of list) {
      if (page.type === 'group') {
        for (const child of page.pages) {
          const path = pathOf.get(child.id);
          if (path === undefined) continue;
          const folder =
            posix.basename(path) === README_FILE
              ? posix.dirname(posix.dirname(path))
              : posix.dirname(path);
          if (folder !== '.' && !folders.has(folder)) folders.set(folder, page.id);
        }
      }
      visit(page.pages);
    }
  };
  visit(pages);
  return folders;
}

/**
 * The change request's tree with the cached pages' details (synced Markdown, fields) where it
 * has the same page. Pages it lacks (merged on main after it was made, or gone from it) are left
 * out: a change naming them would be refused there.
 */
export function alignedToChangeRequest(
  pages: readonly CachedPage[],
  changeRequest: readonly RemotePage[],
): CachedPage[] {
  const cached = new Map<string, CachedPage>();
  const visit = (list: readonly CachedPage[]) => {
    for (const page of list) {
      cached.set(page.id, page);
      visit(page.pages);
    }
  };
  visit(pages);
  const align = (list: readonly RemotePage[]): CachedPage[] =>
    list.map((remote) => {
      const known = cached.get(remote.id);
      if (known !== undefined) return { ...known, pages: align(remote.pages) };
      const { id, type, title, slug, emoji, icon, description, hidden, noIndex, noRobotsIndex } =
        remote;
      const fields = { slug, emoji, icon, description, hidden, noIndex, noRobotsIndex };
      const defined = Object.fromEntries(
        Object.entries(fields).filter(([, value]) => value !== undefined),
      );
      return { ...defined, id, type, title, pages: align(remote.pages) };
    });
  return align(changeRequest);
}
