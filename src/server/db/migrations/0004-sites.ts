import type { Migration } from '../migration';

/**
 * Docs sites and their structure: sections (optionally in section groups), site spaces (a space
 * published at a path, in a section or at the root of a site without sections) and share links.
 * Pointers to a default (section, site space) are plain columns, not foreign keys: a pointer left
 * dangling by a delete falls back to the first item, so no delete has to rewrite them.
 */
export const migration0004Sites: Migration = {
  version: 4,
  name: 'sites',
  up(db) {
    db.exec(`
      CREATE TABLE sites (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        title TEXT NOT NULL,
        visibility TEXT NOT NULL
          CHECK (visibility IN ('public', 'unlisted', 'share-link', 'visitor-auth')),
        published INTEGER NOT NULL DEFAULT 1,
        basename TEXT,
        proxy TEXT,
        adaptive_enabled INTEGER NOT NULL DEFAULT 0,
        -- JSON (draft-07 schema); NULL: the default schema, dated by created_at.
        adaptive_schema TEXT,
        adaptive_schema_updated_at TEXT,
        default_section_id TEXT,
        -- The default site space of a site without sections.
        default_site_space_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX sites_list ON sites(organization_id, created_at, id);

      CREATE TABLE site_section_groups (
        id TEXT PRIMARY KEY,
        site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        icon TEXT,
        -- Groups and sections share one order (the site's top level).
        position INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX site_section_groups_site ON site_section_groups(site_id, position, id);

      CREATE TABLE site_sections (
        id TEXT PRIMARY KEY,
        site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        -- Deleting a group keeps its sections, ungrouped.
        section_group_id TEXT REFERENCES site_section_groups(id) ON DELETE SET NULL,
        title TEXT NOT NULL,
        description TEXT,
        path TEXT NOT NULL,
        condition TEXT,
        icon TEXT,
        default_site_space_id TEXT,
        position INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX site_sections_path ON site_sections(site_id, path);
      CREATE INDEX site_sections_order ON site_sections(site_id, position, id);

      CREATE TABLE site_spaces (
        id TEXT PRIMARY KEY,
        site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        -- NULL: at the root of a site without sections.
        section_id TEXT REFERENCES site_sections(id) ON DELETE CASCADE,
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        condition TEXT,
        position INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX site_spaces_path ON site_spaces(site_id, ifnull(section_id, ''), path);
      CREATE INDEX site_spaces_order ON site_spaces(site_id, section_id, position, id);
      CREATE INDEX site_spaces_space ON site_spaces(space_id);

      CREATE TABLE site_share_links (
        id TEXT PRIMARY KEY,
        site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        share_key TEXT NOT NULL UNIQUE,
        active INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL
      );
      CREATE INDEX site_share_links_list ON site_share_links(site_id, created_at, id);
    `);
  },
};
