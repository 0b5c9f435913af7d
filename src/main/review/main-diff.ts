import type { PageDiff } from '../../shared/contract/change-requests';
import type { ContentCache } from '../cache/content-cache';
import type { CacheDb } from '../cache/open-cache-database';
import { pageDiffs } from '../change-requests/page-tree-diff';
import { ChangeRequestRevisionStore } from '../change-requests/revision-store';

/**
 * What main changed since a change request's base, from the cache: main's last synced revision
 * against the base's cached pages. Undefined when either is not cached or main has not moved.
 */
export function mainDiffSinceBase(
  db: CacheDb,
  content: ContentCache,
  spaceId: string,
  baseRevisionId: string,
): PageDiff[] | undefined {
  const revisions = new ChangeRequestRevisionStore(db);
  const mainId = content.revisionId(spaceId);
  if (mainId === undefined || mainId === baseRevisionId) return undefined;
  const base = revisions.pages(spaceId, baseRevisionId, false);
  if (base === undefined) return undefined;
  if (!revisions.has(spaceId, mainId)) {
    const main = content.loadRevision(spaceId);
    if (main === undefined) return undefined;
    revisions.store(spaceId, mainId, main.pages, new Date().toISOString());
  }
  const head = revisions.pages(spaceId, mainId, false);
  if (head === undefined) return undefined;
  return [...pageDiffs(base, head, (page) => revisions.body(page.bodyHash))];
}
