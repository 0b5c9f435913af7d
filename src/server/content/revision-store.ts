import { createHash } from 'node:crypto';
import type { Db } from '../db/open-database';
import { newId } from '../ids';
import type { RevisionTree } from './revision-tree';

export interface RevisionRow {
  id: string;
  space_id: string;
  parents: string;
  type: string;
  tree: string;
  created_at: string;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Content-addressed storage of bodies and file bytes, and immutable revisions. */
export class RevisionStore {
  constructor(private readonly db: Db) {}

  /** Stores a Markdown body once per distinct content; returns its hash. */
  putBody(markdown: string): string {
    const hash = sha256(markdown);
    this.db
      .prepare('INSERT OR IGNORE INTO bodies (hash, markdown) VALUES (?, ?)')
      .run(hash, markdown);
    return hash;
  }

  getBody(hash: string): string | undefined {
    return this.db
      .prepare<[string], { markdown: string }>('SELECT markdown FROM bodies WHERE hash = ?')
      .get(hash)?.markdown;
  }

  putBlob(bytes: Uint8Array): string {
    const hash = sha256(bytes);
    this.db.prepare('INSERT OR IGNORE INTO blobs (hash, bytes) VALUES (?, ?)').run(hash, bytes);
    return hash;
  }

  getBlob(hash: string): Buffer | undefined {
    return this.db
      .prepare<[string], { bytes: Buffer }>('SELECT bytes FROM blobs WHERE hash = ?')
      .get(hash)?.bytes;
  }

  create(
    spaceId: string,
    tree: RevisionTree,
    parents: string[],
    type: string,
    createdAt: string,
  ): string {
    const id = newId();
    this.db
      .prepare(
        'INSERT INTO revisions (id, space_id, parents, type, tree, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(id, spaceId, JSON.stringify(parents), type, JSON.stringify(tree), createdAt);
    return id;
  }

  get(id: string): RevisionRow | undefined {
    return this.db.prepare<[string], RevisionRow>('SELECT * FROM revisions WHERE id = ?').get(id);
  }

  tree(id: string): RevisionTree | undefined {
    const row = this.get(id);
    return row ? (JSON.parse(row.tree) as RevisionTree) : undefined;
  }
}
