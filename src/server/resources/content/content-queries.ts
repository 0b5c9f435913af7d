import type { Db } from '../../db/open-database';
import type { RevisionTree } from '../../content/revision-tree';
import type { ChangeRequestRow } from '../change-requests/change-request-queries';
import type { UserRow } from '../users/user-serializer';

export interface ContentSpaceRow {
  id: string;
  organization_id: string;
  visibility: string;
  revision_id: string;
  deleted_at: string | null;
}

/** A revision without its tree: enough to check ownership and answer from a cached response. */
export interface RevisionMetaRow {
  id: string;
  space_id: string;
  parents: string;
  type: string;
  created_at: string;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** Parsed trees kept in memory; a tree is a few MB for thousands of pages. */
const TREE_CACHE_ENTRIES = 16;

/**
 * Every SQL statement of the content reads. Revisions are immutable, so parsed trees are cached
 * by id, deeply frozen: callers copy a tree (structuredClone) to derive a new one.
 */
export class ContentQueries {
  private readonly spaceStmt;
  private readonly revisionStmt;
  private readonly treeStmt;
  private readonly bodyStmt;
  private readonly bodiesStmt;
  private readonly quotedBodiesStmt;
  private readonly blobStmt;
  private readonly mergedFromStmt;
  private readonly userStmt;
  private readonly openCommentsStmt;
  private readonly trees = new Map<string, RevisionTree>();

  constructor(db: Db) {
    this.spaceStmt = db.prepare<[string], ContentSpaceRow>(
      'SELECT id, organization_id, visibility, revision_id, deleted_at FROM spaces WHERE id = ?',
    );
    this.revisionStmt = db.prepare<[string], RevisionMetaRow>(
      'SELECT id, space_id, parents, type, created_at FROM revisions WHERE id = ?',
    );
    this.treeStmt = db.prepare<[string], { tree: string }>(
      'SELECT tree FROM revisions WHERE id = ?',
    );
    this.bodyStmt = db.prepare<[string], { markdown: string }>(
      'SELECT markdown FROM bodies WHERE hash = ?',
    );
    // One statement for any number of bodies: whole-space reads must not run one query per page.
    this.bodiesStmt = db.prepare<[string], { hash: string; markdown: string }>(
      'SELECT hash, markdown FROM bodies WHERE hash IN (SELECT value FROM json_each(?))',
    );
    // The same, each body already a quoted JSON string in UTF-8 bytes (see revision-json.ts).
    this.quotedBodiesStmt = db.prepare<[string], { hash: string; quoted: Buffer }>(
      `SELECT hash, CAST(json_quote(markdown) AS BLOB) AS quoted
       FROM bodies WHERE hash IN (SELECT value FROM json_each(?))`,
    );
    this.blobStmt = db.prepare<[string], { bytes: Buffer }>(
      'SELECT bytes FROM blobs WHERE hash = ?',
    );
    this.mergedFromStmt = db.prepare<[string, string], ChangeRequestRow>(
      'SELECT * FROM change_requests WHERE space_id = ? AND revision_merged = ? LIMIT 1',
    );
    this.userStmt = db.prepare<[string], UserRow>(
      'SELECT id, display_name, email, photo_url FROM users WHERE id = ?',
    );
    this.openCommentsStmt = db.prepare<[string], { n: number }>(
      "SELECT count(*) AS n FROM comments WHERE change_request_id = ? AND status = 'open'",
    );
  }

  space(spaceId: string): ContentSpaceRow | undefined {
    return this.spaceStmt.get(spaceId);
  }

  revision(revisionId: string): RevisionMetaRow | undefined {
    return this.revisionStmt.get(revisionId);
  }

  tree(revisionId: string): RevisionTree | undefined {
    const cached = this.trees.get(revisionId);
    if (cached) {
      this.trees.delete(revisionId);
      this.trees.set(revisionId, cached);
      return cached;
    }
    const row = this.treeStmt.get(revisionId);
    if (!row) return undefined;
    // Frozen: a shared tree changed by mistake would corrupt every later read of the revision;
    // this way the mistake throws where it happens (ES modules are strict).
    const tree = deepFreeze(JSON.parse(row.tree) as RevisionTree);
    this.trees.set(revisionId, tree);
    if (this.trees.size > TREE_CACHE_ENTRIES) {
      const oldest = this.trees.keys().next().value;
      if (oldest !== undefined) this.trees.delete(oldest);
    }
    return tree;
  }

  body(hash: string): string | undefined {
    return this.bodyStmt.get(hash)?.markdown;
  }

  /** The Markdown of every given body hash, in one statement. */
  bodies(hashes: readonly string[]): Map<string, string> {
    const bodies = new Map<string, string>();
    if (hashes.length === 0) return bodies;
    for (const row of this.bodiesStmt.iterate(JSON.stringify(hashes))) {
      bodies.set(row.hash, row.markdown);
    }
    return bodies;
  }

  /** Each given body as the UTF-8 bytes of a JSON string literal, in one statement. */
  quotedBodies(hashes: readonly string[]): Map<string, Buffer> {
    const bodies = new Map<string, Buffer>();
    if (hashes.length === 0) return bodies;
    for (const row of this.quotedBodiesStmt.iterate(JSON.stringify(hashes))) {
      bodies.set(row.hash, row.quoted);
    }
    return bodies;
  }

  blob(hash: string): Buffer | undefined {
    return this.blobStmt.get(hash)?.bytes;
  }

  /** The change request whose merge produced `revisionId`, if any. */
  mergedFrom(spaceId: string, revisionId: string): ChangeRequestRow | undefined {
    return this.mergedFromStmt.get(spaceId, revisionId);
  }

  user(userId: string): UserRow | undefined {
    return this.userStmt.get(userId);
  }

  openComments(changeRequestId: string): number {
    return this.openCommentsStmt.get(changeRequestId)?.n ?? 0;
  }
}
