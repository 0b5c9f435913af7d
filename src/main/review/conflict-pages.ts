import type { PageDiff } from '../../shared/contract/change-requests';
import type { RemoteMergeConflict } from './review-remote';

/** A page (or file) a merge or an update could not apply, as the contract shows it. */
export interface ConflictPage {
  pageId: string | null;
  title: string;
  path: string;
}

/**
 * The pages concerned by a refused merge or update. What the server names comes first, placed by
 * the change request's own diff (its path there); a server that names nothing page by page is
 * answered from the cached revisions: the pages the change request changed that main changed too
 * since their common base.
 */
export function conflictPages(
  conflicts: readonly RemoteMergeConflict[],
  changeRequestDiff: readonly PageDiff[],
  mainDiff: readonly PageDiff[] | undefined,
): ConflictPage[] {
  const changed = new Map(changeRequestDiff.map((page) => [page.pageId, page]));
  const named: ConflictPage[] = [];
  const seen = new Set<string>();
  for (const conflict of conflicts) {
    if (conflict.page !== null) {
      if (seen.has(conflict.page.id)) continue;
      seen.add(conflict.page.id);
      const diff = changed.get(conflict.page.id);
      named.push({ pageId: conflict.page.id, title: conflict.page.title, path: diff?.path ?? '' });
    } else if (conflict.file !== null) {
      named.push({ pageId: null, title: conflict.file.name, path: conflict.file.name });
    }
  }
  if (named.length > 0 || mainDiff === undefined) return named;
  const mainChanged = new Set(mainDiff.map((page) => page.pageId));
  return changeRequestDiff
    .filter((page) => mainChanged.has(page.pageId))
    .map((page) => ({ pageId: page.pageId, title: page.title, path: page.path }));
}
