import type { Db } from '../../db/open-database';
import { prepareCached } from '../../db/prepare-cached';
import type { KeysetQuery } from '../../http/paginate';

export interface ShareLinkRow {
  id: string;
  site_id: string;
  name: string;
  share_key: string;
  active: number;
  created_at: string;
}

/** Every SQL statement about a site's share links. */
export class ShareLinkQueries {
  constructor(private readonly db: Db) {}

  get(siteId: string, id: string): ShareLinkRow | undefined {
    return prepareCached<[string, string], ShareLinkRow>(
      this.db,
      'SELECT * FROM site_share_links WHERE id = ? AND site_id = ?',
    ).get(id, siteId);
  }

  /** The link a visitor's key opens, active or not (the caller decides what inactive means). */
  byKey(siteId: string, shareKey: string): ShareLinkRow | undefined {
    return prepareCached<[string, string], ShareLinkRow>(
      this.db,
      'SELECT * FROM site_share_links WHERE share_key = ? AND site_id = ?',
    ).get(shareKey, siteId);
  }

  insert(row: ShareLinkRow): void {
    prepareCached(
      this.db,
      `INSERT INTO site_share_links (id, site_id, name, share_key, active, created_at)
         VALUES (@id, @site_id, @name, @share_key, @active, @created_at)`,
    ).run(row);
  }

  update(id: string, patch: { name?: string | undefined; active?: boolean | undefined }): void {
    if (patch.name !== undefined) {
      prepareCached(this.db, 'UPDATE site_share_links SET name = ? WHERE id = ?').run(
        patch.name,
        id,
      );
    }
    if (patch.active !== undefined) {
      prepareCached(this.db, 'UPDATE site_share_links SET active = ? WHERE id = ?').run(
        patch.active ? 1 : 0,
        id,
      );
    }
  }

  delete(id: string): void {
    prepareCached(this.db, 'DELETE FROM site_share_links WHERE id = ?').run(id);
  }

  listQuery(siteId: string): KeysetQuery {
    return {
      from: 'SELECT * FROM site_share_links',
      where: ['site_id = ?'],
      params: [siteId],
      orderBy: ['created_at', 'id'],
      direction: 'ASC',
      keyOf: (row) => [row['created_at'], row['id']],
      scope: `site-share-links:${siteId}`,
    };
  }
}
