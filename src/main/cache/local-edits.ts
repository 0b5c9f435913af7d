import type { FileIndexEntry } from './file-index';
import type { CacheDb } from './open-cache-database';

/**
 * A local edit recorded for pushing that the synced revision does not contain yet (see migration
 * 0003): the file's bytes when it was queued, or its deletion (`contentHash` null).
 */
export interface LocalEdit {
  path: string;
  kind: FileIndexEntry['kind'];
  pageId: string | null;
  localKey: string | null;
  contentHash: string | null;
  size: number | null;
  mtimeMs: number | null;
  /**
   * An uploaded asset: the server's file id once its insert_files was acknowledged (migration
   * 0005). Omitted in put(): the id already recorded for the path is kept.
   */
  fileId?: string | null;
}

interface LocalEditRow {
  path: string;
  kind: FileIndexEntry['kind'];
  page_id: string | null;
  local_key: string | null;
  content_hash: string | null;
  size: number | null;
  mtime_ms: number | null;
  file_id: string | null;
}

/**
 * Queries over `local_edits`. The file index stays the synced revision's base; these rows overlay
 * it for the push side (an edit is pushed once) and make the pull keep the files they name.
 */
export class LocalEdits {
  constructor(private readonly db: CacheDb) {}

  list(spaceId: string): LocalEdit[] {
    return (
      this.db
        .prepare('SELECT * FROM local_edits WHERE space_id = ? ORDER BY path')
        .all(spaceId) as LocalEditRow[]
    ).map(editOf);
  }

  /** Records (or replaces) the edit at `edit.path`. */
  put(spaceId: string, edit: LocalEdit): void {
    this.db
      .prepare(
        `INSERT INTO local_edits
           (space_id, path, kind, page_id, local_key, content_hash, size, mtime_ms, file_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id, path) DO UPDATE SET kind = excluded.kind,
           page_id = excluded.page_id, local_key = excluded.local_key,
           content_hash = excluded.content_hash, size = excluded.size,
           mtime_ms = excluded.mtime_ms,
           file_id = coalesce(excluded.file_id, local_edits.file_id)`,
      )
      .run(
        spaceId,
        edit.path,
        edit.kind,
        edit.pageId,
        edit.localKey,
        edit.contentHash,
        edit.size,
        edit.mtimeMs,
        edit.fileId ?? null,
      );
  }

  /** An uploaded asset's insert was acknowledged: its edit now names the server's file. */
  setUploaded(spaceId: string, path: string, fileId: string): void {
    this.db
      .prepare('UPDATE local_edits SET file_id = ? WHERE space_id = ? AND path = ?')
      .run(fileId, spaceId, path);
  }

  /** A new page's insert was acknowledged: its edit now names the page. */
  setCreated(spaceId: string, localKey: string, pageId: string): void {
    this.db
      .prepare(
        'UPDATE local_edits SET page_id = ?, local_key = NULL WHERE space_id = ? AND local_key = ?',
      )
      .run(pageId, spaceId, localKey);
  }

  /**
   * A new page's insert was dropped by the user: its file stays, recorded as it is now, but names
   * no page any more (a local-only edit). The push side sees the file unchanged and sends nothing
   * until it is edited again, when it is a new page once more.
   */
  makeLocalOnly(spaceId: string, localKey: string): void {
    this.db
      .prepare('UPDATE local_edits SET local_key = NULL WHERE space_id = ? AND local_key = ?')
      .run(spaceId, localKey);
  }

  remove(spaceId: string, path: string): void {
    this.db.prepare('DELETE FROM local_edits WHERE space_id = ? AND path = ?').run(spaceId, path);
  }

  clearSpace(spaceId: string): void {
    this.db.prepare('DELETE FROM local_edits WHERE space_id = ?').run(spaceId);
  }

  /**
   * After a pull recorded `index` (the new file index) and wrote `written`: edits the synced
   * revision now contains (same bytes at the path, or a deletion whose path is gone from it) and
   * paths the pull rewrote are settled. Call inside the pull's final transaction.
   */
  settle(
    spaceId: string,
    index: ReadonlyMap<string, FileIndexEntry>,
    written: ReadonlySet<string>,
  ) {
    for (const edit of this.list(spaceId)) {
      const entry = index.get(edit.path);
      const settled =
        written.has(edit.path) ||
        (edit.contentHash === null
          ? entry === undefined
          : entry !== undefined && entry.contentHash === edit.contentHash);
      if (settled) this.remove(spaceId, edit.path);
    }
  }

  /**
   * The file index as the push side sees it: the synced base with these edits laid over it (a
   * deleted file is no longer indexed; an edited or new one has the bytes last queued).
   */
  overlay(spaceId: string, base: readonly FileIndexEntry[]): FileIndexEntry[] {
    const result = new Map(base.map((entry) => [entry.path, entry]));
    for (const edit of this.list(spaceId)) {
      if (edit.contentHash === null) {
        result.delete(edit.path);
        continue;
      }
      const old = result.get(edit.path);
      result.set(edit.path, {
        path: edit.path,
        kind: edit.kind,
        pageId: edit.pageId ?? old?.pageId ?? null,
        fileId: edit.fileId ?? old?.fileId ?? null,
        contentHash: edit.contentHash,
        size: edit.size ?? -1,
        mtimeMs: edit.mtimeMs ?? -1,
      });
    }
    return [...result.values()];
  }
}

function editOf(row: LocalEditRow): LocalEdit {
  return {
    path: row.path,
    kind: row.kind,
    pageId: row.page_id,
    localKey: row.local_key,
    contentHash: row.content_hash,
    size: row.size,
    mtimeMs: row.mtime_ms,
    fileId: row.file_id,
  };
}
