import type { StoredPage } from './revision-tree';

/** Where one page sits in a tree: its parent (null at the root), sibling index and path. */
export interface IndexedPage {
  page: StoredPage;
  parent: string | null;
  index: number;
  /** Slash-joined slugs, as walkPages computes them (groups add no segment for their children). */
  path: string;
}

/** A page tree flattened by page id, so merges and diffs look pages up in O(1). */
export interface PageIndex {
  pages: Map<string, IndexedPage>;
  /** Child ids in order, per parent id; the root's children are under `null`. */
  children: Map<string | null, string[]>;
  /** Every page id, depth-first in tree order. */
  order: string[];
}

/**
 * Indexes a page tree by id. Ids are expected to be unique within a tree; if one repeats, the
 * first occurrence wins so a malformed tree cannot make a page appear twice in a merge.
 */
export function indexPages(roots: readonly StoredPage[]): PageIndex {
  const index: PageIndex = { pages: new Map(), children: new Map(), order: [] };
  const visit = (siblings: readonly StoredPage[], parent: string | null, parentPath: string) => {
    const ids: string[] = [];
    for (const page of siblings) {
      if (index.pages.has(page.id)) continue;
      const path = parentPath ? `${parentPath}/${page.slug}` : page.slug;
      index.pages.set(page.id, { page, parent, index: ids.length, path });
      index.order.push(page.id);
      ids.push(page.id);
      visit(page.pages ?? [], page.id, page.type === 'group' ? parentPath : path);
    }
    if (ids.length > 0) index.children.set(parent, ids);
  };
  visit(roots, null, '');
  return index;
}
