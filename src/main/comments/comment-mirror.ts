import type { CacheDb } from '../cache/open-cache-database';
import type { CommentScope, RemoteComment, RemoteReply } from './comment-remote';

/** A mirrored comment (`parentId` null) or reply, as the cache holds it. */
export interface MirroredComment {
  id: string;
  parentId: string | null;
  author: { id: string; displayName: string };
  body: string;
  postedAt: string;
  editedAt: string | null;
  page: { id: string; title: string; path: string } | null;
  resolved: boolean;
  reactions: { emoji: string; users: string[] }[];
  canEdit: boolean;
  repliesFingerprint: string | null;
}

interface Row {
  id: string;
  parent_id: string | null;
  author_id: string;
  author_name: string;
  body: string;
  posted_at: string;
  edited_at: string | null;
  page: string | null;
  resolved: number;
  reactions: string;
  can_edit: number;
  replies_fingerprint: string | null;
}

/** The `change_request` column: the number, or 0 for the space's own comments. */
export function scopeKey(scope: CommentScope): number {
  return scope.changeRequest ?? 0;
}

/** Queries over `comments`: what the server last said of each comment and reply. */
export class CommentMirror {
  constructor(private readonly db: CacheDb) {}

  list(scope: CommentScope): MirroredComment[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM comments WHERE space_id = ? AND change_request = ?
           ORDER BY posted_at, rowid`,
      )
      .all(scope.spaceId, scopeKey(scope)) as Row[];
    return rows.map(mirroredOf);
  }

  find(scope: CommentScope, id: string): MirroredComment | undefined {
    const row = this.db
      .prepare('SELECT * FROM comments WHERE space_id = ? AND change_request = ? AND id = ?')
      .get(scope.spaceId, scopeKey(scope), id) as Row | undefined;
    return row === undefined ? undefined : mirroredOf(row);
  }

  /** Writes a comment as the server returned it (its replies' fingerprint kept unless given). */
  putComment(scope: CommentScope, comment: RemoteComment, repliesFingerprint: string | null) {
    this.put(scope, comment, null, {
      page: comment.page,
      resolved: comment.resolved,
      repliesFingerprint,
    });
  }

  putReply(scope: CommentScope, commentId: string, reply: RemoteReply): void {
    this.put(scope, reply, commentId, { page: null, resolved: false, repliesFingerprint: null });
  }

  /** Removes a comment (with its replies) or a reply. */
  remove(scope: CommentScope, id: string): void {
    this.db
      .prepare(
        `DELETE FROM comments WHERE space_id = ? AND change_request = ?
           AND (id = ? OR parent_id = ?)`,
      )
      .run(scope.spaceId, scopeKey(scope), id, id);
  }

  /** Keeps only these replies of a comment. */
  retainReplies(scope: CommentScope, commentId: string, ids: ReadonlySet<string>): void {
    for (const reply of this.list(scope).filter((item) => item.parentId === commentId)) {
      if (!ids.has(reply.id)) this.remove(scope, reply.id);
    }
  }

  setRepliesFingerprint(scope: CommentScope, id: string, fingerprint: string): void {
    this.db
      .prepare(
        `UPDATE comments SET replies_fingerprint = ?
           WHERE space_id = ? AND change_request = ? AND id = ?`,
      )
      .run(fingerprint, scope.spaceId, scopeKey(scope), id);
  }

  private put(
    scope: CommentScope,
    item: RemoteReply,
    parentId: string | null,
    extra: Pick<MirroredComment, 'page' | 'resolved' | 'repliesFingerprint'>,
  ): void {
    this.db
      .prepare(
        `INSERT INTO comments (space_id, change_request, id, parent_id, author_id, author_name,
           body, posted_at, edited_at, page, resolved, reactions, can_edit, replies_fingerprint)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id, change_request, id) DO UPDATE SET
           parent_id = excluded.parent_id, author_id = excluded.author_id,
           author_name = excluded.author_name, body = excluded.body,
           posted_at = excluded.posted_at, edited_at = excluded.edited_at, page = excluded.page,
           resolved = excluded.resolved, reactions = excluded.reactions,
           can_edit = excluded.can_edit,
           replies_fingerprint = coalesce(excluded.replies_fingerprint, replies_fingerprint)`,
      )
      .run(
        scope.spaceId,
        scopeKey(scope),
        item.id,
        parentId,
        item.author.id,
        item.author.displayName,
        item.markdown,
        item.postedAt,
        item.editedAt,
        extra.page === null ? null : JSON.stringify(extra.page),
        extra.resolved ? 1 : 0,
        JSON.stringify(item.reactions),
        item.canEdit ? 1 : 0,
        extra.repliesFingerprint,
      );
  }
}

function mirroredOf(row: Row): MirroredComment {
  return {
    id: row.id,
    parentId: row.parent_id,
    author: { id: row.author_id, displayName: row.author_name },
    body: row.body,
    postedAt: row.posted_at,
    editedAt: row.edited_at,
    page: row.page === null ? null : (JSON.parse(row.page) as MirroredComment['page']),
    resolved: row.resolved === 1,
    reactions: JSON.parse(row.reactions) as MirroredComment['reactions'],
    canEdit: row.can_edit === 1,
    repliesFingerprint: row.replies_fingerprint,
  };
}
