import type { Migration } from '../migration';

/**
 * A space's Git Sync configuration (`.gitbook.yaml`): the text exactly as written, so a mirror
 * writes it back byte for byte, and what the server read from it. An import keeps its
 * configuration with its change request (`change_request_id`) until the merge makes it the
 * space's (the row with no change request); an unmerged import never changes the space's.
 */
export const migration0007GitSyncConfig: Migration = {
  version: 7,
  name: 'gitsync-config',
  up(db) {
    db.exec(`
      CREATE TABLE gitsync_configs (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        change_request_id TEXT REFERENCES change_requests(id) ON DELETE CASCADE,
        text TEXT NOT NULL,
        -- '' or a folder ending in '/'.
        root TEXT NOT NULL,
        readme TEXT NOT NULL,
        summary TEXT NOT NULL,
        -- JSON object of old path to new path, as written.
        redirects TEXT NOT NULL,
        updated_by TEXT REFERENCES users(id) ON DELETE SET NULL,
        updated_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX gitsync_configs_owner
        ON gitsync_configs(space_id, IFNULL(change_request_id, ''));
    `);
  },
};
