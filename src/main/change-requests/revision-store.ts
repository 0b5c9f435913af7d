import { storePageRows } from '../cache/cached-page-rows';
import type { CacheDb } from '../cache/open-cache-database';
import type { RemotePage } from '../sync-ports';

/** A page of a cached change-request revision, its body resolved (documents only). */
export interface RevisionPageRow {
  id: string;
  parentId: string | null;
  position: number;
  type: RemotePage['type'];
  title: string;
  /** Every other published field of the page, as the API sent it. */
  meta: Record<string, unknown>;
  bodyHash: string | null;
  markdown: string | null;
}

/**
 * The revisions change requests are compared at (`change_request_revisions`/`_pages`). Bodies
 * go into the shared `bodies` table by hash: a page whose text the synced space already holds
 * adds no body, and a revision is fetched once however many change requests use it.
 */
export class ChangeRequestRevisionStore {
  constructor(private readonly db: CacheDb) {}

  has(spaceId: string, revisionId: string): boolean {
    return (
      this.db
        .prepare('SELECT 1 FROM change_request_revisions WHERE space_id = ? AND id = ?')
        .get(spaceId, revisionId) !== undefined
    );
  }

  /** Stores a revision's page tree (document pages carry their Markdown). */
  store(spaceId: string, revisionId: string, pages: readonly RemotePage[], at: string): void {
    const db = this.db;
    db.transaction(() => {
      db.prepare('DELETE FROM change_request_revisions WHERE space_id = ? AND id = ?').run(
        spaceId,
        revisionId,
      );
      db.prepare(
        'INSERT INTO change_request_revisions (space_id, id, fetched_at) VALUES (?, ?, ?)',
      ).run(spaceId, revisionId, at);
      const insertPage = db.prepare(
        `INSERT OR IGNORE INTO change_request_pages
           (space_id, revision_id, id, parent_id, position, type, title, meta, body_hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      storePageRows(db, pages, ({ page, parentId, position, meta, bodyHash }) =>
        insertPage.run(
          spaceId,
          revisionId,
          page.id,
          parentId,
          position,
          page.type,
          page.title,
          meta,
          bodyHash,
        ),
      );
    })();
  }

  /**
   * A cached revision's pages in tree order (parents before children), or undefined. Without
   * `withBodies` their `markdown` is null (see body()): a diff needs only the changed ones.
   */
  pages(spaceId: string, revisionId: string, withBodies = true): RevisionPageRow[] | undefined {
    if (!this.has(spaceId, revisionId)) return undefined;
    const columns = 'p.id, p.parent_id, p.position, p.type, p.title, p.meta, p.body_hash';
    const rows = this.db
      .prepare(
        withBodies
          ? `SELECT ${columns}, b.markdown FROM change_request_pages p
             LEFT JOIN bodies b ON b.hash = p.body_hash
             WHERE p.space_id = ? AND p.revision_id = ? ORDER BY p.position`
          : `SELECT ${columns}, NULL AS markdown FROM change_request_pages p
             WHERE p.space_id = ? AND p.revision_id = ? ORDER BY p.position`,
      )
      .all(spaceId, revisionId) as {
      id: string;
      parent_id: string | null;
      position: number;
      type: RemotePage['type'];
      title: string;
      meta: string;
      body_hash: string | null;
      markdown: string | null;
    }[];
    return rows.map((row) => ({
      id: row.id,
      parentId: row.parent_id,
      position: row.position,
      type: row.type,
      title: row.title,
      meta: JSON.parse(row.meta) as Record<string, unknown>,
      bodyHash: row.body_hash,
      markdown: row.markdown,
    }));
  }

  /** A body by hash ('' when the cache does not hold it). */
  body(hash: string | null): string {
    if (hash === null) return '';
    const row = this.db.prepare('SELECT markdown FROM bodies WHERE hash = ?').get(hash) as
      { markdown: string } | undefined;
    return row?.markdown ?? '';
  }

  /**
   * Forgets revisions no cached change request is compared at, then bodies no page (of a space
   * or of such a revision) refers to.
   */
  collect(): void {
    this.db
      .prepare(
        `DELETE FROM change_request_revisions WHERE NOT EXISTS (
           SELECT 1 FROM change_requests c WHERE c.space_id = change_request_revisions.space_id
             AND change_request_revisions.id IN (c.revision_id, c.base_revision_id))`,
      )
      .run();
    this.db
      .prepare(
        `DELETE FROM bodies WHERE hash NOT IN (SELECT body_hash FROM pages WHERE body_hash IS NOT NULL)
           AND hash NOT IN (SELECT body_hash FROM change_request_pages WHERE body_hash IS NOT NULL)`,
      )
      .run();
  }
}
