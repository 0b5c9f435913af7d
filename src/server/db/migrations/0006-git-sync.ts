import type { Migration } from '../migration';

/**
 * Git Sync by URL: the queue of imports (and exports) a space asked for, and each space's Git
 * Sync state once it has had one. A job is a row until its outcome is recorded, so a server
 * stopped mid-fetch does it again on its next start. URLs are stored without their credentials:
 * a job that had some keeps them in memory only, and one interrupted by a restart fails asking
 * to be triggered again (`has_credentials`).
 */
export const migration0006GitSync: Migration = {
  version: 6,
  name: 'git-sync',
  up(db) {
    db.exec(`
      CREATE TABLE git_sync_jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        direction TEXT NOT NULL CHECK (direction IN ('import', 'export')),
        url TEXT NOT NULL,
        has_credentials INTEGER NOT NULL DEFAULT 0 CHECK (has_credentials IN (0, 1)),
        ref TEXT NOT NULL,
        -- JSON of the request's other fields (repoProjectDirectory, standalone, commitMessage).
        options TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        started_at TEXT
      );
      CREATE INDEX git_sync_jobs_space ON git_sync_jobs(space_id);

      -- One row per space that was imported from (or exported to) a repository.
      CREATE TABLE space_git_sync (
        space_id TEXT PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
        provider TEXT NOT NULL CHECK (provider IN ('github', 'gitlab')),
        repo_url TEXT NOT NULL,
        tree_url TEXT,
        ref TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'failure', 'success', 'timeout')),
        direction TEXT NOT NULL CHECK (direction IN ('import', 'export')),
        started_at TEXT NOT NULL,
        ended_at TEXT,
        error TEXT,
        -- The change request an import made (left open when standalone).
        change_request_id TEXT,
        updated_at TEXT NOT NULL
      );
    `);
  },
};
