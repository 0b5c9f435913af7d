import Database from 'better-sqlite3';

export interface OpenSqliteOptions {
  /** Path of the better-sqlite3 addon to load; lets Electron and Node use separate builds. */
  nativeBinding?: string;
  /** NORMAL survives a process crash; FULL also a power loss (each commit is synced). */
  synchronous: 'NORMAL' | 'FULL';
}

/**
 * Opens (creating if needed) a database in WAL mode with foreign keys on and a busy timeout, then
 * runs `setUp` (migrations…). If anything fails the handle is closed before the error is thrown:
 * the caller never gets it, and the file must not be left open (and locked).
 */
export function openSqlite(
  file: string,
  options: OpenSqliteOptions,
  setUp: (db: Database.Database) => void,
): Database.Database {
  const db = new Database(
    file,
    options.nativeBinding ? { nativeBinding: options.nativeBinding } : {},
  );
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous}`);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    setUp(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
