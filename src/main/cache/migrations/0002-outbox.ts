import type { CacheMigration } from './cache-migration';

/**
 * The durable outbox: local edits waiting to be pushed into each space's working change request.
 * A change is written here in the same transaction that updates the file index, and a batch is
 * written (with its Idempotency-Key and exact body) before it is sent, so neither a crash nor a
 * restart loses an edit or pushes one twice.
 *
 * No foreign key to `spaces`: removing a space from the cache must never silently drop edits the
 * user has not pushed yet; the engine discards them explicitly.
 */
export const migration0002Outbox: CacheMigration = {
  version: 2,
  name: 'outbox',
  up(db) {
    db.exec(`
      -- One batch = one updateChangeRequestContent call. Its id is the Idempotency-Key; the body is
      -- stored exactly as sent so a resend after a crash is byte-for-byte the same request, which
      -- the server answers with its stored response instead of applying it again.
      CREATE TABLE outbox_batches (
        id TEXT PRIMARY KEY,
        space_id TEXT NOT NULL,
        change_request_id TEXT NOT NULL,
        -- JSON { changes: [...] }, the exact body.
        payload TEXT NOT NULL,
        -- ready: written, not sent yet; sent: sent at least once, outcome unknown; acknowledged:
        -- the server applied it; failed: refused (or rebound to another change request).
        state TEXT NOT NULL CHECK (state IN ('ready', 'sent', 'acknowledged', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        sent_at TEXT,
        acknowledged_at TEXT,
        error TEXT
      );
      CREATE INDEX outbox_batches_open ON outbox_batches(space_id, state, created_at);

      -- Changes not yet acknowledged, coalesced per page, in the order they must be applied.
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        space_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('update_page', 'insert_page', 'delete_page', 'insert_files')),
        -- The page changed; null for an insert, and for a change to a page whose insert has not
        -- been acknowledged yet (set when it is).
        page_id TEXT,
        -- Stable local id of an inserted page or file (sent as its batch-local ref), so later
        -- edits of a page that was never pushed coalesce into its insert.
        local_key TEXT,
        -- JSON: document, page fields and placement of the change.
        payload TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        -- pending: waiting; sending: part of an unacknowledged batch (frozen: never coalesced);
        -- failed: the server refused it (kept, with its message, until a later edit replaces it).
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'failed')),
        batch_id TEXT REFERENCES outbox_batches(id),
        -- Index of this change in its batch's body.
        batch_position INTEGER,
        -- Sent in a batch of its own: set after a batch was refused without naming the change at
        -- fault, so the next attempts isolate it.
        solo INTEGER NOT NULL DEFAULT 0 CHECK (solo IN (0, 1)),
        error TEXT,
        CHECK (page_id IS NOT NULL OR local_key IS NOT NULL),
        CHECK ((state = 'sending') = (batch_id IS NOT NULL))
      );
      CREATE INDEX outbox_space ON outbox(space_id, id);
      CREATE INDEX outbox_page ON outbox(space_id, page_id) WHERE page_id IS NOT NULL;
      CREATE INDEX outbox_local ON outbox(space_id, local_key) WHERE local_key IS NOT NULL;
      CREATE INDEX outbox_batch ON outbox(batch_id) WHERE batch_id IS NOT NULL;

      -- Pages and files the outbox created, by local key: kept until the engine has recorded the
      -- new ids (a crash right after the acknowledgement must not turn the page into a new insert).
      CREATE TABLE outbox_created (
        space_id TEXT NOT NULL,
        local_key TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('page', 'file')),
        remote_id TEXT NOT NULL,
        change_request_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (space_id, kind, local_key)
      );

      -- The change request a space's local edits go to. change_request_id is null while it is
      -- being created: create_key is the Idempotency-Key of that call, reused after a crash.
      CREATE TABLE working_change_requests (
        space_id TEXT PRIMARY KEY,
        change_request_id TEXT,
        number INTEGER,
        subject TEXT NOT NULL,
        status TEXT,
        create_key TEXT NOT NULL,
        created_at TEXT NOT NULL
      );

      -- \`quire pause [--for 30m]\`: one row while pushing is paused; paused_until null means until
      -- \`quire resume\`. Edits are still recorded while paused, only the sending stops.
      CREATE TABLE sync_pause (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        paused_at TEXT NOT NULL,
        paused_until TEXT
      );
    `);
  },
};
