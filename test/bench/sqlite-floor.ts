import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { RevisionTree, StoredPage } from '../../src/server/content/revision-tree';

/**
 * The floors of the content benchmarks: the same bytes read or written directly through
 * better-sqlite3, in the benchmark process, with no HTTP, no routing, no authentication and no
 * server logic. A Quire figure within a small multiple of its floor leaves little to gain.
 */

interface RevisionRow {
  id: string;
  parents: string;
  type: string;
  created_at: string;
  tree: string;
}

/** A page as the API returns it with format=markdown (the fields of a document page). */
interface FloorPage extends FloorPageFields {
  pages: FloorPage[];
  markdown: string;
}

interface FloorPageFields {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  kind: string;
  type: string;
  slug: string;
  path: string;
  urls: { app: string };
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
}

function bodyHashes(pages: readonly StoredPage[], into: string[] = []): string[] {
  for (const page of pages) {
    if (page.body) into.push(page.body);
    bodyHashes(page.pages, into);
  }
  return into;
}

function pageFields(page: StoredPage, path: string, appPrefix: string): FloorPageFields {
  return {
    id: page.id,
    title: page.title,
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    kind: 'sheet',
    type: page.type,
    slug: page.slug,
    path,
    urls: { app: appPrefix + path },
    hidden: page.hidden ?? false,
    noIndex: page.noIndex ?? false,
    noRobotsIndex: page.noRobotsIndex ?? false,
  };
}

function pathOf(parentPath: string, page: StoredPage): string {
  return parentPath ? `${parentPath}/${page.slug}` : page.slug;
}

function floorPages(
  pages: readonly StoredPage[],
  parentPath: string,
  bodies: ReadonlyMap<string, string>,
  appPrefix: string,
): FloorPage[] {
  return pages.map((page) => {
    const path = pathOf(parentPath, page);
    return {
      ...pageFields(page, path, appPrefix),
      pages: floorPages(page.pages, path, bodies, appPrefix),
      markdown: (page.body && bodies.get(page.body)) || '',
    };
  });
}

/** The same JSON as floorPages, with each body spliced in as SQLite quoted it (json_quote). */
function writeQuotedPages(
  out: Buffer[],
  pages: readonly StoredPage[],
  parentPath: string,
  quoted: ReadonlyMap<string, Buffer>,
  appPrefix: string,
): void {
  let text = '[';
  pages.forEach((page, i) => {
    const path = pathOf(parentPath, page);
    text += `${i > 0 ? ',' : ''}${JSON.stringify(pageFields(page, path, appPrefix)).slice(0, -1)},"pages":`;
    out.push(Buffer.from(text, 'utf8'));
    writeQuotedPages(out, page.pages, path, quoted, appPrefix);
    out.push(Buffer.from(',"markdown":', 'utf8'));
    out.push((page.body && quoted.get(page.body)) || EMPTY_STRING);
    text = '}';
  });
  out.push(Buffer.from(`${text === '[' ? '[' : '}'}]`, 'utf8'));
}

const EMPTY_STRING = Buffer.from('""');

/** How the read floor turns the rows into bytes (see ContentReadFloor). */
export type ReadFloorMode = 'stringify' | 'quoted' | 'rows-only';

/**
 * Whole-space read floor: the space's live revision row, then every page body in one query, then
 * (`stringify`) an object equivalent to the API's (pages with their Markdown), JSON.stringify,
 * UTF-8 bytes. Two variants put it in perspective: `quoted` produces the same bytes with every
 * body already quoted as a JSON string by SQLite (json_quote), which skips JavaScript's string
 * escaping (what the server does); `rows-only` stops after the queries.
 * Opens the server's database file read-only (WAL: it sees the server's commits).
 */
export class ContentReadFloor {
  private readonly db: Database.Database;
  private readonly revisionStmt;
  private readonly bodiesStmt;
  private readonly quotedStmt;

  constructor(
    file: string,
    private readonly spaceId: string,
    /** Absolute app URL prefix of the space's pages, as the server builds `urls.app`. */
    private readonly appPrefix: string,
  ) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    this.revisionStmt = this.db.prepare<[string], RevisionRow>(
      `SELECT r.id, r.parents, r.type, r.created_at, r.tree
       FROM spaces s JOIN revisions r ON r.id = s.revision_id WHERE s.id = ?`,
    );
    this.bodiesStmt = this.db.prepare<[string], { hash: string; markdown: string }>(
      'SELECT hash, markdown FROM bodies WHERE hash IN (SELECT value FROM json_each(?))',
    );
    this.quotedStmt = this.db.prepare<[string], { hash: string; quoted: Buffer }>(
      `SELECT hash, CAST(json_quote(markdown) AS BLOB) AS quoted
       FROM bodies WHERE hash IN (SELECT value FROM json_each(?))`,
    );
  }

  /** The whole revision as JSON bytes (`rows-only`: an empty buffer, after the same queries). */
  read(mode: ReadFloorMode = 'stringify'): Buffer {
    const quoted = mode === 'quoted';
    const read = this.db.transaction(() => {
      const row = this.revisionStmt.get(this.spaceId);
      if (!row) throw new Error(`floor: space ${this.spaceId} has no revision`);
      const tree = JSON.parse(row.tree) as RevisionTree;
      const hashes = JSON.stringify(bodyHashes(tree.pages));
      const bodies = new Map<string, string | Buffer>();
      if (quoted)
        for (const body of this.quotedStmt.iterate(hashes)) bodies.set(body.hash, body.quoted);
      else for (const body of this.bodiesStmt.iterate(hashes)) bodies.set(body.hash, body.markdown);
      return { row, tree, bodies };
    });
    const { row, tree, bodies } = read();
    if (mode === 'rows-only') return Buffer.alloc(0);
    const revision = {
      object: 'revision',
      id: row.id,
      parents: JSON.parse(row.parents) as string[],
      type: row.type,
      createdAt: row.created_at,
      urls: { app: this.appPrefix.replace(/\/$/, '') },
    };
    if (quoted) {
      const out = [Buffer.from(`${JSON.stringify(revision).slice(0, -1)},"pages":`, 'utf8')];
      writeQuotedPages(out, tree.pages, '', bodies as Map<string, Buffer>, this.appPrefix);
      out.push(Buffer.from('}'));
      return Buffer.concat(out);
    }
    const pages = floorPages(tree.pages, '', bodies as Map<string, string>, this.appPrefix);
    return Buffer.from(JSON.stringify({ ...revision, pages }), 'utf8');
  }

  /** The live revision's tree (outside any timing: the merge floor writes it back). */
  liveTree(): string {
    const row = this.revisionStmt.get(this.spaceId);
    if (!row) throw new Error(`floor: space ${this.spaceId} has no revision`);
    return row.tree;
  }

  close(): void {
    this.db.close();
  }
}

/**
 * Write floors, on a scratch database of their own with the server's pragmas (WAL, synchronous
 * NORMAL): bodies inserted in one transaction, optionally with one revision row.
 */
export class ContentWriteFloor {
  private readonly db: Database.Database;
  private readonly bodyStmt;
  private readonly revisionStmt;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS scratch_bodies (id INTEGER PRIMARY KEY, markdown TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS scratch_revisions (id TEXT PRIMARY KEY, tree TEXT NOT NULL);
    `);
    this.bodyStmt = this.db.prepare<[string]>('INSERT INTO scratch_bodies (markdown) VALUES (?)');
    this.revisionStmt = this.db.prepare<[string, string]>(
      'INSERT INTO scratch_revisions (id, tree) VALUES (?, ?)',
    );
  }

  /** The batch-write floor: `bodies` inserted in one transaction. */
  writeBodies(bodies: readonly string[]): void {
    this.db.transaction(() => {
      for (const body of bodies) this.bodyStmt.run(body);
    })();
  }

  /** The merge floor: the merged bodies and one revision row holding the merged tree. */
  writeMerge(bodies: readonly string[], tree: RevisionTree): void {
    this.db.transaction(() => {
      for (const body of bodies) this.bodyStmt.run(body);
      this.revisionStmt.run(randomUUID(), JSON.stringify(tree));
    })();
  }

  close(): void {
    this.db.close();
  }
}
