import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../open-database';
import { migrations } from './index';
import { migration0007GitSyncConfig } from './0007-gitsync-config';

let dir: string;
let db: Db;
const file = () => join(dir, 'server.db');

/** A version-6 database (before this migration) holding a space with a change request. */
function openAtVersion6(): Db {
  const before = openDatabase(file(), { migrations: migrations.slice(0, 6) });
  before.exec(`
    INSERT INTO organizations (id, title, created_at) VALUES ('o-1', 'One', '2026-01-01');
    INSERT INTO users (id, display_name, email, created_at) VALUES ('u-1', 'U', 'u@x', '2026-01-01');
    INSERT INTO spaces (id, organization_id, title, emoji, visibility, edit_mode, revision_id,
      share_key, position, created_at, updated_at)
    VALUES ('s-1', 'o-1', 'Space', '', 'private', 'live', '', 'k', 0, '2026-01-01', '2026-01-01');
    INSERT INTO change_requests (id, space_id, number, created_by, created_at, updated_at,
      revision_id, revision_initial)
    VALUES ('cr-1', 's-1', 1, 'u-1', '2026-01-01', '2026-01-01', 'r', 'r');
  `);
  return before;
}

function insertConfig(changeRequest: string | null): void {
  db.prepare(
    `INSERT INTO gitsync_configs (space_id, change_request_id, text, root, readme, summary,
       redirects, updated_at) VALUES ('s-1', ?, 'root: ./', '', 'README.md', 'SUMMARY.md', '{}', 'now')`,
  ).run(changeRequest);
}

const count = () => db.prepare('SELECT count(*) FROM gitsync_configs').pluck().get() as number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-migration-0007-'));
  openAtVersion6().close();
  db = openDatabase(file(), { migrations: migrations.slice(0, 7) });
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('migration 0007: Git Sync configuration', () => {
  it('upgrades a version-6 file in place, keeping its data', () => {
    expect(migration0007GitSyncConfig.version).toBe(7);
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    expect(db.prepare('SELECT title FROM spaces').pluck().get()).toBe('Space');
    expect(count()).toBe(0);
  });

  it('holds one configuration per space and one per change request', () => {
    insertConfig(null);
    insertConfig('cr-1');
    expect(() => insertConfig(null)).toThrow(/UNIQUE constraint/);
    expect(() => insertConfig('cr-1')).toThrow(/UNIQUE constraint/);
  });

  it('goes with its change request and its space', () => {
    insertConfig(null);
    insertConfig('cr-1');
    db.prepare("DELETE FROM change_requests WHERE id = 'cr-1'").run();
    expect(count()).toBe(1);
    db.prepare("DELETE FROM spaces WHERE id = 's-1'").run();
    expect(count()).toBe(0);
  });
});
