import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openCacheDatabase } from '../../src/main/cache/open-cache-database';
import { atomicWriteFile, ensureDir } from '../../src/main/mirror/atomic-write';

/**
 * The floors of the initial mirror: the bytes the sync left in the folder and the rows it left in
 * its cache, written again directly (no HTTP, no layout, no hashing, no planning), timed. The sync
 * within a small multiple of them leaves little to gain.
 */

/** A mirror folder as the sync left it, read into memory (outside any timing). */
export interface MirrorSnapshot {
  /** Relative ('/'-separated) paths and bytes, in walk order. */
  files: { path: string; bytes: Buffer }[];
  /** Every folder holding a file, relative, parents before children. */
  directories: string[];
  /** The space folders (relative): the root each write is confined to, as the engine's. */
  spaceRoots: string[];
  bytes: number;
}

/** Rows of every table of a cache database, in schema order (parents before children). */
export interface CacheSnapshot {
  tables: { name: string; columns: string[]; rows: unknown[][] }[];
  rows: number;
}

export function snapshotMirror(root: string, spaceRoots: readonly string[]): MirrorSnapshot {
  const files: MirrorSnapshot['files'] = [];
  const directories = new Set<string>();
  let bytes = 0;
  const visit = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        visit(child);
      } else if (entry.isFile()) {
        const data = readFileSync(path.join(root, child));
        files.push({ path: child, bytes: data });
        if (relative !== '') directories.add(relative);
        bytes += data.length;
      }
    }
  };
  visit('');
  const sorted = [...directories].sort((a, b) => a.split('/').length - b.split('/').length);
  return { files, directories: sorted, spaceRoots: [...spaceRoots], bytes };
}

export function snapshotCache(file: string): CacheSnapshot {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const names = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
      )
      .all()
      .map((row) => row.name);
    const tables = names.map((name) => {
      const statement = db.prepare(`SELECT * FROM "${name}"`).raw(true);
      const columns = statement.columns().map((column) => column.name);
      return { name, columns, rows: statement.all() as unknown[][] };
    });
    return { tables, rows: tables.reduce((n, table) => n + table.rows.length, 0) };
  } finally {
    db.close();
  }
}

/** Files and bytes under `root` (regular files, hidden ones included), without reading them. */
export function mirrorSize(root: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const visit = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const child = path.join(directory, entry.name);
      if (entry.isDirectory()) visit(child);
      else if (entry.isFile()) {
        files++;
        bytes += lstatSync(child).size;
      }
    }
  };
  visit(root);
  return { files, bytes };
}

/** The space folder a relative path belongs to ('' when none does). */
function rootOf(spaceRoots: readonly string[], relative: string): string {
  let best = '';
  for (const root of spaceRoots)
    if (relative.startsWith(`${root}/`) && root.length > best.length) best = root;
  return best;
}

/**
 * Inserts every row into a fresh cache database (same schema and pragmas as the engine's: WAL,
 * synchronous=FULL) in one transaction. Opening it (and migrating) is not timed, as the
 * engine's is not either.
 */
function cacheWriter(file: string, cache: CacheSnapshot): { write(): void; close(): void } {
  const db = openCacheDatabase(file);
  return {
    write: () =>
      db.transaction(() => {
        for (const table of cache.tables) {
          if (table.rows.length === 0) continue;
          const insert = db.prepare(
            `INSERT INTO "${table.name}" (${table.columns.map((c) => `"${c}"`).join(', ')})
             VALUES (${table.columns.map(() => '?').join(', ')})`,
          );
          for (const row of table.rows) insert.run(row);
        }
      })(),
    // Closing checkpoints the WAL: the engine's cache is closed after its timing too.
    close: () => db.close(),
  };
}

/**
 * The durable floor: every folder created with ensureDir and every file written with
 * atomicWriteFile (temp file, fsync, rename, fsync of the folder: the engine's own durability),
 * one after the other as the engine writes them, then the cache rows in one transaction.
 * `target` must exist and be empty; `cacheFile` must not exist. Returns milliseconds.
 */
export async function atomicFloor(
  mirror: MirrorSnapshot,
  cache: CacheSnapshot,
  target: string,
  cacheFile: string,
): Promise<number> {
  const cacheDb = cacheWriter(cacheFile, cache);
  try {
    return await timedAtomicWrites(mirror, target, cacheDb.write);
  } finally {
    cacheDb.close();
  }
}

async function timedAtomicWrites(
  mirror: MirrorSnapshot,
  target: string,
  writeCache: () => void,
): Promise<number> {
  const started = performance.now();
  for (const root of mirror.spaceRoots) await ensureDir(path.join(target, root), { root: target });
  for (const directory of mirror.directories) {
    const root = path.join(target, rootOf(mirror.spaceRoots, `${directory}/`));
    await ensureDir(path.join(target, directory), { root });
  }
  for (const file of mirror.files) {
    const root = path.join(target, rootOf(mirror.spaceRoots, file.path));
    await atomicWriteFile(path.join(target, file.path), file.bytes, { root });
  }
  writeCache();
  return performance.now() - started;
}

/**
 * The stricter floor: mkdirSync and writeFileSync (no temp file, no fsync), then the cache rows in
 * one transaction. Returns milliseconds.
 */
export function plainFloor(
  mirror: MirrorSnapshot,
  cache: CacheSnapshot,
  target: string,
  cacheFile: string,
): number {
  const cacheDb = cacheWriter(cacheFile, cache);
  try {
    const started = performance.now();
    for (const directory of mirror.directories)
      mkdirSync(path.join(target, directory), { recursive: true });
    for (const file of mirror.files) writeFileSync(path.join(target, file.path), file.bytes);
    cacheDb.write();
    return performance.now() - started;
  } finally {
    cacheDb.close();
  }
}
