import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { applyMigrations, type MigrationWording } from './apply-migrations';
import type { SqliteMigration } from './sqlite-migration';

const wording: MigrationWording = {
  step: 'Test migration',
  newer: (current, known) => `schema ${current} is newer than ${known}`,
};

function step(version: number, sql: string): SqliteMigration {
  return { version, name: `step-${version}`, up: (db) => db.exec(sql) };
}

function tables(db: Database.Database): string[] {
  const rows = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all() as { name: string }[];
  return rows.map((row) => row.name);
}

describe('applyMigrations', () => {
  it('applies the steps newer than user_version, each once, and counts them', () => {
    const db = new Database(':memory:');
    const list = [step(1, 'CREATE TABLE a (x)'), step(2, 'CREATE TABLE b (x)')];
    expect(applyMigrations(db, list.slice(0, 1), wording)).toBe(1);
    expect(applyMigrations(db, list, wording)).toBe(1);
    expect(applyMigrations(db, list, wording)).toBe(0);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(tables(db)).toEqual(['a', 'b']);
  });

  it('refuses a misnumbered list or a newer database, in the words it is given', () => {
    const db = new Database(':memory:');
    expect(() =>
      applyMigrations(db, [step(1, 'CREATE TABLE a (x)'), step(3, 'CREATE TABLE c (x)')], wording),
    ).toThrow('Test migration step-3 has version 3, expected 2');
    expect(tables(db)).toEqual([]);
    db.pragma('user_version = 5');
    expect(() => applyMigrations(db, [step(1, 'CREATE TABLE a (x)')], wording)).toThrow(
      'schema 5 is newer than 1',
    );
  });

  it('rolls a failing step back whole and keeps the steps before it', () => {
    const db = new Database(':memory:');
    const list = [step(1, 'CREATE TABLE a (x)'), step(2, 'CREATE TABLE b (x); SELECT nope()')];
    expect(() => applyMigrations(db, list, wording)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(tables(db)).toEqual(['a']);
  });
});
