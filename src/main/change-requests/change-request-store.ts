import type { CacheDb } from '../cache/open-cache-database';
import type {
  RemoteChangeRequest,
  RemoteContributor,
  RemoteRequestedReviewer,
  RemoteReview,
} from '../sync-ports';

/** What a change request is compared with: the main revision it was last based on. */
export function baseRevisionOf(cr: RemoteChangeRequest): string {
  return cr.revisionMergedAncestor ?? cr.revisionInitial;
}

/** What the listing says of a change request; when it has not moved, nothing is refetched. */
export function fingerprintOf(cr: RemoteChangeRequest): string {
  return JSON.stringify([
    cr.updatedAt,
    cr.status,
    cr.subject,
    cr.revision,
    baseRevisionOf(cr),
    cr.outdated,
    cr.comments,
  ]);
}

export interface ChangeRequestDetails {
  reviews: RemoteReview[];
  requestedReviewers: RemoteRequestedReviewer[];
  contributors: RemoteContributor[];
}

/** A mirrored change request with everything cached about it. */
export interface MirroredChangeRequest extends ChangeRequestDetails {
  spaceId: string;
  changeRequest: RemoteChangeRequest;
  baseRevisionId: string;
  pinned: boolean;
  fetchedAt: string;
}

interface Row {
  space_id: string;
  json: string;
  base_revision_id: string;
  reviews: string;
  requested_reviewers: string;
  contributors: string;
  fetched_at: string;
  pinned: number;
}

const SELECT = `SELECT c.*, EXISTS (SELECT 1 FROM change_request_pins p
    WHERE p.space_id = c.space_id AND p.number = c.number) AS pinned
  FROM change_requests c`;

/** Queries over `change_requests` and `change_request_pins`. */
export class ChangeRequestStore {
  constructor(private readonly db: CacheDb) {}

  /** The fingerprint of each cached change request of a space, by id. */
  fingerprints(spaceId: string): Map<string, string> {
    const rows = this.db
      .prepare('SELECT id, fingerprint FROM change_requests WHERE space_id = ?')
      .all(spaceId) as { id: string; fingerprint: string }[];
    return new Map(rows.map((row) => [row.id, row.fingerprint]));
  }

  upsert(cr: RemoteChangeRequest, details: ChangeRequestDetails, at: string): void {
    // A number freed by a change request deleted remotely may be reused: the newest wins.
    this.db
      .prepare('DELETE FROM change_requests WHERE space_id = ? AND number = ? AND id != ?')
      .run(cr.space, cr.number, cr.id);
    this.db
      .prepare(
        `INSERT OR REPLACE INTO change_requests (space_id, id, number, status, subject, revision_id,
           base_revision_id, outdated, created_by, updated_at, fingerprint, json, reviews,
           requested_reviewers, contributors, fetched_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        cr.space,
        cr.id,
        cr.number,
        cr.status,
        cr.subject,
        cr.revision,
        baseRevisionOf(cr),
        cr.outdated ? 1 : 0,
        cr.createdBy.id,
        cr.updatedAt,
        fingerprintOf(cr),
        JSON.stringify(cr),
        JSON.stringify(details.reviews),
        JSON.stringify(details.requestedReviewers),
        JSON.stringify(details.contributors),
        at,
      );
  }

  remove(spaceId: string, id: string): void {
    this.db.prepare('DELETE FROM change_requests WHERE space_id = ? AND id = ?').run(spaceId, id);
  }

  /** Every mirrored change request (of spaces still cached), most recently updated first. */
  list(): MirroredChangeRequest[] {
    const rows = this.db
      .prepare(`${SELECT} ORDER BY c.updated_at DESC, c.space_id, c.number DESC`)
      .all() as Row[];
    return rows.map(mirroredOf);
  }

  /** One change request by its number in the space. */
  find(spaceId: string, number: number): MirroredChangeRequest | undefined {
    const row = this.db
      .prepare(`${SELECT} WHERE c.space_id = ? AND c.number = ?`)
      .get(spaceId, number) as Row | undefined;
    return row ? mirroredOf(row) : undefined;
  }

  pin(spaceId: string, number: number, at: string): void {
    this.db
      .prepare(
        'INSERT OR IGNORE INTO change_request_pins (space_id, number, pinned_at) VALUES (?, ?, ?)',
      )
      .run(spaceId, number, at);
  }

  unpin(spaceId: string, number: number): void {
    this.db
      .prepare('DELETE FROM change_request_pins WHERE space_id = ? AND number = ?')
      .run(spaceId, number);
  }

  /** Pinned numbers of a space. */
  pins(spaceId: string): number[] {
    const rows = this.db
      .prepare('SELECT number FROM change_request_pins WHERE space_id = ? ORDER BY number')
      .all(spaceId) as { number: number }[];
    return rows.map((row) => row.number);
  }
}

function mirroredOf(row: Row): MirroredChangeRequest {
  return {
    spaceId: row.space_id,
    changeRequest: JSON.parse(row.json) as RemoteChangeRequest,
    baseRevisionId: row.base_revision_id,
    reviews: JSON.parse(row.reviews) as RemoteReview[],
    requestedReviewers: JSON.parse(row.requested_reviewers) as RemoteRequestedReviewer[],
    contributors: JSON.parse(row.contributors) as RemoteContributor[],
    pinned: row.pinned === 1,
    fetchedAt: row.fetched_at,
  };
}
