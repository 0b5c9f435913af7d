import type { CacheMigration } from './cache-migration';

/**
 * Local edits recorded for pushing (queued in the outbox, or pushed into the space's working
 * change request) that the synced revision does not contain yet. The file index stays the base of
 * the synced revision (what a pull compares against); this table is what the push side compares
 * against, so an edit is pushed once, and what the pull keeps: a path listed here is treated as
 * locally edited until a pulled revision contains its bytes (the change request was merged).
 */
export const migration0003LocalEdits: CacheMigration = {
  version: 3,
  name: 'local-edits',
  up(db) {
    db.exec(`
      CREATE TABLE local_edits (
        space_id TEXT NOT NULL,
        -- Relative to the space folder, '/'-separated.
        path TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('page', 'asset', 'layout')),
        -- The page (once its insert is acknowledged, for a new page).
        page_id TEXT,
        -- A new page's insert key while its id is unknown.
        local_key TEXT,
        -- NULL: the file was deleted (the page's deletion is pushed).
        content_hash TEXT,
        size INTEGER,
        mtime_ms REAL,
        PRIMARY KEY (space_id, path)
      );
    `);
  },
};
