import { randomUUID } from 'node:crypto';
import type { CacheDb } from '../cache/open-cache-database';
import type { CommentScope } from './comment-remote';
import { scopeKey } from './comment-mirror';

export type CommentChangeKind = 'create' | 'reply' | 'edit' | 'delete' | 'react' | 'resolve';

/** What a queued change carries (by kind: body and page; body; emoji and add; resolved). */
export interface CommentChangePayload {
  body?: string;
  pageId?: string | null;
  /** The page's title and path when the cache knew them (shown until the server answers). */
  pageTitle?: string;
  pagePath?: string;
  emoji?: string;
  add?: boolean;
  resolved?: boolean;
}

/** One local comment change waiting for the server. */
export interface QueuedCommentChange {
  id: number;
  scope: CommentScope;
  kind: CommentChangeKind;
  /** The comment: its server id or `local-<n>`; null for a create. */
  commentId: string | null;
  replyId: string | null;
  payload: CommentChangePayload;
  idempotencyKey: string;
  state: 'pending' | 'failed';
  error: string | null;
  createdAt: string;
}

interface Row {
  id: number;
  space_id: string;
  change_request: number;
  kind: CommentChangeKind;
  comment_id: string | null;
  reply_id: string | null;
  payload: string;
  idempotency_key: string;
  state: 'pending' | 'failed';
  error: string | null;
  created_at: string;
}

/** The id a queued create or reply is known by until the server has given it one. */
export function localIdOf(change: Pick<QueuedCommentChange, 'id'>): string {
  return `local-${change.id}`;
}

/**
 * The durable queue of comment changes. Each is written with its Idempotency-Key before it is
 * ever sent, so a resend after a crash is the same request and the server does not apply it twice.
 */
export class CommentOutbox {
  constructor(private readonly db: CacheDb) {}

  add(
    scope: CommentScope,
    change: Pick<QueuedCommentChange, 'kind' | 'commentId' | 'replyId' | 'payload'>,
    at: string,
  ): QueuedCommentChange {
    const result = this.db
      .prepare(
        `INSERT INTO comment_outbox (space_id, change_request, kind, comment_id, reply_id, payload,
           idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        scope.spaceId,
        scopeKey(scope),
        change.kind,
        change.commentId,
        change.replyId,
        JSON.stringify(change.payload),
        randomUUID(),
        at,
      );
    return this.get(Number(result.lastInsertRowid))!;
  }

  get(id: number): QueuedCommentChange | undefined {
    const row = this.db.prepare('SELECT * FROM comment_outbox WHERE id = ?').get(id) as
      Row | undefined;
    return row === undefined ? undefined : changeOf(row);
  }

  /** Every queued change of a scope (or of all), oldest first. */
  list(scope?: CommentScope): QueuedCommentChange[] {
    const rows = (
      scope === undefined
        ? this.db.prepare('SELECT * FROM comment_outbox ORDER BY id').all()
        : this.db
            .prepare(
              'SELECT * FROM comment_outbox WHERE space_id = ? AND change_request = ? ORDER BY id',
            )
            .all(scope.spaceId, scopeKey(scope))
    ) as Row[];
    return rows.map(changeOf);
  }

  /** Acknowledged: gone from the queue (a create's local id stays mapped to `remoteId`). */
  acknowledge(change: QueuedCommentChange, remoteId?: string): void {
    this.db.transaction(() => {
      if (remoteId !== undefined) {
        this.db
          .prepare('INSERT OR REPLACE INTO comment_ids (local_id, remote_id) VALUES (?, ?)')
          .run(localIdOf(change), remoteId);
      }
      this.db.prepare('DELETE FROM comment_outbox WHERE id = ?').run(change.id);
    })();
  }

  /** Refused: kept, with the reason, for the user to see (and edit or drop). */
  fail(change: QueuedCommentChange, error: string): void {
    this.db
      .prepare("UPDATE comment_outbox SET state = 'failed', error = ? WHERE id = ?")
      .run(error, change.id);
  }

  /** Dropped by the user (or superseded): its text is no longer wanted. */
  drop(id: number): void {
    this.db.prepare('DELETE FROM comment_outbox WHERE id = ?').run(id);
  }

  /** The server id of `local-<n>` once created; any other id as it is. */
  resolveId(id: string): string | undefined {
    if (!id.startsWith('local-')) return id;
    const row = this.db.prepare('SELECT remote_id FROM comment_ids WHERE local_id = ?').get(id) as
      { remote_id: string } | undefined;
    return row?.remote_id;
  }
}

function changeOf(row: Row): QueuedCommentChange {
  return {
    id: row.id,
    scope: {
      spaceId: row.space_id,
      changeRequest: row.change_request === 0 ? null : row.change_request,
    },
    kind: row.kind,
    commentId: row.comment_id,
    replyId: row.reply_id,
    payload: JSON.parse(row.payload) as CommentChangePayload,
    idempotencyKey: row.idempotency_key,
    state: row.state,
    error: row.error,
    createdAt: row.created_at,
  };
}
