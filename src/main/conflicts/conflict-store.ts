import type { ConflictKind } from '../../shared/contract/conflicts';
import type { CacheDb } from '../cache/open-cache-database';

/** See migration 0004 for what each kind means. */
export type { ConflictKind };

/** Kinds that only tell the user what the pull decided (nothing was lost either way). */
export const INFORMATIONAL_CONFLICT_KINDS: ReadonlySet<ConflictKind> = new Set([
  'deleted-remotely',
  'deleted-locally',
]);

/** `auto`: a later pull found nothing left to merge. */
export type ConflictResolution = 'mine' | 'theirs' | 'merged' | 'auto';

export interface Conflict {
  id: number;
  spaceId: string;
  kind: ConflictKind;
  /** The local file, relative to the space folder. */
  path: string;
  pageId: string | null;
  fileId: string | null;
  title: string;
  /** `synced_texts` hashes of the base and remote versions (null: unknown, or none). */
  baseHash: string | null;
  remoteHash: string | null;
  /** The local file's hash when the conflict was recorded. */
  localHash: string | null;
  message: string;
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
  resolution: ConflictResolution | null;
}

export type NewConflict = Omit<
  Conflict,
  'id' | 'createdAt' | 'updatedAt' | 'resolvedAt' | 'resolution'
>;

interface ConflictRow {
  id: number;
  space_id: string;
  kind: ConflictKind;
  path: string;
  page_id: string | null;
  file_id: string | null;
  title: string;
  base_hash: string | null;
  remote_hash: string | null;
  local_hash: string | null;
  message: string;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
  resolution: ConflictResolution | null;
}

/**
 * Queries over `conflicts`: at most one open conflict per (space, path). Recording one again (a
 * later pull that still cannot merge) updates it in place, keeping its id and creation time, so
 * the id the user was shown stays valid.
 */
export class ConflictStore {
  constructor(private readonly db: CacheDb) {}

  record(conflict: NewConflict, now: string): Conflict {
    const existing = this.openAt(conflict.spaceId, conflict.path);
    if (existing !== undefined) {
      this.db
        .prepare(
          `UPDATE conflicts SET kind = ?, page_id = ?, file_id = ?, title = ?, base_hash = ?,
             remote_hash = ?, local_hash = ?, message = ?, updated_at = ?
           WHERE id = ?`,
        )
        .run(
          conflict.kind,
          conflict.pageId,
          conflict.fileId,
          conflict.title,
          conflict.baseHash,
          conflict.remoteHash,
          conflict.localHash,
          conflict.message,
          now,
          existing.id,
        );
      return this.get(existing.id)!;
    }
    const { lastInsertRowid } = this.db
      .prepare(
        `INSERT INTO conflicts (space_id, kind, path, page_id, file_id, title, base_hash,
           remote_hash, local_hash, message, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        conflict.spaceId,
        conflict.kind,
        conflict.path,
        conflict.pageId,
        conflict.fileId,
        conflict.title,
        conflict.baseHash,
        conflict.remoteHash,
        conflict.localHash,
        conflict.message,
        now,
        now,
      );
    return this.get(Number(lastInsertRowid))!;
  }

  get(id: number): Conflict | undefined {
    const row = this.db.prepare('SELECT * FROM conflicts WHERE id = ?').get(id) as
      ConflictRow | undefined;
    return row ? conflictOf(row) : undefined;
  }

  /** Open conflicts, of one space or of all, oldest first. */
  open(spaceId?: string): Conflict[] {
    const rows = (
      spaceId === undefined
        ? this.db.prepare('SELECT * FROM conflicts WHERE resolved_at IS NULL ORDER BY id').all()
        : this.db
            .prepare(
              'SELECT * FROM conflicts WHERE resolved_at IS NULL AND space_id = ? ORDER BY id',
            )
            .all(spaceId)
    ) as ConflictRow[];
    return rows.map(conflictOf);
  }

  openAt(spaceId: string, path: string): Conflict | undefined {
    const row = this.db
      .prepare('SELECT * FROM conflicts WHERE space_id = ? AND path = ? AND resolved_at IS NULL')
      .get(spaceId, path) as ConflictRow | undefined;
    return row ? conflictOf(row) : undefined;
  }

  /** Marks an open conflict resolved; false when it is unknown or already resolved. */
  resolve(id: number, resolution: ConflictResolution, now: string): boolean {
    return (
      this.db
        .prepare(
          `UPDATE conflicts SET resolved_at = ?, resolution = ?, updated_at = ?
           WHERE id = ? AND resolved_at IS NULL`,
        )
        .run(now, resolution, now, id).changes > 0
    );
  }

  /** Forgets every conflict of a space (its mirror is gone). */
  clearSpace(spaceId: string): void {
    this.db.prepare('DELETE FROM conflicts WHERE space_id = ?').run(spaceId);
  }
}

function conflictOf(row: ConflictRow): Conflict {
  return {
    id: row.id,
    spaceId: row.space_id,
    kind: row.kind,
    path: row.path,
    pageId: row.page_id,
    fileId: row.file_id,
    title: row.title,
    baseHash: row.base_hash,
    remoteHash: row.remote_hash,
    localHash: row.local_hash,
    message: row.message,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    resolvedAt: row.resolved_at,
    resolution: row.resolution,
  };
}
