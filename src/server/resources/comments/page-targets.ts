import { indexPages, type IndexedPage, type PageIndex } from '../../content/page-index';
import type { RevisionTree } from '../../content/revision-tree';

/** `target.page` of a comment: the page as it is now, and whether it changed since the comment. */
export interface TargetPage {
  id: string;
  title?: string;
  emoji?: string;
  icon?: string;
  createdAt?: string;
  updatedAt?: string;
  path?: string;
  outdated?: boolean;
}

/**
 * Finds the pages comments point at. Trees come from the content module's cache (immutable, so
 * each one is indexed once and the index lives as long as the cached tree).
 */
export class PageTargets {
  private readonly indexes = new WeakMap<RevisionTree, PageIndex>();

  constructor(private readonly tree: (revisionId: string) => RevisionTree | undefined) {}

  private page(revisionId: string | null, pageId: string): IndexedPage | undefined {
    if (revisionId === null) return undefined;
    const tree = this.tree(revisionId);
    if (!tree) return undefined;
    let index = this.indexes.get(tree);
    if (!index) {
      index = indexPages(tree.pages);
      this.indexes.set(tree, index);
    }
    return index.pages.get(pageId);
  }

  exists(revisionId: string, pageId: string): boolean {
    return this.page(revisionId, pageId) !== undefined;
  }

  /**
   * The page in `currentRevision` (the space's live content, or the change request's), else as it
   * was where the comment was posted. `outdated`: the page's content changed since the comment was
   * posted, or the page is gone.
   */
  target(pageId: string, postedRevision: string | null, currentRevision: string): TargetPage {
    const current = this.page(currentRevision, pageId);
    const posted = postedRevision === currentRevision ? current : this.page(postedRevision, pageId);
    const shown = current ?? posted;
    if (!shown) return { id: pageId, outdated: true };
    const { page } = shown;
    const outdated = !current || (posted !== undefined && posted.page.body !== current.page.body);
    return {
      id: page.id,
      title: page.title,
      ...(page.emoji ? { emoji: page.emoji } : {}),
      ...(page.icon ? { icon: page.icon } : {}),
      createdAt: page.createdAt,
      updatedAt: page.updatedAt,
      path: shown.path,
      outdated,
    };
  }
}
