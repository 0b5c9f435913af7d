import type { Database } from 'better-sqlite3';

/** One step of a schema. Versions are contiguous from 1 and never edited once released. */
export interface SqliteMigration {
  version: number;
  name: string;
  up(db: Database): void;
}
