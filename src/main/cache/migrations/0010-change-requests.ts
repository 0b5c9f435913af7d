import type { CacheMigration } from './cache-migration';

/**
 * The change-request mirror: for each synced space, the change requests worth reviewing (open
 * and draft ones, pinned ones), their reviews, requested reviewers and contributors, and the
 * content of the revisions they are compared at. Page bodies live in `bodies`, shared by hash
 * with the synced spaces' pages, so a page a change request did not touch costs one row here.
 *
 * The `change_requests` table of 0001 was never written to: it is replaced.
 */
export const migration0010ChangeRequests: CacheMigration = {
  version: 10,
  name: 'change-requests',
  up(db) {
    db.exec(`
      DROP TABLE change_requests;
      CREATE TABLE change_requests (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        number INTEGER NOT NULL,
        status TEXT NOT NULL,
        subject TEXT NOT NULL DEFAULT '',
        -- The revision under review, and the main revision it is compared with.
        revision_id TEXT NOT NULL,
        base_revision_id TEXT NOT NULL,
        outdated INTEGER NOT NULL DEFAULT 0 CHECK (outdated IN (0, 1)),
        created_by TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        -- What the listing said when the details below were fetched: equal means nothing to refetch.
        fingerprint TEXT NOT NULL,
        -- The published ChangeRequest, reviews, requested reviewers and contributors, as JSON.
        json TEXT NOT NULL,
        reviews TEXT NOT NULL DEFAULT '[]',
        requested_reviewers TEXT NOT NULL DEFAULT '[]',
        contributors TEXT NOT NULL DEFAULT '[]',
        fetched_at TEXT NOT NULL,
        PRIMARY KEY (space_id, id)
      );
      CREATE UNIQUE INDEX change_requests_number ON change_requests(space_id, number);

      -- Change requests the user asked to keep whatever their status.
      CREATE TABLE change_request_pins (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        pinned_at TEXT NOT NULL,
        PRIMARY KEY (space_id, number)
      );

      -- Revisions a cached change request is compared at, and their page trees.
      CREATE TABLE change_request_revisions (
        space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        PRIMARY KEY (space_id, id)
      );
      CREATE TABLE change_request_pages (
        space_id TEXT NOT NULL,
        revision_id TEXT NOT NULL,
        id TEXT NOT NULL,
        parent_id TEXT,
        position INTEGER NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('document', 'group', 'link')),
        title TEXT NOT NULL,
        meta TEXT NOT NULL,
        body_hash TEXT REFERENCES bodies(hash),
        PRIMARY KEY (space_id, revision_id, id),
        FOREIGN KEY (space_id, revision_id) REFERENCES change_request_revisions(space_id, id)
          ON DELETE CASCADE
      );
      CREATE INDEX change_request_pages_body ON change_request_pages(body_hash);
    `);
  },
};
