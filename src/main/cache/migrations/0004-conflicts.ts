import type { CacheMigration } from './cache-migration';

/**
 * Three-way merges on pull need the base (the text last synced at a path) long after the content
 * cache moved on to a newer revision, and a conflict that could not be merged must keep the base
 * and the remote version until the user resolves it. Both live here.
 *
 * No foreign key to `spaces`: like the outbox, a conflict names work of the user's that must never
 * disappear as a side effect of the space list changing; the engine clears them explicitly.
 */
export const migration0004Conflicts: CacheMigration = {
  version: 4,
  name: 'conflicts',
  up(db) {
    db.exec(`
      -- Text files (pages, SUMMARY.md) as the engine last synced them, by sha256 of the UTF-8 text:
      -- the base of a three-way merge for every file_index entry whose hash is here, and the base
      -- and remote versions of open conflicts. Unreferenced texts are collected after each pull.
      CREATE TABLE synced_texts (
        hash TEXT PRIMARY KEY,
        text TEXT NOT NULL
      );

      -- Edits on both sides that the pull could not merge, and edit-against-delete outcomes the
      -- user should know about. Open (resolved_at NULL) until \`quire resolve\` or a later pull that
      -- finds nothing left to merge.
      CREATE TABLE conflicts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        space_id TEXT NOT NULL,
        -- content: overlapping edits of a page or SUMMARY.md (the local file kept as it is);
        -- asset: an upload changed on both sides; deleted-remotely: a locally edited page deleted
        -- on the server, kept and re-created; deleted-locally: a page deleted locally and edited
        -- on the server, written again.
        kind TEXT NOT NULL
          CHECK (kind IN ('content', 'asset', 'deleted-remotely', 'deleted-locally')),
        -- The local file, relative to the space folder, '/'-separated.
        path TEXT NOT NULL,
        page_id TEXT,
        file_id TEXT,
        title TEXT NOT NULL DEFAULT '',
        -- synced_texts hashes of the base and of the remote version (null when unknown or none).
        base_hash TEXT,
        remote_hash TEXT,
        -- sha256 of the local file's bytes when the conflict was recorded.
        local_hash TEXT,
        message TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        resolved_at TEXT,
        resolution TEXT CHECK (resolution IN ('mine', 'theirs', 'merged', 'auto')),
        CHECK ((resolved_at IS NULL) = (resolution IS NULL))
      );
      CREATE UNIQUE INDEX conflicts_open ON conflicts(space_id, path) WHERE resolved_at IS NULL;
    `);
  },
};
