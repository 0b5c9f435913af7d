import type { CacheDb } from '../cache/open-cache-database';
import type { OutboxChangeRequest } from './outbox-remote';

/** The change request a space's local edits go to. */
export interface WorkingChangeRequest {
  spaceId: string;
  /** Null while its creation has been decided but not confirmed by the server. */
  changeRequestId: string | null;
  number: number | null;
  subject: string;
  /** Last status seen (draft, open, ...). */
  status: string | null;
  /** Where a person opens it (the server's `urls.app`); null until the server said. */
  url: string | null;
  /** Idempotency-Key of the create call: a retry after a crash creates no second one. */
  createKey: string;
  createdAt: string;
}

interface Row {
  space_id: string;
  change_request_id: string | null;
  number: number | null;
  subject: string;
  status: string | null;
  url: string | null;
  create_key: string;
  created_at: string;
}

/** Queries over `working_change_requests`. */
export class WorkingChangeRequests {
  constructor(private readonly db: CacheDb) {}

  get(spaceId: string): WorkingChangeRequest | undefined {
    const row = this.db
      .prepare('SELECT * FROM working_change_requests WHERE space_id = ?')
      .get(spaceId) as Row | undefined;
    return row ? workingOf(row) : undefined;
  }

  /** Every space's, for status. */
  list(): WorkingChangeRequest[] {
    const rows = this.db
      .prepare('SELECT * FROM working_change_requests ORDER BY space_id')
      .all() as Row[];
    return rows.map(workingOf);
  }

  /** Committed before the create call, so a resend after a crash reuses the key and subject. */
  begin(spaceId: string, subject: string, createKey: string, now: string): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO working_change_requests
           (space_id, change_request_id, number, subject, status, create_key, created_at)
         VALUES (?, NULL, NULL, ?, NULL, ?, ?)`,
      )
      .run(spaceId, subject, createKey, now);
  }

  /** The server's view of it (after creating it, or on each check). */
  record(spaceId: string, changeRequest: OutboxChangeRequest): void {
    this.db
      .prepare(
        `UPDATE working_change_requests SET change_request_id = ?, number = ?, subject = ?,
           status = ?, url = COALESCE(?, url) WHERE space_id = ?`,
      )
      .run(
        changeRequest.id,
        changeRequest.number,
        changeRequest.subject,
        changeRequest.status,
        changeRequest.url ?? null,
        spaceId,
      );
  }

  /** A pinned one (a checkout's) merged, archived or gone: kept, marked so (never replaced). */
  markClosed(spaceId: string): void {
    this.db
      .prepare(
        `UPDATE working_change_requests SET status = 'archived'
         WHERE space_id = ? AND (status IS NULL OR status NOT IN ('merged', 'archived'))`,
      )
      .run(spaceId);
  }

  /** Merged, archived or gone: the next push starts a new one. */
  retire(spaceId: string): void {
    this.db.prepare('DELETE FROM working_change_requests WHERE space_id = ?').run(spaceId);
  }
}

function workingOf(row: Row): WorkingChangeRequest {
  return {
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    number: row.number,
    subject: row.subject,
    status: row.status,
    url: row.url,
    createKey: row.create_key,
    createdAt: row.created_at,
  };
}
