import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateCache, openCacheDatabase, type CacheDb } from '../open-cache-database';
import { migration0001CacheCore } from './0001-cache-core';
import { migration0002Outbox } from './0002-outbox';

let dir: string;
const opened: CacheDb[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-cache-outbox-'));
});
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(migrations = [migration0001CacheCore, migration0002Outbox]): CacheDb {
  const db = openCacheDatabase(join(dir, 'cache.db'), { migrations });
  opened.push(db);
  return db;
}

const insertRow = (db: CacheDb, values: Record<string, unknown>) =>
  db
    .prepare(
      `INSERT INTO outbox (space_id, kind, page_id, local_key, payload, created_at, updated_at,
         state, batch_id)
       VALUES (@space_id, @kind, @page_id, @local_key, '{}', 't', 't', @state, @batch_id)`,
    )
    .run({
      space_id: 's',
      kind: 'update_page',
      page_id: 'p',
      local_key: null,
      state: 'pending',
      batch_id: null,
      ...values,
    });

describe('migration 0002 (outbox)', () => {
  it('upgrades a version 1 cache, keeping its data', () => {
    const v1 = open([migration0001CacheCore]);
    v1.prepare("INSERT INTO sync_state (key, value) VALUES ('k', 'v')").run();
    v1.close();

    const db = open();
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare('SELECT value FROM sync_state').get()).toEqual({ value: 'v' });
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((row) => row.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'outbox',
        'outbox_batches',
        'outbox_created',
        'working_change_requests',
        'sync_pause',
      ]),
    );
    expect(migrateCache(db, [migration0001CacheCore, migration0002Outbox])).toBe(0);
  });

  it('keeps a change in a batch exactly when it is being sent', () => {
    const db = open();
    db.prepare(
      `INSERT INTO outbox_batches (id, space_id, change_request_id, payload, state, created_at)
       VALUES ('key', 's', 'cr', '{"changes":[]}', 'ready', 't')`,
    ).run();
    expect(() => insertRow(db, { state: 'sending' })).toThrow(/CHECK/);
    expect(() => insertRow(db, { batch_id: 'key' })).toThrow(/CHECK/);
    expect(() => insertRow(db, { state: 'sending', batch_id: 'missing' })).toThrow(/FOREIGN KEY/);
    insertRow(db, { state: 'sending', batch_id: 'key' });
    expect(() => db.prepare("DELETE FROM outbox_batches WHERE id = 'key'").run()).toThrow(
      /FOREIGN KEY/,
    );
  });

  it('refuses a change that names no page and unknown kinds or states', () => {
    const db = open();
    expect(() => insertRow(db, { page_id: null })).toThrow(/CHECK/);
    expect(() => insertRow(db, { kind: 'rename_page' })).toThrow(/CHECK/);
    expect(() => insertRow(db, { state: 'lost' })).toThrow(/CHECK/);
    insertRow(db, { kind: 'insert_page', page_id: null, local_key: 'new.md' });
    expect(db.prepare('SELECT count(*) AS n FROM outbox').get()).toEqual({ n: 1 });
  });

  it('holds a single pause', () => {
    const db = open();
    db.prepare("INSERT INTO sync_pause (id, paused_at) VALUES (1, 't')").run();
    expect(() =>
      db.prepare("INSERT INTO sync_pause (id, paused_at) VALUES (2, 't')").run(),
    ).toThrow(/CHECK/);
  });
});
