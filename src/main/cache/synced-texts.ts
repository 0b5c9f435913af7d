import { contentHash } from './content-hash';
import type { CacheDb } from './open-cache-database';

/**
 * Queries over `synced_texts` (migration 0004): text files as the engine last synced them, by
 * hash, so a pull can three-way merge a local edit against its base long after the content cache
 * moved on, and a conflict keeps its base and remote versions until it is resolved.
 */
export class SyncedTexts {
  constructor(private readonly db: CacheDb) {}

  /** Stores `text` (once per content) and returns its hash. */
  put(text: string): string {
    const hash = contentHash(text);
    this.db
      .prepare('INSERT OR IGNORE INTO synced_texts (hash, text) VALUES (?, ?)')
      .run(hash, text);
    return hash;
  }

  /** Stores many texts by their (already computed) hashes. */
  putAll(texts: Iterable<readonly [hash: string, text: string]>): void {
    const insert = this.db.prepare('INSERT OR IGNORE INTO synced_texts (hash, text) VALUES (?, ?)');
    for (const [hash, text] of texts) insert.run(hash, text);
  }

  get(hash: string): string | undefined {
    const row = this.db.prepare('SELECT text FROM synced_texts WHERE hash = ?').get(hash) as
      { text: string } | undefined;
    return row?.text;
  }

  /** Drops texts neither a file index entry nor an open conflict refers to. */
  collect(): void {
    this.db
      .prepare(
        `DELETE FROM synced_texts
         WHERE hash NOT IN (SELECT content_hash FROM file_index)
           AND hash NOT IN (SELECT base_hash FROM conflicts
                            WHERE resolved_at IS NULL AND base_hash IS NOT NULL)
           AND hash NOT IN (SELECT remote_hash FROM conflicts
                            WHERE resolved_at IS NULL AND remote_hash IS NOT NULL)`,
      )
      .run();
  }
}
