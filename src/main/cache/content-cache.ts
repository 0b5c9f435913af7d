import type { RemoteFile, RemotePage, RemoteRevision } from '../sync-ports';
import { storePageRows } from './cached-page-rows';
import type { CacheDb } from './open-cache-database';

/** A file of a space's synced revision, with the hash of the bytes downloaded for it. */
export interface CachedFile extends RemoteFile {
  contentHash: string | null;
}

interface PageRow {
  id: string;
  parent_id: string | null;
  type: RemotePage['type'];
  title: string;
  meta: string;
  body_hash: string | null;
  markdown: string | null;
  updated_at: string | null;
}

interface FileRow {
  id: string;
  name: string;
  content_type: string;
  size: number;
  download_url: string;
  width: number | null;
  height: number | null;
  content_hash: string | null;
}

/**
 * Queries over `revisions`, `pages`, `bodies` and `files`: the content of each space's synced
 * revision. Bodies are shared by hash, so a page that did not change costs nothing to keep, and a
 * revision can be rebuilt whole (the base of a later three-way merge) without asking the server.
 */
export class ContentCache {
  constructor(private readonly db: CacheDb) {}

  /**
   * Replaces a space's cached content with `revision` (whose document pages all carry their
   * Markdown). Call inside the space's final transaction.
   */
  replaceSpaceContent(
    spaceId: string,
    revision: RemoteRevision,
    fileHashes: ReadonlyMap<string, string>,
    fetchedAt: string,
  ): void {
    const db = this.db;
    db.prepare('DELETE FROM pages WHERE space_id = ?').run(spaceId);
    db.prepare('DELETE FROM files WHERE space_id = ?').run(spaceId);
    db.prepare('DELETE FROM revisions WHERE space_id = ?').run(spaceId);
    const insertPage = db.prepare(
      `INSERT INTO pages (space_id, id, parent_id, position, type, title, meta, body_hash, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    let pageCount = 0;
    storePageRows(db, revision.pages, ({ page, parentId, position, meta, bodyHash }) => {
      insertPage.run(
        spaceId,
        page.id,
        parentId,
        position,
        page.type,
        page.title,
        meta,
        bodyHash,
        page.updatedAt ?? null,
      );
      pageCount++;
    });

    const insertFile = db.prepare(
      `INSERT INTO files (space_id, id, name, content_type, size, download_url, width, height, content_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const file of revision.files) {
      insertFile.run(
        spaceId,
        file.id,
        file.name,
        file.contentType,
        file.size,
        file.downloadURL,
        file.dimensions?.width ?? null,
        file.dimensions?.height ?? null,
        fileHashes.get(file.id) ?? null,
      );
    }
    db.prepare(
      'INSERT INTO revisions (space_id, id, fetched_at, page_count, file_count) VALUES (?, ?, ?, ?, ?)',
    ).run(spaceId, revision.id, fetchedAt, pageCount, revision.files.length);
    this.collectBodies();
  }

  /** Forgets a space's content (its pages, files and revision). */
  clearSpace(spaceId: string): void {
    this.db.prepare('DELETE FROM pages WHERE space_id = ?').run(spaceId);
    this.db.prepare('DELETE FROM files WHERE space_id = ?').run(spaceId);
    this.db.prepare('DELETE FROM revisions WHERE space_id = ?').run(spaceId);
    this.collectBodies();
  }

  /** Page id → updatedAt of every cached page that has one (for `getRevision`'s `knownPages`). */
  knownPages(spaceId: string): Map<string, string> {
    const rows = this.db
      .prepare('SELECT id, updated_at FROM pages WHERE space_id = ? AND updated_at IS NOT NULL')
      .all(spaceId) as { id: string; updated_at: string }[];
    return new Map(rows.map((row) => [row.id, row.updated_at]));
  }

  /** The cached Markdown of a page, if the cache has it. */
  pageMarkdown(spaceId: string, pageId: string): string | undefined {
    const row = this.db
      .prepare(
        `SELECT b.markdown FROM pages p JOIN bodies b ON b.hash = p.body_hash
         WHERE p.space_id = ? AND p.id = ?`,
      )
      .get(spaceId, pageId) as { markdown: string } | undefined;
    return row?.markdown;
  }

  pageCount(spaceId: string): number {
    return (
      this.db.prepare('SELECT count(*) AS n FROM pages WHERE space_id = ?').get(spaceId) as {
        n: number;
      }
    ).n;
  }

  /** The synced revision's id, if the space has cached content. */
  revisionId(spaceId: string): string | undefined {
    const row = this.db.prepare('SELECT id FROM revisions WHERE space_id = ?').get(spaceId) as
      { id: string } | undefined;
    return row?.id;
  }

  files(spaceId: string): CachedFile[] {
    return (
      this.db
        .prepare('SELECT * FROM files WHERE space_id = ? ORDER BY rowid')
        .all(spaceId) as FileRow[]
    ).map((row) => ({
      id: row.id,
      name: row.name,
      contentType: row.content_type,
      size: row.size,
      downloadURL: row.download_url,
      ...(row.width !== null && row.height !== null
        ? { dimensions: { width: row.width, height: row.height } }
        : {}),
      contentHash: row.content_hash,
    }));
  }

  /** Rebuilds the synced revision (tree, Markdown, files), or undefined if none is cached. */
  loadRevision(spaceId: string): RemoteRevision | undefined {
    const id = this.revisionId(spaceId);
    if (id === undefined) return undefined;
    const rows = this.db
      .prepare(
        `SELECT p.id, p.parent_id, p.type, p.title, p.meta, p.body_hash, p.updated_at, b.markdown
         FROM pages p LEFT JOIN bodies b ON b.hash = p.body_hash
         WHERE p.space_id = ? ORDER BY p.position`,
      )
      .all(spaceId) as PageRow[];
    const children = new Map<string | null, RemotePage[]>();
    for (const row of rows) {
      const page: RemotePage = {
        ...(JSON.parse(row.meta) as Partial<RemotePage>),
        id: row.id,
        type: row.type,
        title: row.title,
        ...(row.updated_at !== null ? { updatedAt: row.updated_at } : {}),
        ...(row.type === 'document' ? { markdown: row.markdown ?? '' } : {}),
        pages: [],
      };
      const siblings = children.get(row.parent_id) ?? [];
      siblings.push(page);
      children.set(row.parent_id, siblings);
    }
    const attach = (pages: RemotePage[]): RemotePage[] => {
      for (const page of pages) page.pages = attach(children.get(page.id) ?? []);
      return pages;
    };
    return {
      id,
      pages: attach(children.get(null) ?? []),
      files: this.files(spaceId).map(({ contentHash: _hash, ...file }) => file),
    };
  }

  /** Drops bodies no cached page (of a space or of a change request's revision) refers to any more. */
  private collectBodies(): void {
    this.db
      .prepare(
        `DELETE FROM bodies WHERE hash NOT IN (SELECT body_hash FROM pages WHERE body_hash IS NOT NULL)
           AND hash NOT IN (SELECT body_hash FROM change_request_pages WHERE body_hash IS NOT NULL)`,
      )
      .run();
  }
}
