import type { CacheMigration } from './cache-migration';

/**
 * The activity log (what was pulled, pushed, merged…), newest first in the app and kept across
 * restarts. Bounded by its writer (ActivityLog keeps the last entries only); `files` is a JSON
 * array of paths relative to the mirror folder.
 */
export const migration0008Activity: CacheMigration = {
  version: 8,
  name: 'activity',
  up(db) {
    db.exec(`
      CREATE TABLE activity (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        at          TEXT NOT NULL,
        kind        TEXT NOT NULL
                    CHECK (kind IN ('pulled', 'pushed', 'merged', 'removed', 'resolved', 'failed')),
        space_id    TEXT,
        space_title TEXT,
        summary     TEXT NOT NULL,
        files       TEXT NOT NULL DEFAULT '[]'
      )
    `);
  },
};
