import type Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from './open-sqlite';

describe('openSqlite', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'open-sqlite-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('opens in WAL mode with the durability asked for, foreign keys and a busy timeout', () => {
    const db = openSqlite(path.join(dir, 'a.db'), { synchronous: 'FULL' }, () => undefined);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    db.close();
  });

  it('closes the handle when setting up fails', () => {
    let seen: Database.Database | undefined;
    expect(() =>
      openSqlite(path.join(dir, 'b.db'), { synchronous: 'NORMAL' }, (db) => {
        seen = db;
        throw new Error('migration failed');
      }),
    ).toThrow('migration failed');
    expect(seen?.open).toBe(false);
  });
});
