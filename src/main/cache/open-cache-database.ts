import Database from 'better-sqlite3';
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
  const db = new Database(
    file,
    options.nativeBinding ? { nativeBinding: options.nativeBinding } : {},
  );
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrateCache(db, options.migrations ?? cacheMigrations);
  } catch (error) {
    // The caller never gets the handle: close it so the file is not left open (and locked).
    db.close();
    throw error;
  }
  return db;
}

/**
 * Applies, each in its own transaction, every migration newer than the database's user_version.
 * The list is checked whole before anything runs, so a misnumbered list changes nothing, and a
 * cache written by a newer Quire is refused rather than used with a schema we do not know.
 */
export function migrateCache(db: CacheDb, migrations: readonly CacheMigration[]): number {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Cache migration ${migration.name} has version ${migration.version}, expected ${index + 1}`,
      );
    }
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `Cache schema version ${current} is newer than this version of Quire knows (${migrations.length})`,
    );
  }
  let applied = 0;
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    })();
    applied++;
  }
  return applied;
}
