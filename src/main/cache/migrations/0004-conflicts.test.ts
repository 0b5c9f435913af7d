import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateCache, openCacheDatabase, type CacheDb } from '../open-cache-database';
import { migration0001CacheCore } from './0001-cache-core';
import { migration0002Outbox } from './0002-outbox';
import { migration0003LocalEdits } from './0003-local-edits';
import { migration0004Conflicts } from './0004-conflicts';

const UP_TO_4 = [
  migration0001CacheCore,
  migration0002Outbox,
  migration0003LocalEdits,
  migration0004Conflicts,
];

let dir: string;
const opened: CacheDb[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-cache-conflicts-'));
});
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(migrations = UP_TO_4): CacheDb {
  const db = openCacheDatabase(join(dir, 'cache.db'), { migrations });
  opened.push(db);
  return db;
}

const insert = (db: CacheDb, values: Record<string, unknown>) =>
  db
    .prepare(
      `INSERT INTO conflicts (space_id, kind, path, message, created_at, updated_at, resolved_at,
         resolution)
       VALUES (@space_id, @kind, @path, 'm', 't', 't', @resolved_at, @resolution)`,
    )
    .run({
      space_id: 's',
      kind: 'content',
      path: 'a.md',
      resolved_at: null,
      resolution: null,
      ...values,
    });

describe('migration 0004 (conflicts)', () => {
  it('upgrades a version 3 cache, keeping its data', () => {
    const v3 = open(UP_TO_4.slice(0, 3));
    v3.prepare("INSERT INTO sync_state (key, value) VALUES ('k', 'v')").run();
    v3.close();

    const db = open();
    expect(db.pragma('user_version', { simple: true })).toBe(4);
    expect(db.prepare('SELECT value FROM sync_state').get()).toEqual({ value: 'v' });
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((row) => row.name);
    expect(tables).toEqual(expect.arrayContaining(['conflicts', 'synced_texts']));
    expect(migrateCache(db, UP_TO_4)).toBe(0);
  });

  it('holds one open conflict per path, any number of resolved ones', () => {
    const db = open();
    insert(db, {});
    expect(() => insert(db, {})).toThrow(/UNIQUE/);
    insert(db, { resolved_at: 't', resolution: 'mine' });
    insert(db, { resolved_at: 't', resolution: 'theirs' });
    insert(db, { path: 'b.md' });
    expect(db.prepare('SELECT count(*) AS n FROM conflicts').get()).toEqual({ n: 4 });
  });

  it('refuses unknown kinds and a resolution without its time', () => {
    const db = open();
    expect(() => insert(db, { kind: 'other' })).toThrow(/CHECK/);
    expect(() => insert(db, { resolution: 'mine' })).toThrow(/CHECK/);
    expect(() => insert(db, { resolved_at: 't' })).toThrow(/CHECK/);
    expect(() => insert(db, { resolved_at: 't', resolution: 'later' })).toThrow(/CHECK/);
  });
});
