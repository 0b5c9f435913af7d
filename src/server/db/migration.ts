import type { Database } from 'better-sqlite3';

/** One step of the schema. Versions are contiguous from 1 and never edited once released. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}
