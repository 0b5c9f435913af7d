import type { CacheMigration } from './cache-migration';

/**
 * The desktop cache: what the workspace looked like at the last sync, and what the mirror folder
 * held when the engine last wrote it. The folder is derived data; this file is what lets the engine
 * tell a local edit from a remote one, so it never lives inside the synced folder.
 */
export const migration0001CacheCore: CacheMigration = {
  version: 1,
  name: 'cache-core',
  up(db) {
    db.exec(`
      -- Key/value flags of the sync as a whole (e.g. whether the first space listing happened).
      CREATE TABLE sync_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        -- The folder chosen when the organization was first seen; a retitle does not move it.
        folder_name TEXT NOT NULL,
        position INTEGER NOT NULL DEFAULT 0,
        removed_at TEXT
      );

      CREATE TABLE spaces (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id),
        title TEXT NOT NULL,
        emoji TEXT,
        parent_id TEXT,
        -- The folder chosen when the space was first seen, relative to the mirror root
        -- ('<organization folder>/<space folder>'). A retitle or a transfer does not move it.
        folder_path TEXT NOT NULL UNIQUE,
        position INTEGER NOT NULL DEFAULT 0,
        enabled INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
        -- The live revision the last listing reported, and the one the folder reflects.
        remote_revision TEXT,
        synced_revision TEXT,
        last_sync_at TEXT,
        last_error TEXT,
        discovered_at TEXT NOT NULL,
        -- Set when the space disappeared from a successful listing.
        removed_at TEXT
      );
      CREATE INDEX spaces_by_organization ON spaces(organization_id, position);

      -- Revisions whose content the cache holds (the synced one per space).
      CREATE TABLE revisions (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        page_count INTEGER NOT NULL,
        file_count INTEGER NOT NULL,
        PRIMARY KEY (space_id, id)
      );

      -- Markdown bodies, stored once per content (sha256 of the UTF-8 text).
      CREATE TABLE bodies (
        hash TEXT PRIMARY KEY,
        markdown TEXT NOT NULL
      );

      -- The page tree of a space's synced revision: one row per page, in tree order.
      CREATE TABLE pages (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        parent_id TEXT,
        position INTEGER NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('document', 'group', 'link')),
        title TEXT NOT NULL,
        -- Every other published field of the page (slug, path, description, layout, ...) as JSON.
        meta TEXT NOT NULL,
        body_hash TEXT REFERENCES bodies(hash),
        updated_at TEXT,
        PRIMARY KEY (space_id, id)
      );
      CREATE INDEX pages_tree ON pages(space_id, parent_id, position);
      CREATE INDEX pages_body ON pages(body_hash);

      -- Files (assets) of a space's synced revision.
      CREATE TABLE files (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        content_type TEXT NOT NULL,
        size INTEGER NOT NULL,
        download_url TEXT NOT NULL,
        width INTEGER,
        height INTEGER,
        -- sha256 of the bytes downloaded, once downloaded.
        content_hash TEXT,
        PRIMARY KEY (space_id, id)
      );

      -- Change requests seen on the server (filled by the change-request side of the engine).
      CREATE TABLE change_requests (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        number INTEGER NOT NULL,
        status TEXT NOT NULL,
        subject TEXT NOT NULL DEFAULT '',
        revision_id TEXT,
        updated_at TEXT,
        json TEXT NOT NULL,
        PRIMARY KEY (space_id, id)
      );

      -- What the engine last wrote into the folder: the base a local edit is measured against.
      -- path is relative to the space folder, with '/' separators.
      CREATE TABLE file_index (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('page', 'asset', 'layout')),
        page_id TEXT,
        file_id TEXT,
        content_hash TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL,
        PRIMARY KEY (space_id, path)
      );
      CREATE UNIQUE INDEX file_index_page ON file_index(space_id, page_id) WHERE page_id IS NOT NULL;

      -- Written before a space's files are, cleared with the final update: after a crash, a file
      -- whose bytes match a pending write is the engine's own work, not a local edit.
      CREATE TABLE pending_writes (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        PRIMARY KEY (space_id, path, content_hash)
      );

      -- Things the user should know about and act on (a remotely deleted page kept because it was
      -- edited locally, a conflict). They stay until the engine or the user resolves them.
      CREATE TABLE sync_problems (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        space_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        path TEXT,
        page_id TEXT,
        message TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX sync_problems_space ON sync_problems(space_id, id);
    `);
  },
};
