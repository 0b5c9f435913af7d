import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../open-database';
import { migrations } from './index';
import { migration0006GitSync } from './0006-git-sync';

let dir: string;
let db: Db;
const file = () => join(dir, 'server.db');

/** A version-5 database (before this migration) holding a space. */
function openAtVersion5(): Db {
  const before = openDatabase(file(), { migrations: migrations.slice(0, 5) });
  before.exec(`
    INSERT INTO organizations (id, title, created_at) VALUES ('o-1', 'One', '2026-01-01');
    INSERT INTO spaces (id, organization_id, title, revision_id, share_key, created_at, updated_at)
      VALUES ('s-1', 'o-1', 'Docs', 'r-1', 'k', '2026-01-01', '2026-01-01');
  `);
  return before;
}

const count = (table: string) =>
  db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

function insertJob(direction: string): void {
  db.prepare(
    `INSERT INTO git_sync_jobs (space_id, user_id, direction, url, ref, created_at)
     VALUES ('s-1', 'u-1', ?, 'https://example.com/r.git', 'refs/heads/main', '2026-01-02')`,
  ).run(direction);
}

function insertState(state: string): void {
  db.prepare(
    `INSERT OR REPLACE INTO space_git_sync
       (space_id, provider, repo_url, ref, state, direction, started_at, updated_at)
     VALUES ('s-1', 'github', 'https://example.com/r.git', 'refs/heads/main', ?, 'import',
       '2026-01-02', '2026-01-02')`,
  ).run(state);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-migration-0006-'));
  openAtVersion5().close();
  db = openDatabase(file(), { migrations: migrations.slice(0, 6) });
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('migration 0006: Git Sync jobs and state', () => {
  it('upgrades a version-5 file in place, keeping its data', () => {
    expect(migration0006GitSync.version).toBe(6);
    expect(db.pragma('user_version', { simple: true })).toBe(6);
    expect(db.prepare('SELECT title FROM spaces').pluck().get()).toBe('Docs');
    expect(count('git_sync_jobs')).toBe(0);
    expect(count('space_git_sync')).toBe(0);
  });

  it('accepts only known directions and states', () => {
    insertJob('import');
    insertJob('export');
    expect(() => insertJob('sideways')).toThrow(/CHECK constraint/);
    insertState('running');
    insertState('success');
    expect(() => insertState('maybe')).toThrow(/CHECK constraint/);
  });

  it('removes jobs and state with their space', () => {
    insertJob('import');
    insertState('failure');
    db.prepare("DELETE FROM spaces WHERE id = 's-1'").run();
    expect(count('git_sync_jobs')).toBe(0);
    expect(count('space_git_sync')).toBe(0);
  });
});
