import type { Db } from '../../db/open-database';
import type { KeysetQuery } from '../../http/paginate';
import { newId } from '../../ids';
import type { UserRow } from '../users/user-serializer';

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';
export type ReviewStatus = 'approved' | 'changes-requested';

export interface ChangeRequestRow {
  id: string;
  space_id: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  revision_id: string;
  revision_initial: string;
  revision_merged_ancestor: string | null;
  revision_merged: string | null;
  merged_by: string | null;
  merged_at: string | null;
}

export interface ReviewRow {
  id: string;
  change_request_id: string;
  reviewer_id: string;
  status: ReviewStatus;
  revision_id: string;
  created_at: string;
  /** 1 when a later review by the same reviewer, or a later request to them, supersedes it. */
  outdated: number;
}

export interface RequestedReviewerRow {
  change_request_id: string;
  user_id: string;
  requested_at: string;
}

export interface ChangeRequestFilter {
  spaceId: string;
  status: ChangeRequestStatus;
  creator?: string | undefined;
  contributor?: string | undefined;
  requestedReviewer?: string | undefined;
  orderBy: 'updatedAt' | 'createdAt';
}

/**
 * Whether a review is superseded: the same reviewer reviewed again later, or was asked again
 * after it (GitBook's "superseded by a newer review request or submission").
 */
const REVIEW_OUTDATED = `(
  EXISTS (SELECT 1 FROM change_request_reviews later
          WHERE later.change_request_id = r.change_request_id AND later.reviewer_id = r.reviewer_id
            AND (later.created_at, later.id) > (r.created_at, r.id))
  OR EXISTS (SELECT 1 FROM change_request_requested_reviewers q
             WHERE q.change_request_id = r.change_request_id AND q.user_id = r.reviewer_id
               AND q.requested_at > r.created_at)
)`;

/** Every SQL statement about change requests, their reviews and requested reviewers. */
export class ChangeRequestQueries {
  constructor(private readonly db: Db) {}

  /** `ref` is the change request id or its number within the space (`{CR}` in the spec). */
  find(spaceId: string, ref: string): ChangeRequestRow | undefined {
    if (/^[1-9][0-9]{0,15}$/.test(ref)) {
      const byNumber = this.db
        .prepare<[string, number], ChangeRequestRow>(
          'SELECT * FROM change_requests WHERE space_id = ? AND number = ?',
        )
        .get(spaceId, Number(ref));
      if (byNumber) return byNumber;
    }
    return this.db
      .prepare<[string, string], ChangeRequestRow>(
        'SELECT * FROM change_requests WHERE space_id = ? AND id = ?',
      )
      .get(spaceId, ref);
  }

  /** Creates a draft on top of the space's live revision; numbers count up per space. */
  create(
    spaceId: string,
    userId: string,
    subject: string,
    revisionId: string,
    now: string,
  ): ChangeRequestRow {
    const id = newId();
    const next = this.db
      .prepare<[string], { n: number }>(
        'SELECT coalesce(max(number), 0) + 1 AS n FROM change_requests WHERE space_id = ?',
      )
      .get(spaceId)!.n;
    this.db
      .prepare(
        `INSERT INTO change_requests (id, space_id, number, status, subject, created_by, created_at, updated_at,
           revision_id, revision_initial)
         VALUES (?, ?, ?, 'draft', ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, spaceId, next, subject, userId, now, now, revisionId, revisionId);
    this.addContributor(id, userId);
    return this.find(spaceId, id)!;
  }

  /** The keyset query of a space's change requests, newest activity (or creation) first. */
  listQuery(filter: ChangeRequestFilter): KeysetQuery {
    const where = ['space_id = ?', 'status = ?'];
    const params: unknown[] = [filter.spaceId, filter.status];
    if (filter.creator !== undefined) {
      where.push('created_by = ?');
      params.push(filter.creator);
    }
    if (filter.contributor !== undefined) {
      where.push(
        'EXISTS (SELECT 1 FROM change_request_contributors c WHERE c.change_request_id = change_requests.id AND c.user_id = ?)',
      );
      params.push(filter.contributor);
    }
    if (filter.requestedReviewer !== undefined) {
      where.push(
        'EXISTS (SELECT 1 FROM change_request_requested_reviewers q WHERE q.change_request_id = change_requests.id AND q.user_id = ?)',
      );
      params.push(filter.requestedReviewer);
    }
    // `number` is unique per space and grows with creation time, so it orders "createdAt" and
    // breaks ties of `updated_at`.
    const byUpdate = filter.orderBy === 'updatedAt';
    return {
      from: 'SELECT * FROM change_requests',
      where,
      params,
      orderBy: byUpdate ? ['updated_at', 'number'] : ['number'],
      direction: 'DESC',
      keyOf: (row) => (byUpdate ? [row['updated_at'], row['number']] : [row['number']]),
      scope: `change-requests:${JSON.stringify([
        filter.spaceId,
        filter.status,
        filter.creator ?? null,
        filter.contributor ?? null,
        filter.requestedReviewer ?? null,
        filter.orderBy,
      ])}`,
    };
  }

  addContributor(changeRequestId: string, userId: string): void {
    this.db
      .prepare(
        'INSERT OR IGNORE INTO change_request_contributors (change_request_id, user_id) VALUES (?, ?)',
      )
      .run(changeRequestId, userId);
  }

  setRevision(id: string, revisionId: string, now: string): void {
    this.db
      .prepare('UPDATE change_requests SET revision_id = ?, updated_at = ? WHERE id = ?')
      .run(revisionId, now, id);
  }

  /** After "update": the change request now sits on `mainRevision`, with merged content `revisionId`. */
  setUpdated(id: string, revisionId: string, mainRevision: string, now: string): void {
    this.db
      .prepare(
        'UPDATE change_requests SET revision_id = ?, revision_merged_ancestor = ?, updated_at = ? WHERE id = ?',
      )
      .run(revisionId, mainRevision, now, id);
  }

  setMerged(id: string, mergedRevision: string, userId: string, now: string): void {
    this.db
      .prepare(
        `UPDATE change_requests SET status = 'merged', revision_merged = ?, merged_by = ?, merged_at = ?, updated_at = ?
         WHERE id = ?`,
      )
      .run(mergedRevision, userId, now, now, id);
  }

  update(
    id: string,
    patch: { subject?: string | undefined; status?: ChangeRequestStatus | undefined },
    now: string,
  ): void {
    if (patch.subject !== undefined)
      this.db.prepare('UPDATE change_requests SET subject = ? WHERE id = ?').run(patch.subject, id);
    if (patch.status !== undefined)
      this.db.prepare('UPDATE change_requests SET status = ? WHERE id = ?').run(patch.status, id);
    this.db.prepare('UPDATE change_requests SET updated_at = ? WHERE id = ?').run(now, id);
  }

  openComments(id: string): number {
    return this.db
      .prepare<[string], { n: number }>(
        "SELECT count(*) AS n FROM comments WHERE change_request_id = ? AND status = 'open'",
      )
      .get(id)!.n;
  }

  user(userId: string): UserRow | undefined {
    return this.db
      .prepare<[string], UserRow>(
        'SELECT id, display_name, email, photo_url FROM users WHERE id = ?',
      )
      .get(userId);
  }

  spaceRevision(spaceId: string): string | undefined {
    return this.db
      .prepare<[string], { revision_id: string }>('SELECT revision_id FROM spaces WHERE id = ?')
      .get(spaceId)?.revision_id;
  }

  spaceEditMode(spaceId: string): string | undefined {
    return this.db
      .prepare<[string], { edit_mode: string }>('SELECT edit_mode FROM spaces WHERE id = ?')
      .get(spaceId)?.edit_mode;
  }

  /** Main moves: the space's live revision becomes `revisionId`. */
  setSpaceRevision(spaceId: string, revisionId: string, now: string): void {
    this.db
      .prepare('UPDATE spaces SET revision_id = ?, updated_at = ? WHERE id = ?')
      .run(revisionId, now, spaceId);
  }

  // --- reviews ----------------------------------------------------------------------------------

  insertReview(
    changeRequestId: string,
    reviewerId: string,
    status: ReviewStatus,
    revisionId: string,
    now: string,
  ): string {
    const id = newId();
    this.db
      .prepare(
        `INSERT INTO change_request_reviews (id, change_request_id, reviewer_id, status, revision_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(id, changeRequestId, reviewerId, status, revisionId, now);
    return id;
  }

  review(changeRequestId: string, reviewId: string): ReviewRow | undefined {
    return this.db
      .prepare<[string, string], ReviewRow>(
        `SELECT r.*, ${REVIEW_OUTDATED} AS outdated FROM change_request_reviews r
         WHERE r.change_request_id = ? AND r.id = ?`,
      )
      .get(changeRequestId, reviewId);
  }

  /** Reviews oldest first (the order they were submitted), optionally only (not) outdated ones. */
  reviewsQuery(changeRequestId: string, outdated: boolean | undefined): KeysetQuery {
    const where: string[] = [];
    const params: unknown[] = [changeRequestId];
    if (outdated !== undefined) {
      where.push('outdated = ?');
      params.push(outdated ? 1 : 0);
    }
    return {
      from: `SELECT * FROM (SELECT r.*, ${REVIEW_OUTDATED} AS outdated FROM change_request_reviews r
             WHERE r.change_request_id = ?)`,
      where,
      params,
      orderBy: ['created_at', 'id'],
      direction: 'ASC',
      keyOf: (row) => [row['created_at'], row['id']],
      scope: `reviews:${JSON.stringify([changeRequestId, outdated ?? null])}`,
    };
  }

  // --- requested reviewers ----------------------------------------------------------------------

  /** Asks `userId` (again): a repeated request moves its time, which outdates earlier reviews. */
  requestReviewer(changeRequestId: string, userId: string, now: string): void {
    this.db
      .prepare(
        `INSERT INTO change_request_requested_reviewers (change_request_id, user_id, requested_at)
         VALUES (?, ?, ?)
         ON CONFLICT (change_request_id, user_id) DO UPDATE SET requested_at = excluded.requested_at`,
      )
      .run(changeRequestId, userId, now);
  }

  requestedReviewer(changeRequestId: string, userId: string): RequestedReviewerRow | undefined {
    return this.db
      .prepare<[string, string], RequestedReviewerRow>(
        'SELECT * FROM change_request_requested_reviewers WHERE change_request_id = ? AND user_id = ?',
      )
      .get(changeRequestId, userId);
  }

  /** Returns whether a request was removed. */
  removeRequestedReviewer(changeRequestId: string, userId: string): boolean {
    return (
      this.db
        .prepare(
          'DELETE FROM change_request_requested_reviewers WHERE change_request_id = ? AND user_id = ?',
        )
        .run(changeRequestId, userId).changes > 0
    );
  }

  requestedReviewersQuery(changeRequestId: string): KeysetQuery {
    return {
      from: 'SELECT * FROM change_request_requested_reviewers',
      where: ['change_request_id = ?'],
      params: [changeRequestId],
      orderBy: ['requested_at', 'user_id'],
      direction: 'ASC',
      keyOf: (row) => [row['requested_at'], row['user_id']],
      scope: `requested-reviewers:${changeRequestId}`,
    };
  }
}
