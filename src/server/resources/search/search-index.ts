import { RevisionStore } from '../../content/revision-store';
import { walkPages, type RevisionTree, type StoredPage } from '../../content/revision-tree';
import type { Db } from '../../db/open-database';
import { badRequest } from '../../http/api-error';
import { BoundedCache } from '../links/bounded-cache';
import { CpuJobError, type CpuPool } from '../../workers/cpu-pool';
import type { PageSection } from './page-sections';

/** A space to search, with the revision its content is read from (the live one). */
export interface IndexedSpace {
  id: string;
  revision_id: string;
}

/** One matching section, best first. */
export interface SectionHit {
  space_id: string;
  page_id: string;
  section_id: string;
  title: string;
  body: string;
  page_title: string;
  page_path: string;
  /** bm25 of the match: lower is better (FTS5 convention). */
  bm25: number;
  /** The title column with matches wrapped in \u0001…\u0002: tells a title hit from a body hit. */
  marked_title: string;
}

/** A page whose sections are indexed; rows are rebuilt when its signature changes. */
interface IndexablePage {
  page: StoredPage;
  path: string;
  signature: string;
}

/** Document pages that may be searched (not `noIndex`), by id, with what their rows depend on. */
function indexablePages(tree: RevisionTree | undefined): Map<string, IndexablePage> {
  const pages = new Map<string, IndexablePage>();
  for (const { page, path } of walkPages(tree?.pages ?? [])) {
    if (page.type !== 'document' || page.noIndex || pages.has(page.id)) continue;
    pages.set(page.id, { page, path, signature: JSON.stringify([page.body, page.title, path]) });
  }
  return pages;
}

/** Pages are split into sections in jobs of about this much Markdown. */
const SECTION_JOB_CHARS = 512 * 1024;

/** Title matches count this many times more than body matches. */
const TITLE_WEIGHT = 10;
/** Sections read per search, best first; enough for any page of results a person reads. */
export const MAX_HITS = 2000;

/** The page fields a result shows that the index rows do not hold. */
export interface PageInfo {
  description: string;
  /** Titles of the page's ancestors, from the top level to its direct parent. */
  ancestors: string[];
}

/**
 * The full-text index of page sections (table page_sections). Each space's rows are built from
 * its live revision; search_index_state remembers which, so a space is reindexed only after its
 * revision moved, lazily, by the next search that covers it.
 */
export class SearchIndex {
  private readonly stateStmt;
  private readonly setStateStmt;
  private readonly deleteStmt;
  private readonly rowsStmt;
  private readonly deleteRowStmt;
  private readonly insertStmt;
  private readonly bodiesStmt;
  private readonly searchStmt;
  private readonly revisions: RevisionStore;
  private readonly pageInfo = new BoundedCache<Map<string, PageInfo>>(64);
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly cpu: CpuPool,
  ) {
    this.revisions = new RevisionStore(db);
    this.stateStmt = db.prepare<[string], { revision_id: string }>(
      'SELECT revision_id FROM search_index_state WHERE space_id = ?',
    );
    this.setStateStmt = db.prepare(
      `INSERT INTO search_index_state (space_id, revision_id) VALUES (?, ?)
       ON CONFLICT (space_id) DO UPDATE SET revision_id = excluded.revision_id`,
    );
    this.deleteStmt = db.prepare('DELETE FROM page_sections WHERE space_id = ?');
    this.rowsStmt = db.prepare<[string], { rowid: number; page_id: string }>(
      'SELECT rowid, page_id FROM page_sections WHERE space_id = ?',
    );
    this.deleteRowStmt = db.prepare('DELETE FROM page_sections WHERE rowid = ?');
    this.insertStmt = db.prepare(
      `INSERT INTO page_sections (title, body, space_id, page_id, section_id, page_title, page_path)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.bodiesStmt = db.prepare<[string], { hash: string; markdown: string }>(
      'SELECT hash, markdown FROM bodies WHERE hash IN (SELECT value FROM json_each(?))',
    );
    this.searchStmt = db.prepare<[number, string, string, number], SectionHit>(
      `SELECT space_id, page_id, section_id, title, body, page_title, page_path,
              bm25(page_sections, ?, 1.0) AS bm25,
              highlight(page_sections, 0, char(1), char(2)) AS marked_title
       FROM page_sections
       WHERE page_sections MATCH ? AND space_id IN (SELECT value FROM json_each(?))
       ORDER BY bm25, section_id
       LIMIT ?`,
    );
  }

  /** Reindexes each space whose live revision is not the one its rows were built from. */
  async refresh(spaces: readonly IndexedSpace[]): Promise<void> {
    for (const space of spaces) {
      if (this.stateStmt.get(space.id)?.revision_id !== space.revision_id) {
        await this.reindex(space);
      }
    }
  }

  /** One reindex of a space at a time: concurrent searches wait for the same one. */
  reindex(space: IndexedSpace): Promise<void> {
    const running = this.running.get(space.id);
    if (running) return running.then(() => this.refresh([space]));
    const job = this.reindexNow(space).finally(() => this.running.delete(space.id));
    this.running.set(space.id, job);
    return job;
  }

  /**
   * Brings a space's rows to its revision. Only pages whose body, title or path changed since
   * the indexed revision are rebuilt: an edit to one page of a large space must not re-read all
   * of them. Sections are split on the worker threads; the rows are then replaced in one
   * transaction, so a search never sees half an index.
   */
  private async reindexNow(space: IndexedSpace): Promise<void> {
    const indexed = this.stateStmt.get(space.id)?.revision_id;
    if (indexed === space.revision_id) return;
    const next = indexablePages(this.revisions.tree(space.revision_id));
    const previousTree = indexed === undefined ? undefined : this.revisions.tree(indexed);
    const previous = previousTree === undefined ? undefined : indexablePages(previousTree);
    const unchanged = (pageId: string) =>
      previous !== undefined &&
      next.has(pageId) &&
      previous.get(pageId)?.signature === next.get(pageId)?.signature;
    const changed = [...next.values()].filter((entry) => !unchanged(entry.page.id));
    const sections = await this.sections(changed);

    this.db.transaction(() => {
      // Another process may have indexed the space meanwhile: then its rows stand.
      if (this.stateStmt.get(space.id)?.revision_id !== indexed) return;
      if (previous === undefined) this.deleteStmt.run(space.id);
      else {
        for (const row of this.rowsStmt.all(space.id)) {
          if (!unchanged(row.page_id)) this.deleteRowStmt.run(row.rowid);
        }
      }
      changed.forEach(({ page, path }, i) => {
        for (const section of sections[i] ?? []) {
          this.insertStmt.run(
            section.title,
            section.body,
            space.id,
            page.id,
            `${page.id}#${section.anchor}`,
            page.title,
            path,
          );
        }
      });
      this.setStateStmt.run(space.id, space.revision_id);
    })();
  }

  /** The sections of each page, split on the worker threads in jobs of bounded size. */
  private async sections(pages: readonly IndexablePage[]): Promise<PageSection[][]> {
    const hashes = [...new Set(pages.flatMap(({ page }) => (page.body ? [page.body] : [])))];
    const bodies = new Map(
      this.bodiesStmt.all(JSON.stringify(hashes)).map((row) => [row.hash, row.markdown]),
    );
    const inputs = pages.map(({ page }) => ({
      title: page.title,
      markdown: page.body ? (bodies.get(page.body) ?? '') : '',
    }));
    const jobs: (typeof inputs)[] = [];
    let size = Infinity;
    for (const input of inputs) {
      if (size + input.markdown.length > SECTION_JOB_CHARS) {
        jobs.push([]);
        size = 0;
      }
      jobs.at(-1)!.push(input);
      size += input.markdown.length;
    }
    try {
      const results = await Promise.all(
        jobs.map((job) => this.cpu.run('page-sections', { pages: job })),
      );
      return results.flat();
    } catch (error) {
      if (error instanceof CpuJobError) throw error.toApiError('The search index of a space');
      throw error;
    }
  }

  /** Matching sections of the given spaces, best first (titles weigh more than bodies). */
  search(match: string, spaceIds: readonly string[]): SectionHit[] {
    if (spaceIds.length === 0) return [];
    try {
      return this.searchStmt.all(TITLE_WEIGHT, match, JSON.stringify(spaceIds), MAX_HITS);
    } catch (error) {
      // ftsMatchExpression only builds quoted words, so this is a safety net, not a code path.
      if (error instanceof Error && /fts5|syntax/i.test(error.message)) {
        throw badRequest('query.query could not be searched');
      }
      throw error;
    }
  }

  /** Descriptions and ancestor titles of a revision's pages (revisions never change). */
  pages(revisionId: string): Map<string, PageInfo> {
    return this.pageInfo.get(revisionId, () => {
      const info = new Map<string, PageInfo>();
      const tree = this.revisions.tree(revisionId);
      const visit = (pages: RevisionTree['pages'], ancestors: string[]) => {
        for (const page of pages) {
          info.set(page.id, { description: page.description ?? '', ancestors });
          visit(page.pages, [...ancestors, page.title]);
        }
      };
      if (tree) visit(tree.pages, []);
      return info;
    });
  }
}
