import type { Db } from '../../db/open-database';
import { prepareCached } from '../../db/prepare-cached';
import type { KeysetQuery } from '../../http/paginate';

export interface SiteRow {
  id: string;
  organization_id: string;
  type: string;
  title: string;
  visibility: string;
  published: number;
  basename: string | null;
  proxy: string | null;
  adaptive_enabled: number;
  adaptive_schema: string | null;
  adaptive_schema_updated_at: string | null;
  default_section_id: string | null;
  default_site_space_id: string | null;
  created_at: string;
  updated_at: string;
  /** Site spaces whose space is live (not in the trash, still in the site's organization). */
  site_space_count: number;
}

export type NewSite = Pick<
  SiteRow,
  'id' | 'organization_id' | 'type' | 'title' | 'visibility' | 'created_at'
>;

export interface SitePatch {
  title?: string | undefined;
  visibility?: string | undefined;
  basename?: string | null | undefined;
  proxy?: string | null | undefined;
  adaptiveEnabled?: boolean | undefined;
  defaultSectionId?: string | undefined;
  defaultSiteSpaceId?: string | undefined;
}

/** Joins of a site space to its live space; shared by the counts and the lists. */
export const LIVE_SPACE_JOIN = `JOIN spaces sp ON sp.id = ss.space_id
  AND sp.deleted_at IS NULL AND sp.organization_id = st.organization_id`;

const SELECT_SITE = `SELECT st.*, (SELECT count(*) FROM site_spaces ss ${LIVE_SPACE_JOIN}
    WHERE ss.site_id = st.id) AS site_space_count
  FROM sites st`;

/** Every SQL statement about the site rows themselves. */
export class SiteQueries {
  constructor(private readonly db: Db) {}

  /** The site, only when it belongs to `organizationId` (the organization boundary). */
  get(organizationId: string, id: string): SiteRow | undefined {
    return prepareCached<[string, string], SiteRow>(
      this.db,
      `${SELECT_SITE} WHERE st.id = ? AND st.organization_id = ?`,
    ).get(id, organizationId);
  }

  insert(site: NewSite): void {
    prepareCached(
      this.db,
      `INSERT INTO sites (id, organization_id, type, title, visibility, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      site.id,
      site.organization_id,
      site.type,
      site.title,
      site.visibility,
      site.created_at,
      site.created_at,
    );
  }

  update(id: string, patch: SitePatch, updatedAt: string): void {
    const sets = ['updated_at = ?'];
    const params: unknown[] = [updatedAt];
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (patch.title !== undefined) set('title', patch.title);
    if (patch.visibility !== undefined) set('visibility', patch.visibility);
    if (patch.basename !== undefined) set('basename', patch.basename);
    if (patch.proxy !== undefined) set('proxy', patch.proxy);
    if (patch.adaptiveEnabled !== undefined) set('adaptive_enabled', patch.adaptiveEnabled ? 1 : 0);
    if (patch.defaultSectionId !== undefined) set('default_section_id', patch.defaultSectionId);
    if (patch.defaultSiteSpaceId !== undefined) {
      set('default_site_space_id', patch.defaultSiteSpaceId);
    }
    prepareCached(this.db, `UPDATE sites SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
  }

  setAdaptiveSchema(id: string, json: string, updatedAt: string): void {
    prepareCached(
      this.db,
      'UPDATE sites SET adaptive_schema = ?, adaptive_schema_updated_at = ?, updated_at = ? WHERE id = ?',
    ).run(json, updatedAt, updatedAt, id);
  }

  /** Deletes the site, and the organization's pointer to it as its default content. */
  delete(id: string): void {
    this.db.transaction(() => {
      prepareCached(
        this.db,
        `UPDATE organizations SET default_content = NULL
         WHERE default_content IS NOT NULL AND json_extract(default_content, '$.type') = 'site'
           AND json_extract(default_content, '$.site') = ?`,
      ).run(id);
      prepareCached(this.db, 'DELETE FROM sites WHERE id = ?').run(id);
    })();
  }

  /** The organization's sites, oldest first, filtered as the list operation allows. */
  listQuery(
    organizationId: string,
    filter: {
      space?: string | undefined;
      title?: string | undefined;
      published?: boolean | undefined;
    },
  ): KeysetQuery {
    const where = ['st.organization_id = ?'];
    const params: unknown[] = [organizationId];
    if (filter.space !== undefined) {
      where.push(`EXISTS (SELECT 1 FROM site_spaces ss ${LIVE_SPACE_JOIN}
        WHERE ss.site_id = st.id AND ss.space_id = ?)`);
      params.push(filter.space);
    }
    if (filter.title !== undefined) {
      // A case-insensitive substring: what a search box over titles finds.
      where.push('instr(lower(st.title), lower(?)) > 0');
      params.push(filter.title);
    }
    if (filter.published !== undefined) {
      where.push('st.published = ?');
      params.push(filter.published ? 1 : 0);
    }
    return {
      from: SELECT_SITE,
      where,
      params,
      orderBy: ['st.created_at', 'st.id'],
      direction: 'ASC',
      keyOf: (row) => [row['created_at'], row['id']],
      scope: `sites:${organizationId}:${JSON.stringify(filter)}`,
      count: {
        sql: `SELECT count(*) AS n FROM sites st WHERE ${where.join(' AND ')}`,
        params,
      },
    };
  }
}
