import type { Migration } from '../migration';

/**
 * Change requests, their reviews, comments with replies and reactions, and the full-text index of
 * page sections. Revisions and bodies already exist (0001).
 */
export const migration0002Content: Migration = {
  version: 2,
  name: 'content',
  up(db) {
    db.exec(`
      CREATE TABLE change_requests (
        id TEXT PRIMARY KEY,
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'open', 'archived', 'merged')),
        subject TEXT NOT NULL DEFAULT '',
        created_by TEXT NOT NULL REFERENCES users(id),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        revision_id TEXT NOT NULL,
        revision_initial TEXT NOT NULL,
        revision_merged_ancestor TEXT,
        revision_merged TEXT,
        merged_by TEXT REFERENCES users(id),
        merged_at TEXT,
        UNIQUE (space_id, number)
      );
      CREATE INDEX change_requests_list ON change_requests(space_id, status, number);

      -- Who contributed to a change request (its creator and everyone who wrote content to it).
      CREATE TABLE change_request_contributors (
        change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        PRIMARY KEY (change_request_id, user_id)
      );
      CREATE INDEX change_request_contributors_user ON change_request_contributors(user_id);

      CREATE TABLE change_request_reviews (
        id TEXT PRIMARY KEY,
        change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
        reviewer_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('approved', 'changes-requested')),
        revision_id TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX change_request_reviews_cr ON change_request_reviews(change_request_id, created_at);

      CREATE TABLE change_request_requested_reviewers (
        change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        requested_at TEXT NOT NULL,
        PRIMARY KEY (change_request_id, user_id)
      );

      -- Space comments have change_request_id NULL; change-request comments name theirs.
      CREATE TABLE comments (
        id TEXT PRIMARY KEY,
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        change_request_id TEXT REFERENCES change_requests(id) ON DELETE CASCADE,
        page_id TEXT,
        node_id TEXT,
        revision_id TEXT,
        posted_by TEXT NOT NULL REFERENCES users(id),
        posted_at TEXT NOT NULL,
        edited_at TEXT,
        body TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
        resolved_at TEXT,
        resolved_by TEXT REFERENCES users(id)
      );
      CREATE INDEX comments_space ON comments(space_id, change_request_id, posted_at, id);

      CREATE TABLE comment_replies (
        id TEXT PRIMARY KEY,
        comment_id TEXT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
        posted_by TEXT NOT NULL REFERENCES users(id),
        posted_at TEXT NOT NULL,
        edited_at TEXT,
        body TEXT NOT NULL
      );
      CREATE INDEX comment_replies_comment ON comment_replies(comment_id, posted_at, id);

      -- One row per (comment or reply, emoji, user); grouped by emoji when serialised.
      CREATE TABLE reactions (
        target_id TEXT NOT NULL,
        emoji TEXT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        reacted_at TEXT NOT NULL,
        PRIMARY KEY (target_id, emoji, user_id)
      );

      -- Server-wide secrets (the key that signs file download URLs), created on first use.
      CREATE TABLE server_secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      -- Sections of the live revision's pages (split at headings), for organization search.
      CREATE VIRTUAL TABLE page_sections USING fts5(
        title, body,
        space_id UNINDEXED, page_id UNINDEXED, section_id UNINDEXED, page_title UNINDEXED, page_path UNINDEXED,
        tokenize = 'porter unicode61'
      );
      -- Which revision each space's index rows were built from, so reindexing happens only on change.
      CREATE TABLE search_index_state (
        space_id TEXT PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
        revision_id TEXT NOT NULL
      );
    `);
  },
};
