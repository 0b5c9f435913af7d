import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { applyMigrations } from '../../common/sqlite/apply-migrations';
import { openSqlite } from '../../common/sqlite/open-sqlite';
import { StatementCache } from '../../common/sqlite/statement-cache';
import type { CacheMigration } from './migrations/cache-migration';
import { cacheMigrations } from './migrations/cache-migrations';

export type CacheDb = Database.Database;

export interface OpenCacheDatabaseOptions {
  /** Path of the better-sqlite3 addon to load; lets Electron and Node use separate builds. */
  nativeBinding?: string;
  migrations?: readonly CacheMigration[];
}

/**
 * Opens (creating if needed) the sync cache and brings its schema up to date. The file belongs in
 * the user's home directory (the composition root picks it), never inside the synced folder.
 *
 * WAL lets the UI read status while a sync writes; `synchronous=FULL` makes every committed
 * transaction survive a power loss, not only a process crash: the engine writes files first and
 * commits the cache after, and a lost commit would make its own writes look like local edits.
 */
export function openCacheDatabase(file: string, options: OpenCacheDatabaseOptions = {}): CacheDb {
  return openSqlite(
    file,
    {
      synchronous: 'FULL',
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    },
    (db) => {
      migrateCache(db, options.migrations ?? cacheMigrations);
      reusePreparedStatements(db);
    },
  );
}

/** Statements kept per connection; the SQL of the cache classes is fixed, so this never fills. */
const MAX_PREPARED_STATEMENTS = 1000;

/**
 * Makes `db.prepare` return the statement already compiled for the same SQL. The cache classes
 * prepare their SQL where they run it, once per call: compiling costs more than running the small
 * queries they make, and an unchanged sync asks a few dozen per space (over 200 spaces, most of
 * its time). A statement is stateless between runs as long as no caller fixes its mode or
 * parameters on it (`bind`, `pluck`, `raw`, `expand`, which the cache code does not use; a test
 * checks) or iterates it while running it again.
 */
function reusePreparedStatements(db: CacheDb): void {
  const compile = db.prepare.bind(db);
  const statements = new StatementCache(MAX_PREPARED_STATEMENTS);
  const prepare = (source: string): Statement => statements.get(source, () => compile(source));
  db.prepare = prepare as CacheDb['prepare'];
}

/**
 * Applies every migration newer than the cache's user_version (see applyMigrations); a cache
 * written by a newer Quire is refused.
 */
export function migrateCache(db: CacheDb, migrations: readonly CacheMigration[]): number {
  return applyMigrations(db, migrations, {
    step: 'Cache migration',
    newer: (current, known) =>
      `Cache schema version ${current} is newer than this version of Quire knows (${known})`,
  });
}
