import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateCache, openCacheDatabase, type CacheDb } from '../open-cache-database';
import { cacheMigrations } from './cache-migrations';

const UP_TO_8 = cacheMigrations.slice(0, 8);

let dir: string;
const opened: CacheDb[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-cache-activity-'));
});
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(migrations = UP_TO_8): CacheDb {
  const db = openCacheDatabase(join(dir, 'cache.db'), { migrations });
  opened.push(db);
  return db;
}

const insert = (db: CacheDb, kind: string) =>
  db
    .prepare("INSERT INTO activity (at, kind, summary) VALUES ('2026-01-01T00:00:00.000Z', ?, 's')")
    .run(kind);

describe('migration 0008 (activity)', () => {
  it('upgrades a version 7 cache, keeping its data', () => {
    const v7 = open(UP_TO_8.slice(0, 7));
    v7.prepare("INSERT INTO sync_state (key, value) VALUES ('k', 'v')").run();
    v7.close();

    const db = open();
    expect(db.pragma('user_version', { simple: true })).toBe(8);
    expect(db.prepare('SELECT value FROM sync_state').get()).toEqual({ value: 'v' });
    insert(db, 'pulled');
    expect(db.prepare('SELECT files, space_id FROM activity').get()).toEqual({
      files: '[]',
      space_id: null,
    });
    expect(migrateCache(db, UP_TO_8)).toBe(0);
  });

  it('refuses unknown kinds', () => {
    const db = open();
    expect(() => insert(db, 'deleted')).toThrow(/CHECK/);
  });
});
