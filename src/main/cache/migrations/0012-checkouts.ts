import type { CacheMigration } from './cache-migration';

/**
 * Change requests checked out into folders. A checkout syncs like a space: its files, index,
 * edits, outbox and conflicts are keyed by `key`, which is also the id of a `spaces` row of its
 * own (hidden from the space listing by this table) so that every per-space table applies as is.
 */
export const migration0012Checkouts: CacheMigration = {
  version: 12,
  name: 'checkouts',
  up(db) {
    db.exec(`
      CREATE TABLE checkouts (
        key TEXT PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        change_request_id TEXT NOT NULL,
        number INTEGER NOT NULL,
        subject TEXT NOT NULL,
        -- Last status seen on the server (draft, open, merged, archived).
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        -- Set when merged or archived while local edits were still unsent: the folder stays.
        closed_with_pending INTEGER NOT NULL DEFAULT 0 CHECK (closed_with_pending IN (0, 1)),
        UNIQUE (space_id, change_request_id)
      );
    `);
  },
};
