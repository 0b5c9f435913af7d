import Database from 'better-sqlite3';
import type { Migration } from './migration';
import { migrations as allMigrations } from './migrations';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  /** Path of the better-sqlite3 addon to load; lets Electron and Node use separate builds. */
  nativeBinding?: string;
  migrations?: readonly Migration[];
}

/** Opens (creating if needed) the server database in WAL mode and brings its schema up to date. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const db = new Database(
    file,
    options.nativeBinding ? { nativeBinding: options.nativeBinding } : {},
  );
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  try {
    migrate(db, options.migrations ?? allMigrations);
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
 * database written by a newer server is refused rather than used with a schema we do not know.
 */
export function migrate(db: Db, migrations: readonly Migration[]): number {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Migration ${migration.name} has version ${migration.version}, expected ${index + 1}`,
      );
    }
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `Database schema version ${current} is newer than this server knows (${migrations.length})`,
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
