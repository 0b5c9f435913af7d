import type { Db } from '../../db/open-database';

/** Every SQL statement of the link operations. */
export class LinkQueries {
  private readonly spaceStmt;
  private readonly bodiesStmt;
  private readonly activeChangeRequestsStmt;

  constructor(db: Db) {
    this.spaceStmt = db.prepare<[string], { revision_id: string }>(
      'SELECT revision_id FROM spaces WHERE id = ?',
    );
    // One statement for every body of a revision: thousands of pages must not mean thousands of
    // queries.
    this.bodiesStmt = db.prepare<[string], { hash: string; markdown: string }>(
      'SELECT hash, markdown FROM bodies WHERE hash IN (SELECT value FROM json_each(?))',
    );
    this.activeChangeRequestsStmt = db.prepare<[string], { revision_id: string }>(
      `SELECT revision_id FROM change_requests
       WHERE space_id = ? AND status IN ('draft', 'open') ORDER BY number`,
    );
  }

  liveRevision(spaceId: string): string | undefined {
    return this.spaceStmt.get(spaceId)?.revision_id;
  }

  bodies(hashes: readonly string[]): Map<string, string> {
    const rows = this.bodiesStmt.all(JSON.stringify(hashes));
    return new Map(rows.map((row) => [row.hash, row.markdown]));
  }

  /** Revisions of the space's draft and open change requests (their current content). */
  activeChangeRequestRevisions(spaceId: string): string[] {
    return this.activeChangeRequestsStmt.all(spaceId).map((row) => row.revision_id);
  }
}
