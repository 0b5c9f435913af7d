import type { Db } from '../../db/open-database';
import { prepareCached } from '../../db/prepare-cached';
import { paginate, type Page, type PageQuery } from '../../http/paginate';
import { newId } from '../../ids';
import type { UserRow } from '../users/user-serializer';

export type CommentStatus = 'open' | 'resolved';

export interface CommentRow {
  id: string;
  space_id: string;
  change_request_id: string | null;
  page_id: string | null;
  node_id: string | null;
  revision_id: string | null;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
  body: string;
  status: CommentStatus;
  resolved_at: string | null;
  resolved_by: string | null;
}

export interface ReplyRow {
  id: string;
  comment_id: string;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
  body: string;
}

export interface ReactionRow {
  target_id: string;
  emoji: string;
  user_id: string;
  reacted_at: string;
}

/** Per comment and replier: how many replies, the first and the latest. */
export interface ReplierRow {
  comment_id: string;
  user_id: string;
  count: number;
  first_at: string;
  last_at: string;
}

/** Where comments live: a space's own (changeRequestId null) or one change request's. */
export interface CommentPlace {
  spaceId: string;
  changeRequestId: string | null;
}

export interface CommentFilter {
  order: 'asc' | 'desc';
  status: 'all' | CommentStatus;
  targetPage: string | undefined;
  authors: string[] | undefined;
}

export interface NewComment {
  pageId: string | null;
  nodeId: string | null;
  revisionId: string;
  userId: string;
  body: string;
  now: string;
}

/** Every SQL statement about comments, replies and reactions (bound parameters only). */
export class CommentQueries {
  constructor(private readonly db: Db) {}

  spaceRevision(spaceId: string): string | undefined {
    return prepareCached<[string], { revision_id: string }>(
      this.db,
      'SELECT revision_id FROM spaces WHERE id = ?',
    ).get(spaceId)?.revision_id;
  }

  /**
   * A comment of exactly this place: a change-request comment is not found through the space's
   * paths, nor a space comment through a change request's (`IS` compares NULL too).
   */
  comment(place: CommentPlace, id: string): CommentRow | undefined {
    return prepareCached<[string, string, string | null], CommentRow>(
      this.db,
      'SELECT * FROM comments WHERE id = ? AND space_id = ? AND change_request_id IS ?',
    ).get(id, place.spaceId, place.changeRequestId);
  }

  listComments(place: CommentPlace, filter: CommentFilter, page: PageQuery): Page<CommentRow> {
    const where = ['space_id = ?', 'change_request_id IS ?'];
    const params: unknown[] = [place.spaceId, place.changeRequestId];
    if (filter.status !== 'all') {
      where.push('status = ?');
      params.push(filter.status);
    }
    if (filter.targetPage !== undefined) {
      where.push('page_id = ?');
      params.push(filter.targetPage);
    }
    const authors = filter.authors ? [...new Set(filter.authors)].sort() : undefined;
    if (authors) {
      where.push('posted_by IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(authors));
    }
    return paginate<CommentRow>(
      this.db,
      {
        from: 'SELECT * FROM comments',
        where,
        params,
        orderBy: ['posted_at', 'id'],
        direction: filter.order === 'asc' ? 'ASC' : 'DESC',
        keyOf: (row) => [row['posted_at'], row['id']],
        scope: `comments:${JSON.stringify([place, filter.order, filter.status, filter.targetPage ?? null, authors ?? null])}`,
      },
      page,
    );
  }

  insertComment(place: CommentPlace, comment: NewComment): string {
    const id = newId();
    prepareCached(
      this.db,
      `INSERT INTO comments (id, space_id, change_request_id, page_id, node_id, revision_id,
           posted_by, posted_at, body, status)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open')`,
    ).run(
      id,
      place.spaceId,
      place.changeRequestId,
      comment.pageId,
      comment.nodeId,
      comment.revisionId,
      comment.userId,
      comment.now,
      comment.body,
    );
    return id;
  }

  setCommentBody(id: string, body: string, now: string): void {
    prepareCached(this.db, 'UPDATE comments SET body = ?, edited_at = ? WHERE id = ?').run(
      body,
      now,
      id,
    );
  }

  resolveComment(id: string, userId: string, now: string): void {
    // Resolving an already resolved comment keeps who resolved it first, and when.
    prepareCached(
      this.db,
      `UPDATE comments SET status = 'resolved', resolved_at = ?, resolved_by = ?
         WHERE id = ? AND status = 'open'`,
    ).run(now, userId, id);
  }

  reopenComment(id: string): void {
    prepareCached(
      this.db,
      "UPDATE comments SET status = 'open', resolved_at = NULL, resolved_by = NULL WHERE id = ?",
    ).run(id);
  }

  /** The comment, its replies and every reaction on either (reactions have no foreign key). */
  deleteComment(id: string): void {
    prepareCached(
      this.db,
      `DELETE FROM reactions WHERE target_id = ?
           OR target_id IN (SELECT id FROM comment_replies WHERE comment_id = ?)`,
    ).run(id, id);
    prepareCached(this.db, 'DELETE FROM comment_replies WHERE comment_id = ?').run(id);
    prepareCached(this.db, 'DELETE FROM comments WHERE id = ?').run(id);
  }

  reply(commentId: string, id: string): ReplyRow | undefined {
    return prepareCached<[string, string], ReplyRow>(
      this.db,
      'SELECT * FROM comment_replies WHERE id = ? AND comment_id = ?',
    ).get(id, commentId);
  }

  /** Replies oldest first: a thread reads top to bottom. */
  listReplies(commentId: string, page: PageQuery): Page<ReplyRow> {
    return paginate<ReplyRow>(
      this.db,
      {
        from: 'SELECT * FROM comment_replies',
        where: ['comment_id = ?'],
        params: [commentId],
        orderBy: ['posted_at', 'id'],
        direction: 'ASC',
        keyOf: (row) => [row['posted_at'], row['id']],
        scope: `replies:${commentId}`,
      },
      page,
    );
  }

  insertReply(commentId: string, userId: string, body: string, now: string): string {
    const id = newId();
    prepareCached(
      this.db,
      'INSERT INTO comment_replies (id, comment_id, posted_by, posted_at, body) VALUES (?, ?, ?, ?, ?)',
    ).run(id, commentId, userId, now, body);
    return id;
  }

  setReplyBody(id: string, body: string, now: string): void {
    prepareCached(this.db, 'UPDATE comment_replies SET body = ?, edited_at = ? WHERE id = ?').run(
      body,
      now,
      id,
    );
  }

  deleteReply(id: string): void {
    prepareCached(this.db, 'DELETE FROM reactions WHERE target_id = ?').run(id);
    prepareCached(this.db, 'DELETE FROM comment_replies WHERE id = ?').run(id);
  }

  /** Adding a reaction the user already has is a no-op (it keeps its first time). */
  addReactions(targetId: string, userId: string, emojis: readonly string[], now: string): void {
    const insert = prepareCached(
      this.db,
      'INSERT OR IGNORE INTO reactions (target_id, emoji, user_id, reacted_at) VALUES (?, ?, ?, ?)',
    );
    for (const emoji of emojis) insert.run(targetId, emoji, userId, now);
  }

  removeReactions(targetId: string, userId: string, emojis: readonly string[]): void {
    const remove = prepareCached(
      this.db,
      'DELETE FROM reactions WHERE target_id = ? AND emoji = ? AND user_id = ?',
    );
    for (const emoji of emojis) remove.run(targetId, emoji, userId);
  }

  reactionCount(targetId: string, userId: string): number {
    return prepareCached<[string, string], { n: number }>(
      this.db,
      'SELECT count(*) AS n FROM reactions WHERE target_id = ? AND user_id = ?',
    ).get(targetId, userId)!.n;
  }

  /**
   * Reactions on any of the targets, oldest first (the order emoji groups and users appear in);
   * rowid keeps the order of the emoji one request added at the same instant.
   */
  reactions(targetIds: readonly string[]): ReactionRow[] {
    if (targetIds.length === 0) return [];
    return prepareCached<[string], ReactionRow>(
      this.db,
      `SELECT * FROM reactions WHERE target_id IN (SELECT value FROM json_each(?))
         ORDER BY reacted_at, rowid`,
    ).all(JSON.stringify(targetIds));
  }

  /** Who replied to each of the comments, in the order they first replied. */
  repliers(commentIds: readonly string[]): ReplierRow[] {
    if (commentIds.length === 0) return [];
    return prepareCached<[string], ReplierRow>(
      this.db,
      `SELECT comment_id, posted_by AS user_id, count(*) AS count,
                min(posted_at) AS first_at, max(posted_at) AS last_at
         FROM comment_replies WHERE comment_id IN (SELECT value FROM json_each(?))
         GROUP BY comment_id, posted_by ORDER BY comment_id, first_at, posted_by`,
    ).all(JSON.stringify(commentIds));
  }

  users(userIds: Iterable<string>): Map<string, UserRow> {
    const ids = [...new Set(userIds)];
    const users = new Map<string, UserRow>();
    if (ids.length === 0) return users;
    const rows = prepareCached<[string], UserRow>(
      this.db,
      `SELECT id, display_name, email, photo_url FROM users
         WHERE id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ids));
    for (const row of rows) users.set(row.id, row);
    return users;
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }
}
