import type { RemotePage } from '../sync-ports';
import { contentHash } from './content-hash';
import type { CacheDb } from './open-cache-database';

/** Fields stored in their own columns; the rest of a page goes into `meta` as JSON. */
const COLUMN_FIELDS = new Set(['id', 'type', 'title', 'markdown', 'pages', 'updatedAt']);

/** One page of a tree as the cache's page tables store it. */
export interface CachedPageRow {
  page: RemotePage;
  parentId: string | null;
  position: number;
  /** JSON of the fields without a column of their own. */
  meta: string;
  /** The document's body in `bodies`, null for groups and links. */
  bodyHash: string | null;
}

/**
 * Walks a page tree parents first, storing each document's Markdown in the shared `bodies`
 * table (by hash, once) and handing every page to `insert` as its row. The synced space's
 * `pages` and the change requests' `change_request_pages` are both written this way.
 */
export function storePageRows(
  db: CacheDb,
  pages: readonly RemotePage[],
  insert: (row: CachedPageRow) => void,
): void {
  const insertBody = db.prepare('INSERT OR IGNORE INTO bodies (hash, markdown) VALUES (?, ?)');
  const visit = (list: readonly RemotePage[], parentId: string | null) => {
    list.forEach((page, position) => {
      let bodyHash: string | null = null;
      if (page.type === 'document') {
        const markdown = page.markdown ?? '';
        bodyHash = contentHash(markdown);
        insertBody.run(bodyHash, markdown);
      }
      const meta = Object.fromEntries(
        Object.entries(page).filter(([key]) => !COLUMN_FIELDS.has(key)),
      );
      insert({ page, parentId, position, meta: JSON.stringify(meta), bodyHash });
      visit(page.pages, page.id);
    });
  };
  visit(pages, null);
}
