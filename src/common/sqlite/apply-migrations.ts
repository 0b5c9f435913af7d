import type { Database } from 'better-sqlite3';
import type { SqliteMigration } from './sqlite-migration';

/** How the errors of one database name it (the server's and the desktop cache's differ). */
export interface MigrationWording {
  /** What one step is called, e.g. `Migration` or `Cache migration`. */
  step: string;
  /** The refusal of a database whose schema is newer than the list. */
  newer(current: number, known: number): string;
}

/**
 * Applies, each in its own transaction, every migration newer than the database's user_version,
 * and returns how many ran. The list is checked whole before anything runs, so a misnumbered list
 * changes nothing, and a database written by a newer program is refused rather than used with a
 * schema this one does not know.
 */
export function applyMigrations(
  db: Database,
  migrations: readonly SqliteMigration[],
  wording: MigrationWording,
): number {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `${wording.step} ${migration.name} has version ${migration.version}, expected ${index + 1}`,
      );
    }
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) throw new Error(wording.newer(current, migrations.length));
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
