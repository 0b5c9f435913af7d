import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CacheMigration } from './migrations/cache-migration';
import { cacheMigrations } from './migrations/cache-migrations';
import { migrateCache, openCacheDatabase, type CacheDb } from './open-cache-database';

let dir: string;
const opened: CacheDb[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-cache-migrations-'));
});
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(name = 'cache.db', list?: readonly CacheMigration[]): CacheDb {
  const db = openCacheDatabase(join(dir, name), list ? { migrations: list } : {});
  opened.push(db);
  return db;
}

function rawDb(name = 'raw.db'): CacheDb {
  const db = new Database(join(dir, name));
  opened.push(db);
  return db;
}

const userVersion = (db: CacheDb) => db.pragma('user_version', { simple: true }) as number;
const tables = (db: CacheDb) =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  )
    .map((row) => row.name)
    .filter((name) => !name.startsWith('sqlite_'));

const step = (version: number, sql: string): CacheMigration => ({
  version,
  name: `step-${version}`,
  up: (db) => db.exec(sql),
});

describe('openCacheDatabase', () => {
  it('brings a fresh file to the latest version with WAL, synchronous=FULL and foreign keys', () => {
    const db = open();
    expect(userVersion(db)).toBe(cacheMigrations.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    // 2 = FULL: a committed sync survives a power loss, not only a crash.
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('creates the cache tables', () => {
    expect(tables(open())).toEqual(
      expect.arrayContaining([
        'sync_state',
        'organizations',
        'spaces',
        'revisions',
        'bodies',
        'pages',
        'files',
        'change_requests',
        'file_index',
        'pending_writes',
        'sync_problems',
      ]),
    );
  });

  it('creates every table each migration declares, one version at a time', () => {
    const db = rawDb();
    const exec = db.exec.bind(db);
    let statements: string[] = [];
    db.exec = (sql: string) => {
      statements.push(sql);
      return exec(sql);
    };
    for (const migration of cacheMigrations) {
      statements = [];
      expect(migrateCache(db, cacheMigrations.slice(0, migration.version))).toBe(1);
      expect(userVersion(db)).toBe(migration.version);
      const declared = statements.flatMap((sql) =>
        // A migration creates tables or alters existing ones (0005 adds a column).
        [...sql.matchAll(/(?:CREATE|ALTER)\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)/gi)].map(
          (match) => match[1]!,
        ),
      );
      expect(declared.length, migration.name).toBeGreaterThan(0);
      expect(tables(db)).toEqual(expect.arrayContaining(declared));
    }
  });

  it('reopening an up-to-date cache applies nothing and keeps the data', () => {
    const first = open();
    first.prepare("INSERT INTO sync_state (key, value) VALUES ('k', 'v')").run();
    first.close();
    const again = open();
    expect(userVersion(again)).toBe(cacheMigrations.length);
    expect(migrateCache(again, cacheMigrations)).toBe(0);
    expect(again.prepare('SELECT value FROM sync_state').get()).toEqual({ value: 'v' });
  });

  it('enforces foreign keys', () => {
    const db = open();
    expect(() =>
      db
        .prepare(
          `INSERT INTO spaces (id, organization_id, title, folder_path, discovered_at)
           VALUES ('s', 'no-such-org', 'S', 'O/S', '')`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });

  it('leaves a file at its old version when a later migration fails, and closes it', () => {
    const list = [
      ...cacheMigrations,
      step(cacheMigrations.length + 1, 'CREATE TABLE z (x); SELECT nope()'),
    ];
    expect(() => open('bad.db', list)).toThrow();
    const db = open('bad.db');
    expect(userVersion(db)).toBe(cacheMigrations.length);
    expect(tables(db)).not.toContain('z');
  });
});

describe('prepared statements', () => {
  it('are compiled once per SQL text and reused, with fresh parameters each run', () => {
    const db = open();
    const sql = 'SELECT value FROM sync_state WHERE key = ?';
    expect(db.prepare(sql)).toBe(db.prepare(sql));
    db.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?)').run('a', '1');
    db.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?)').run('b', '2');
    expect(db.prepare(sql).get('a')).toEqual({ value: '1' });
    expect(db.prepare(sql).get('b')).toEqual({ value: '2' });
  });

  it('are never given a mode or bound parameters by the desktop code (they are shared)', () => {
    const mainDir = join(dirname(fileURLToPath(import.meta.url)), '..');
    const sources = (readdirSync(mainDir, { recursive: true }) as string[]).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    expect(sources.length).toBeGreaterThan(50);
    const offenders = sources.filter((file) =>
      /\.prepare\([^;]*?\)\s*\.(bind|pluck|raw|expand|iterate|safeIntegers)\(/s.test(
        readFileSync(join(mainDir, file), 'utf8'),
      ),
    );
    expect(offenders).toEqual([]);
  });
});

describe('migrateCache', () => {
  it('applies only the migrations newer than user_version and reports how many', () => {
    const db = rawDb();
    const list = [step(1, 'CREATE TABLE a (x)'), step(2, 'CREATE TABLE b (x)')];
    expect(migrateCache(db, list.slice(0, 1))).toBe(1);
    expect(migrateCache(db, list)).toBe(1);
    expect(migrateCache(db, list)).toBe(0);
    expect(userVersion(db)).toBe(2);
    expect(tables(db)).toEqual(['a', 'b']);
  });

  it('refuses a list with a gap or a duplicate before applying anything', () => {
    const db = rawDb();
    expect(() =>
      migrateCache(db, [step(1, 'CREATE TABLE a (x)'), step(3, 'CREATE TABLE c (x)')]),
    ).toThrow(/step-3 has version 3, expected 2/);
    expect(() =>
      migrateCache(db, [step(1, 'CREATE TABLE a (x)'), step(1, 'CREATE TABLE b (x)')]),
    ).toThrow(/expected 2/);
    expect(userVersion(db)).toBe(0);
    expect(tables(db)).toEqual([]);
  });

  it('refuses a cache written by a newer Quire', () => {
    const db = rawDb();
    db.pragma('user_version = 5');
    expect(() => migrateCache(db, [step(1, 'CREATE TABLE a (x)')])).toThrow(/newer/);
    expect(tables(db)).toEqual([]);
  });

  it('rolls a failing migration back whole', () => {
    const db = rawDb();
    const failing: CacheMigration = {
      version: 1,
      name: 'half',
      up(inner) {
        inner.exec('CREATE TABLE half (x)');
        throw new Error('boom');
      },
    };
    expect(() => migrateCache(db, [failing])).toThrow('boom');
    expect(userVersion(db)).toBe(0);
    expect(tables(db)).toEqual([]);
  });
});
