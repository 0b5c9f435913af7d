import type { Statement } from 'better-sqlite3';
import type { CacheDb } from './open-cache-database';

/** Flags of the sync as a whole, kept in the `sync_state` table. */
export class SyncStateStore {
  private readonly getStatement: Statement<[string], { value: string }>;
  private readonly setStatement: Statement<[string, string]>;

  constructor(db: CacheDb) {
    this.getStatement = db.prepare('SELECT value FROM sync_state WHERE key = ?');
    this.setStatement = db.prepare(
      'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
  }

  get(key: string): string | undefined {
    return this.getStatement.get(key)?.value;
  }

  set(key: string, value: string): void {
    this.setStatement.run(key, value);
  }
}
