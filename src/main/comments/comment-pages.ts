import type { CacheDb } from '../cache/open-cache-database';
import type { CommentScope } from './comment-remote';

export interface CommentPage {
  id: string;
  title: string;
  path: string;
}

interface Row {
  id: string;
  title: string;
  meta: string;
}

/**
 * The page a comment is written on, named by its id or its path (`guides/setup`, with or
 * without `.md`), looked up in the cached content: the synced space's pages, or the change
 * request's revision. Undefined when the cache does not know it.
 */
export function findCommentPage(
  db: CacheDb,
  scope: CommentScope,
  ref: string,
): CommentPage | undefined {
  const rows = (
    scope.changeRequest === null
      ? db.prepare('SELECT id, title, meta FROM pages WHERE space_id = ?').all(scope.spaceId)
      : db
          .prepare(
            `SELECT p.id, p.title, p.meta FROM change_request_pages p
               JOIN change_requests c ON c.space_id = p.space_id AND c.revision_id = p.revision_id
               WHERE c.space_id = ? AND c.number = ?`,
          )
          .all(scope.spaceId, scope.changeRequest)
  ) as Row[];
  const wanted = ref.replace(/^\/+/, '').replace(/\.md$/, '');
  const pages = rows.map((row) => ({
    id: row.id,
    title: row.title,
    path: String((JSON.parse(row.meta) as { path?: unknown }).path ?? ''),
  }));
  return pages.find((page) => page.id === ref) ?? pages.find((page) => page.path === wanted);
}
