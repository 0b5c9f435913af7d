import type { Db } from '../../db/open-database';
import { newId } from '../../ids';

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

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

/** Every SQL statement about change requests. */
export class ChangeRequestQueries {
  constructor(private readonly db: Db) {}

  /** `ref` is the change request id or its number within the space (`{CR}` in the spec). */
  find(spaceId: string, ref: string): ChangeRequestRow | undefined {
    if (/^[1-9][0-9]{0,15}$/.test(ref)) {
      const byNumber = this.db
        .prepare<[string, number], ChangeRequestRow>('SELECT * FROM change_requests WHERE space_id = ? AND number = ?')
        .get(spaceId, Number(ref));
      if (byNumber) return byNumber;
    }
    return this.db
      .prepare<[string, string], ChangeRequestRow>('SELECT * FROM change_requests WHERE space_id = ? AND id = ?')
      .get(spaceId, ref);
  }

  /** Creates a draft on top of the space's live revision; numbers count up per space. */
  create(spaceId: string, userId: string, subject: string, revisionId: string, now: string): ChangeRequestRow {
    const id = newId();
    const next = this.db
      .prepare<[string], { n: number }>('SELECT coalesce(max(number), 0) + 1 AS n FROM change_requests WHERE space_id = ?')
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

  addContributor(changeRequestId: string, userId: string): void {
    this.db
      .prepare('INSERT OR IGNORE INTO change_request_contributors (change_request_id, user_id) VALUES (?, ?)')
      .run(changeRequestId, userId);
  }

  setRevision(id: string, revisionId: string, now: string): void {
    this.db.prepare('UPDATE change_requests SET revision_id = ?, updated_at = ? WHERE id = ?').run(revisionId, now, id);
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

  update(id: string, patch: { subject?: string; status?: ChangeRequestStatus }, now: string): void {
    if (patch.subject !== undefined) this.db.prepare('UPDATE change_requests SET subject = ? WHERE id = ?').run(patch.subject, id);
    if (patch.status !== undefined) this.db.prepare('UPDATE change_requests SET status = ? WHERE id = ?').run(patch.status, id);
    this.db.prepare('UPDATE change_requests SET updated_at = ? WHERE id = ?').run(now, id);
  }

  openComments(id: string): number {
    return this.db
      .prepare<[string], { n: number }>("SELECT count(*) AS n FROM comments WHERE change_request_id = ? AND status = 'open'")
      .get(id)!.n;
  }
}
