import type { CacheDb } from './open-cache-database';

/**
 * One file the engine wrote into a space folder, as it was right after the write: the base that
 * tells a local edit (bytes differ from `contentHash`) from an untouched file. `size` and
 * `mtimeMs` let an unchanged file be recognised without reading it.
 */
export interface FileIndexEntry {
  /** Relative to the space folder, '/'-separated. */
  path: string;
  kind: 'page' | 'asset' | 'layout';
  pageId: string | null;
  fileId: string | null;
  contentHash: string;
  size: number;
  mtimeMs: number;
}

interface FileIndexRow {
  path: string;
  kind: FileIndexEntry['kind'];
  page_id: string | null;
  file_id: string | null;
  content_hash: string;
  size: number;
  mtime_ms: number;
}

/** Queries over `file_index` (path ↔ page id, synced hash, size, mtime) and `pending_writes`. */
export class FileIndex {
  constructor(private readonly db: CacheDb) {}

  entries(spaceId: string): FileIndexEntry[] {
    return (
      this.db
        .prepare('SELECT * FROM file_index WHERE space_id = ? ORDER BY path')
        .all(spaceId) as FileIndexRow[]
    ).map(entryOf);
  }

  get(spaceId: string, path: string): FileIndexEntry | undefined {
    const row = this.db
      .prepare('SELECT * FROM file_index WHERE space_id = ? AND path = ?')
      .get(spaceId, path) as FileIndexRow | undefined;
    return row ? entryOf(row) : undefined;
  }

  byPage(spaceId: string, pageId: string): FileIndexEntry | undefined {
    const row = this.db
      .prepare('SELECT * FROM file_index WHERE space_id = ? AND page_id = ?')
      .get(spaceId, pageId) as FileIndexRow | undefined;
    return row ? entryOf(row) : undefined;
  }

  /** Replaces a space's whole index (inside the space's final transaction). */
  replaceSpace(spaceId: string, entries: readonly FileIndexEntry[]): void {
    this.db.prepare('DELETE FROM file_index WHERE space_id = ?').run(spaceId);
    for (const entry of entries) this.insert(spaceId, entry);
  }

  /** Records one entry (a resolved conflict), replacing whatever was at its path or page. */
  put(spaceId: string, entry: FileIndexEntry): void {
    this.remove(spaceId, entry.path);
    if (entry.pageId !== null) {
      this.db
        .prepare('DELETE FROM file_index WHERE space_id = ? AND page_id = ?')
        .run(spaceId, entry.pageId);
    }
    this.insert(spaceId, entry);
  }

  /** One row; the database prepares its SQL once (see openCacheDatabase). */
  private insert(spaceId: string, entry: FileIndexEntry): void {
    this.db
      .prepare(
        `INSERT INTO file_index (space_id, path, kind, page_id, file_id, content_hash, size, mtime_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        spaceId,
        entry.path,
        entry.kind,
        entry.pageId,
        entry.fileId,
        entry.contentHash,
        entry.size,
        entry.mtimeMs,
      );
  }

  remove(spaceId: string, path: string): void {
    this.db.prepare('DELETE FROM file_index WHERE space_id = ? AND path = ?').run(spaceId, path);
  }

  clearSpace(spaceId: string): void {
    this.db.prepare('DELETE FROM file_index WHERE space_id = ?').run(spaceId);
    this.clearPending(spaceId);
  }

  /** Path → hashes the engine was about to write there when it last stopped mid-sync. */
  pendingWrites(spaceId: string): Map<string, Set<string>> {
    const rows = this.db
      .prepare('SELECT path, content_hash FROM pending_writes WHERE space_id = ?')
      .all(spaceId) as { path: string; content_hash: string }[];
    const result = new Map<string, Set<string>>();
    for (const row of rows) {
      const hashes = result.get(row.path) ?? new Set<string>();
      hashes.add(row.content_hash);
      result.set(row.path, hashes);
    }
    return result;
  }

  /** Records writes about to happen; committed before the first byte reaches the folder. */
  addPendingWrites(
    spaceId: string,
    writes: readonly { path: string; contentHash: string; source?: string }[],
  ): void {
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO pending_writes (space_id, path, content_hash, source) VALUES (?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      for (const write of writes)
        insert.run(spaceId, write.path, write.contentHash, write.source ?? null);
    })();
  }

  /**
   * The hash of the download from `source` a stopped sync wrote (or was writing) at `path`, so
   * the next one can keep it instead of fetching it again.
   */
  pendingDownload(spaceId: string, path: string, source: string): string | undefined {
    const row = this.db
      .prepare(
        'SELECT content_hash FROM pending_writes WHERE space_id = ? AND path = ? AND source = ? LIMIT 1',
      )
      .get(spaceId, path, source) as { content_hash: string } | undefined;
    return row?.content_hash;
  }

  clearPending(spaceId: string): void {
    this.db.prepare('DELETE FROM pending_writes WHERE space_id = ?').run(spaceId);
  }
}

function entryOf(row: FileIndexRow): FileIndexEntry {
  return {
    path: row.path,
    kind: row.kind,
    pageId: row.page_id,
    fileId: row.file_id,
    contentHash: row.content_hash,
    size: row.size,
    mtimeMs: row.mtime_ms,
  };
}
