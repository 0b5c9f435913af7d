import type { SyncProblemKind } from '../../shared/contract/sync-status';
import type { CacheDb } from './open-cache-database';

export type { SyncProblemKind };

/** Problems the push side records; each push replaces the space's previous ones. */
export const PUSH_PROBLEM_KINDS: ReadonlySet<SyncProblemKind> = new Set([
  'not-pushed',
  'push-blocked',
  'folder-missing',
  'push-failed',
]);

export interface SyncProblem {
  id: number;
  spaceId: string;
  kind: SyncProblemKind;
  /** Relative to the space folder. */
  path: string | null;
  pageId: string | null;
  message: string;
  createdAt: string;
}

interface ProblemRow {
  id: number;
  space_id: string;
  kind: SyncProblemKind;
  path: string | null;
  page_id: string | null;
  message: string;
  created_at: string;
}

/** Queries over `sync_problems`: what a sync could not do on its own and the user should see. */
export class SyncProblems {
  constructor(private readonly db: CacheDb) {}

  /** Adds a problem unless the same one (space, kind, path) is already recorded. */
  add(problem: Omit<SyncProblem, 'id'>): void {
    const existing = this.db
      .prepare('SELECT id FROM sync_problems WHERE space_id = ? AND kind = ? AND path IS ?')
      .get(problem.spaceId, problem.kind, problem.path);
    if (existing) return;
    this.db
      .prepare(
        `INSERT INTO sync_problems (space_id, kind, path, page_id, message, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(
        problem.spaceId,
        problem.kind,
        problem.path,
        problem.pageId,
        problem.message,
        problem.createdAt,
      );
  }

  list(spaceId?: string): SyncProblem[] {
    const rows = (
      spaceId === undefined
        ? this.db.prepare('SELECT * FROM sync_problems ORDER BY id').all()
        : this.db.prepare('SELECT * FROM sync_problems WHERE space_id = ? ORDER BY id').all(spaceId)
    ) as ProblemRow[];
    return rows.map((row) => ({
      id: row.id,
      spaceId: row.space_id,
      kind: row.kind,
      path: row.path,
      pageId: row.page_id,
      message: row.message,
      createdAt: row.created_at,
    }));
  }

  /** Removes a problem once resolved (e.g. the user removed the kept file). */
  remove(id: number): void {
    this.db.prepare('DELETE FROM sync_problems WHERE id = ?').run(id);
  }

  /** Removes problems of one kind at one path (a later sync resolved them). */
  resolve(spaceId: string, kind: SyncProblemKind, path: string): void {
    this.db
      .prepare('DELETE FROM sync_problems WHERE space_id = ? AND kind = ? AND path = ?')
      .run(spaceId, kind, path);
  }
}
