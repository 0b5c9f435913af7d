import type { PageFields } from '../../../shared/gitsync/page-fields';
import type { IndexedFile } from '../scan-space-folder';

/**
 * A page of the cached tree (the synced revision). RemotePage, as ContentCache.loadRevision
 * returns it, is one.
 */
export interface CachedPage extends PageFields {
  id: string;
  type: 'document' | 'group' | 'link' | 'computed';
  title: string;
  slug?: string;
  /** Document pages: the synced Markdown (compared when deciding whether a file moved). */
  markdown?: string;
  pages: readonly CachedPage[];
}

export interface CachedNode {
  page: CachedPage;
  parent: string | null;
}

/** The cached tree and the index, as every phase looks them up. */
export interface CachedTree {
  /** The cached tree's roots. */
  pages: readonly CachedPage[];
  nodes: ReadonlyMap<string, CachedNode>;
  /** Every page id, depth first in tree order. */
  treeOrder: readonly string[];
  /** The page file the index gives each cached page that has one. */
  pathOfPage: ReadonlyMap<string, string>;
}

export function readCachedTree(
  pages: readonly CachedPage[],
  index: readonly IndexedFile[],
): CachedTree {
  const nodes = new Map<string, CachedNode>();
  const treeOrder: string[] = [];
  const walk = (list: readonly CachedPage[], parent: string | null) => {
    for (const page of list) {
      nodes.set(page.id, { page, parent });
      treeOrder.push(page.id);
      walk(page.pages, page.id);
    }
  };
  walk(pages, null);
  const pathOfPage = new Map<string, string>();
  for (const entry of index) {
    if (entry.kind === 'page' && entry.pageId !== null && nodes.has(entry.pageId)) {
      pathOfPage.set(entry.pageId, entry.path);
    }
  }
  return { pages, nodes, treeOrder, pathOfPage };
}

/** A cached page's children (the top level for null). */
export function cachedChildren(tree: CachedTree, parent: string | null): readonly CachedPage[] {
  return parent === null ? tree.pages : (tree.nodes.get(parent)?.page.pages ?? []);
}
