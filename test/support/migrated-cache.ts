import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../../src/main/cache/open-cache-database';
import { cacheMigrations } from '../../src/main/cache/migrations/cache-migrations';

/** An organization and one space, the rows most cache migrations' tests start from. */
export const ONE_SPACE = `INSERT INTO organizations (id, title, folder_name) VALUES ('o', 'O', 'O');
  INSERT INTO spaces (id, organization_id, title, folder_path, discovered_at)
  VALUES ('s', 'o', 'S', 'O/S', '2026-01-01T00:00:00.000Z');`;

/**
 * For a cache migration's test: a fresh cache file per test, opened with the migrations up to
 * `version` (or up to `upTo`, to write rows as an older release would); closed and removed after.
 */
export function migratedCache(version: number): (upTo?: number) => CacheDb {
  let dir = '';
  const opened: CacheDb[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), `quire-cache-${version}-`));
  });
  afterEach(() => {
    for (const db of opened.splice(0)) if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return (upTo = version) => {
    const db = openCacheDatabase(join(dir, 'cache.db'), {
      migrations: cacheMigrations.slice(0, upTo),
    });
    opened.push(db);
    return db;
  };
}
