import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Migration } from './migration';
import { migrations } from './migrations';
import { migrate, openDatabase, type Db } from './open-database';

let dir: string;
const opened: Db[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-migrations-'));
});
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(name = 'server.db', list?: readonly Migration[]): Db {
  const db = openDatabase(join(dir, name), list ? { migrations: list } : {});
  opened.push(db);
  return db;
}

function rawDb(name = 'raw.db'): Db {
  const db = new Database(join(dir, name));
  opened.push(db);
  return db;
}

const userVersion = (db: Db) => db.pragma('user_version', { simple: true }) as number;
const tables = (db: Db) =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((row) => row.name);

const CORE_TABLES = [
  'users',
  'tokens',
  'organizations',
  'members',
  'invites',
  'teams',
  'team_members',
  'collections',
  'spaces',
  'space_grants',
  'bodies',
  'blobs',
  'revisions',
  'custom_fields',
  'space_custom_field_values',
  'idempotency_keys',
];

const step = (version: number, sql: string): Migration => ({
  version,
  name: `step-${version}`,
  up: (db) => db.exec(sql),
});

describe('openDatabase', () => {
  it('brings a fresh file to the latest version with WAL and foreign keys on', () => {
    const db = open();
    expect(userVersion(db)).toBe(migrations.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('creates the core tables of migration 0001', () => {
    expect(tables(open())).toEqual(expect.arrayContaining(CORE_TABLES));
  });

  it('creates every table each migration declares, one version at a time', () => {
    const db = rawDb();
    const exec = db.exec.bind(db);
    let statements: string[] = [];
    // Record the SQL each migration runs, to know which tables it promises.
    db.exec = (sql: string) => {
      statements.push(sql);
      return exec(sql);
    };
    for (const migration of migrations) {
      statements = [];
      expect(migrate(db, migrations.slice(0, migration.version))).toBe(1);
      expect(userVersion(db)).toBe(migration.version);
      const declared = statements.flatMap((sql) =>
        [...sql.matchAll(/CREATE\s+(?:VIRTUAL\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)/gi)].map(
          (match) => match[1]!,
        ),
      );
      expect(declared.length, migration.name).toBeGreaterThan(0);
      expect(tables(db)).toEqual(expect.arrayContaining(declared));
    }
  });

  it('reopening an up-to-date database applies nothing and keeps the data', () => {
    const first = open();
    first
      .prepare(
        "INSERT INTO users (id, display_name, email, created_at) VALUES ('u', 'U', 'u@x', '')",
      )
      .run();
    first.close();
    const again = open();
    expect(userVersion(again)).toBe(migrations.length);
    expect(migrate(again, migrations)).toBe(0);
    expect(again.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 1 });
  });

  it('enforces foreign keys', () => {
    const db = open();
    expect(() =>
      db
        .prepare(
          "INSERT INTO tokens (hash, user_id, created_at) VALUES ('h', 'no-such-user', 'now')",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });
});

describe('migrate', () => {
  it('applies only the migrations newer than user_version and reports how many', () => {
    const db = rawDb();
    const list = [step(1, 'CREATE TABLE a (x)'), step(2, 'CREATE TABLE b (x)')];
    expect(migrate(db, list.slice(0, 1))).toBe(1);
    expect(migrate(db, list)).toBe(1);
    expect(migrate(db, list)).toBe(0);
    expect(userVersion(db)).toBe(2);
    expect(tables(db)).toEqual(['a', 'b']);
  });

  it('refuses a list with a gap before applying anything', () => {
    const db = rawDb();
    const list = [step(1, 'CREATE TABLE a (x)'), step(3, 'CREATE TABLE c (x)')];
    expect(() => migrate(db, list)).toThrow(/step-3 has version 3, expected 2/);
    expect(userVersion(db)).toBe(0);
    expect(tables(db)).toEqual([]);
  });

  it('refuses a misnumbered or duplicated list', () => {
    const db = rawDb();
    expect(() => migrate(db, [step(0, 'CREATE TABLE a (x)')])).toThrow(/expected 1/);
    expect(() =>
      migrate(db, [step(1, 'CREATE TABLE a (x)'), step(1, 'CREATE TABLE b (x)')]),
    ).toThrow(/expected 2/);
    expect(() =>
      migrate(db, [step(2, 'CREATE TABLE b (x)'), step(1, 'CREATE TABLE a (x)')]),
    ).toThrow(/expected 1/);
    expect(tables(db)).toEqual([]);
  });

  it('refuses a database written by a newer server', () => {
    const db = rawDb();
    db.pragma('user_version = 5');
    expect(() => migrate(db, [step(1, 'CREATE TABLE a (x)')])).toThrow(/newer/);
    expect(tables(db)).toEqual([]);
  });

  it('rolls a failing migration back whole: no partial tables, user_version unchanged', () => {
    const db = rawDb();
    const list = [
      step(1, 'CREATE TABLE a (x)'),
      step(2, 'CREATE TABLE b (x); CREATE TABLE c (x); INSERT INTO nowhere VALUES (1)'),
    ];
    expect(() => migrate(db, list)).toThrow(/no such table: nowhere/);
    expect(userVersion(db)).toBe(1);
    expect(tables(db)).toEqual(['a']);
    // Fixed, it applies on the next start.
    expect(migrate(db, [list[0]!, step(2, 'CREATE TABLE b (x); CREATE TABLE c (x)')])).toBe(1);
    expect(tables(db)).toEqual(['a', 'b', 'c']);
  });

  it('rolls back a migration whose JavaScript throws after some SQL ran', () => {
    const db = rawDb();
    const failing: Migration = {
      version: 1,
      name: 'half',
      up(inner) {
        inner.exec('CREATE TABLE half (x)');
        throw new Error('boom');
      },
    };
    expect(() => migrate(db, [failing])).toThrow('boom');
    expect(userVersion(db)).toBe(0);
    expect(tables(db)).toEqual([]);
  });

  it('openDatabase leaves a file at its old version when a later migration fails', () => {
    const list = [...migrations, step(migrations.length + 1, 'CREATE TABLE z (x); SELECT nope()')];
    expect(() => open('bad.db', list)).toThrow();
    const db = open('bad.db');
    expect(userVersion(db)).toBe(migrations.length);
    expect(tables(db)).not.toContain('z');
  });
});
