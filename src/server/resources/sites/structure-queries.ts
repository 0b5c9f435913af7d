import type { Db } from '../../db/open-database';
import { prepareCached } from '../../db/prepare-cached';
import type { KeysetQuery } from '../../http/paginate';
import {
  spaceCountColumns,
  type SpaceCountColumns,
  type SpaceRow,
} from '../spaces/space-serializer';
import { LIVE_SPACE_JOIN } from './site-queries';

export interface SectionRow {
  id: string;
  site_id: string;
  section_group_id: string | null;
  title: string;
  description: string | null;
  path: string;
  condition: string | null;
  icon: string | null;
  default_site_space_id: string | null;
  position: number;
  created_at: string;
}

export interface GroupRow {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  position: number;
  created_at: string;
}

/** A site space with its (live) space and the space's counts, for serializing both at once. */
export type SiteSpaceRow = SpaceRow &
  SpaceCountColumns & {
    ss_id: string;
    ss_section_id: string | null;
    ss_path: string;
    ss_condition: string | null;
    ss_position: number;
    /** The position of its section (-1 at the root): lists run section by section. */
    sec_position: number;
  };

export interface SectionPatch {
  title?: string | undefined;
  path?: string | undefined;
  defaultSiteSpaceId?: string | undefined;
  condition?: string | null | undefined;
  icon?: string | null | undefined;
  description?: string | null | undefined;
}

const SELECT_SITE_SPACE = `SELECT sp.*, ${spaceCountColumns('sp.id')},
    ss.id AS ss_id, ss.section_id AS ss_section_id, ss.path AS ss_path,
    ss.condition AS ss_condition, ss.position AS ss_position,
    ifnull(sec.position, -1) AS sec_position
  FROM site_spaces ss JOIN sites st ON st.id = ss.site_id ${LIVE_SPACE_JOIN}
  LEFT JOIN site_sections sec ON sec.id = ss.section_id`;

/** Build an UPDATE's SET list from the columns given (undefined: left as it is). */
function setList(columns: Record<string, unknown>): { sql: string; params: unknown[] } {
  const entries = Object.entries(columns).filter(([, value]) => value !== undefined);
  return {
    sql: entries.map(([column]) => `${column} = ?`).join(', '),
    params: entries.map(([, v]) => v),
  };
}

/** Every SQL statement about a site's structure: sections, section groups and site spaces. */
export class StructureQueries {
  constructor(private readonly db: Db) {}

  sections(siteId: string): SectionRow[] {
    return prepareCached<[string], SectionRow>(
      this.db,
      'SELECT * FROM site_sections WHERE site_id = ? ORDER BY position, id',
    ).all(siteId);
  }

  section(siteId: string, id: string): SectionRow | undefined {
    return prepareCached<[string, string], SectionRow>(
      this.db,
      'SELECT * FROM site_sections WHERE id = ? AND site_id = ?',
    ).get(id, siteId);
  }

  groups(siteId: string): GroupRow[] {
    return prepareCached<[string], GroupRow>(
      this.db,
      'SELECT * FROM site_section_groups WHERE site_id = ? ORDER BY position, id',
    ).all(siteId);
  }

  group(siteId: string, id: string): GroupRow | undefined {
    return prepareCached<[string, string], GroupRow>(
      this.db,
      'SELECT * FROM site_section_groups WHERE id = ? AND site_id = ?',
    ).get(id, siteId);
  }

  /** Site spaces of a site with live spaces, section by section, in order. */
  siteSpaces(siteId: string): SiteSpaceRow[] {
    return prepareCached<[string], SiteSpaceRow>(
      this.db,
      `${SELECT_SITE_SPACE} WHERE ss.site_id = ? ORDER BY sec_position, ss.position, ss.id`,
    ).all(siteId);
  }

  /** Ids and sections of the site spaces of `siteId` (live spaces), in order: for defaults. */
  siteSpaceKeys(siteId: string): { ss_id: string; ss_section_id: string | null }[] {
    return prepareCached<[string], { ss_id: string; ss_section_id: string | null }>(
      this.db,
      `SELECT ss.id AS ss_id, ss.section_id AS ss_section_id
       FROM site_spaces ss JOIN sites st ON st.id = ss.site_id ${LIVE_SPACE_JOIN}
       LEFT JOIN site_sections sec ON sec.id = ss.section_id
       WHERE ss.site_id = ? ORDER BY ifnull(sec.position, -1), ss.position, ss.id`,
    ).all(siteId);
  }

  siteSpace(siteId: string, id: string): SiteSpaceRow | undefined {
    return prepareCached<[string, string], SiteSpaceRow>(
      this.db,
      `${SELECT_SITE_SPACE} WHERE ss.id = ? AND ss.site_id = ?`,
    ).get(id, siteId);
  }

  /** Paths taken in one container (a section, or the root when `sectionId` is null). */
  siteSpacePaths(siteId: string, sectionId: string | null): Set<string> {
    const rows = prepareCached<[string, string | null], { path: string }>(
      this.db,
      'SELECT path FROM site_spaces WHERE site_id = ? AND section_id IS ?',
    ).all(siteId, sectionId);
    return new Set(rows.map((row) => row.path));
  }

  /** Ids of every site space in one container (live space or not), in order. */
  siteSpaceIdsIn(siteId: string, sectionId: string | null): string[] {
    return prepareCached<[string, string | null], { id: string }>(
      this.db,
      'SELECT id FROM site_spaces WHERE site_id = ? AND section_id IS ? ORDER BY position, id',
    )
      .all(siteId, sectionId)
      .map((row) => row.id);
  }

  /**
   * The site's site spaces, section by section; `only` keeps (or, `include` false, leaves out)
   * the site spaces whose ids it lists.
   */
  siteSpaceListQuery(
    siteId: string,
    only?: { ids: readonly string[]; include: boolean },
  ): KeysetQuery {
    const where = ['ss.site_id = ?'];
    const params: unknown[] = [siteId];
    if (only) {
      // One statement whatever the number of ids (a JSON array), so the statement cache holds it.
      where.push(`ss.id ${only.include ? '' : 'NOT '}IN (SELECT value FROM json_each(?))`);
      params.push(JSON.stringify(only.ids));
    }
    return {
      from: SELECT_SITE_SPACE,
      where,
      params,
      orderBy: ['ifnull(sec.position, -1)', 'ss.position', 'ss.id'],
      direction: 'ASC',
      keyOf: (row) => [row['sec_position'], row['ss_position'], row['ss_id']],
      scope: `site-spaces:${siteId}:${only ? String(only.include) : 'all'}`,
      // Without the space counts of the list's columns: the rows are the same.
      count: {
        sql: `SELECT count(*) AS n FROM site_spaces ss JOIN sites st ON st.id = ss.site_id
          ${LIVE_SPACE_JOIN} WHERE ${where.join(' AND ')}`,
        params,
      },
    };
  }

  sectionListQuery(siteId: string): KeysetQuery {
    return {
      from: 'SELECT * FROM site_sections',
      where: ['site_id = ?'],
      params: [siteId],
      orderBy: ['position', 'id'],
      direction: 'ASC',
      keyOf: (row) => [row['position'], row['id']],
      scope: `site-sections:${siteId}`,
    };
  }

  groupListQuery(siteId: string): KeysetQuery {
    return {
      from: 'SELECT * FROM site_section_groups',
      where: ['site_id = ?'],
      params: [siteId],
      orderBy: ['position', 'id'],
      direction: 'ASC',
      keyOf: (row) => [row['position'], row['id']],
      scope: `site-section-groups:${siteId}`,
    };
  }

  /** The next free position in the site's shared order of sections and groups. */
  endPosition(siteId: string): number {
    const row = prepareCached<[string, string], { p: number | null }>(
      this.db,
      `SELECT max(p) AS p FROM (
           SELECT max(position) AS p FROM site_sections WHERE site_id = ?
           UNION ALL SELECT max(position) FROM site_section_groups WHERE site_id = ?)`,
    ).get(siteId, siteId);
    return (row?.p ?? -1) + 1;
  }

  siteSpaceEndPosition(siteId: string, sectionId: string | null): number {
    const row = prepareCached<[string, string | null], { p: number | null }>(
      this.db,
      'SELECT max(position) AS p FROM site_spaces WHERE site_id = ? AND section_id IS ?',
    ).get(siteId, sectionId);
    return (row?.p ?? -1) + 1;
  }

  insertSection(row: SectionRow): void {
    prepareCached(
      this.db,
      `INSERT INTO site_sections (id, site_id, section_group_id, title, description, path,
           condition, icon, default_site_space_id, position, created_at)
         VALUES (@id, @site_id, @section_group_id, @title, @description, @path, @condition,
           @icon, @default_site_space_id, @position, @created_at)`,
    ).run(row);
  }

  updateSection(id: string, patch: SectionPatch): void {
    const { sql, params } = setList({
      title: patch.title,
      path: patch.path,
      default_site_space_id: patch.defaultSiteSpaceId,
      condition: patch.condition,
      icon: patch.icon,
      description: patch.description,
    });
    if (sql)
      prepareCached(this.db, `UPDATE site_sections SET ${sql} WHERE id = ?`).run(...params, id);
  }

  setSectionGroup(sectionIds: readonly string[], groupId: string | null): void {
    const statement = prepareCached(
      this.db,
      'UPDATE site_sections SET section_group_id = ? WHERE id = ?',
    );
    for (const id of sectionIds) statement.run(groupId, id);
  }

  deleteSection(id: string): void {
    prepareCached(this.db, 'DELETE FROM site_sections WHERE id = ?').run(id);
  }

  insertGroup(row: GroupRow): void {
    prepareCached(
      this.db,
      `INSERT INTO site_section_groups (id, site_id, title, icon, position, created_at)
         VALUES (@id, @site_id, @title, @icon, @position, @created_at)`,
    ).run(row);
  }

  updateGroup(
    id: string,
    patch: { title?: string | undefined; icon?: string | null | undefined },
  ): void {
    const { sql, params } = setList({ title: patch.title, icon: patch.icon });
    if (sql)
      prepareCached(this.db, `UPDATE site_section_groups SET ${sql} WHERE id = ?`).run(
        ...params,
        id,
      );
  }

  deleteGroup(id: string): void {
    prepareCached(this.db, 'DELETE FROM site_section_groups WHERE id = ?').run(id);
  }

  insertSiteSpace(row: {
    id: string;
    site_id: string;
    section_id: string | null;
    space_id: string;
    path: string;
    position: number;
    created_at: string;
  }): void {
    prepareCached(
      this.db,
      `INSERT INTO site_spaces (id, site_id, section_id, space_id, path, position, created_at)
         VALUES (@id, @site_id, @section_id, @space_id, @path, @position, @created_at)`,
    ).run(row);
  }

  updateSiteSpace(
    id: string,
    patch: { path?: string | undefined; condition?: string | null | undefined },
  ): void {
    const { sql, params } = setList({ path: patch.path, condition: patch.condition });
    if (sql)
      prepareCached(this.db, `UPDATE site_spaces SET ${sql} WHERE id = ?`).run(...params, id);
  }

  /** Moves every root site space of a site into a section (the site gets its first section). */
  moveRootSiteSpaces(siteId: string, sectionId: string): void {
    prepareCached(
      this.db,
      'UPDATE site_spaces SET section_id = ? WHERE site_id = ? AND section_id IS NULL',
    ).run(sectionId, siteId);
  }

  deleteSiteSpace(id: string): void {
    prepareCached(this.db, 'DELETE FROM site_spaces WHERE id = ?').run(id);
  }

  /** Rewrites positions 0, 1, 2… in the given order (sections and groups share one order). */
  renumber(items: readonly { kind: 'section' | 'group' | 'site-space'; id: string }[]): void {
    const tables = {
      section: 'site_sections',
      group: 'site_section_groups',
      'site-space': 'site_spaces',
    } as const;
    items.forEach((item, index) => {
      prepareCached(this.db, `UPDATE ${tables[item.kind]} SET position = ? WHERE id = ?`).run(
        index,
        item.id,
      );
    });
  }
}
