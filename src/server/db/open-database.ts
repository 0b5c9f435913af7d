import type Database from 'better-sqlite3';
import { applyMigrations } from '../../common/sqlite/apply-migrations';
import { openSqlite } from '../../common/sqlite/open-sqlite';
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
  return openSqlite(
    file,
    {
      synchronous: 'NORMAL',
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    },
    (db) => migrate(db, options.migrations ?? allMigrations),
  );
}

/**
 * Applies every migration newer than the database's user_version (see applyMigrations); a
 * database written by a newer server is refused.
 */
export function migrate(db: Db, migrations: readonly Migration[]): number {
  return applyMigrations(db, migrations, {
    step: 'Migration',
    newer: (current, known) =>
      `Database schema version ${current} is newer than this server knows (${known})`,
  });
}
