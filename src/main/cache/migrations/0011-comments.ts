import type { CacheMigration } from './cache-migration';

/**
 * Comment threads of the synced spaces and their mirrored change requests, and the comment
 * outbox: every local comment change waits there, with the Idempotency-Key it is sent with, until
 * the server acknowledges it. Comments are not batched like page edits (one call each), so they
 * have a queue of their own instead of new kinds in `outbox`.
 *
 * `change_request` is the change request's number, or 0 for the space's own comments.
 */
export const migration0011Comments: CacheMigration = {
  version: 11,
  name: 'comments',
  up(db) {
    db.exec(`
      -- Comments and replies as the server last returned them.
      CREATE TABLE comments (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        change_request INTEGER NOT NULL,
        id TEXT NOT NULL,
        -- Null for a comment; the comment's id for a reply.
        parent_id TEXT,
        author_id TEXT NOT NULL,
        author_name TEXT NOT NULL,
        body TEXT NOT NULL,
        posted_at TEXT NOT NULL,
        edited_at TEXT,
        -- JSON { id, title, path } of the page, or null.
        page TEXT,
        resolved INTEGER NOT NULL DEFAULT 0 CHECK (resolved IN (0, 1)),
        -- JSON [{ emoji, users: [userId] }].
        reactions TEXT NOT NULL DEFAULT '[]',
        can_edit INTEGER NOT NULL DEFAULT 0 CHECK (can_edit IN (0, 1)),
        -- What the listing said of the replies when they were fetched: equal means not refetched.
        replies_fingerprint TEXT,
        PRIMARY KEY (space_id, change_request, id)
      );
      CREATE INDEX comments_parent ON comments(space_id, change_request, parent_id);

      -- Local comment changes not acknowledged yet, in the order they were made. No foreign key:
      -- removing a space from the cache must never silently drop what the user wrote.
      CREATE TABLE comment_outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        space_id TEXT NOT NULL,
        change_request INTEGER NOT NULL,
        kind TEXT NOT NULL
          CHECK (kind IN ('create', 'reply', 'edit', 'delete', 'react', 'resolve')),
        -- The comment (server id or local-<n>); null for a create.
        comment_id TEXT,
        -- The reply an edit, delete or reaction is about.
        reply_id TEXT,
        -- JSON: body, pageId, emoji and add, resolved.
        payload TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        -- pending: waiting (perhaps sent, unacknowledged); failed: refused, kept with its reason.
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'failed')),
        error TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX comment_outbox_scope ON comment_outbox(space_id, change_request, id);

      -- A comment or reply created from the outbox: local-<n> → the server's id.
      CREATE TABLE comment_ids (
        local_id TEXT PRIMARY KEY,
        remote_id TEXT NOT NULL
      );
    `);
  },
};
