import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../open-database';
import { migrations } from './index';
import { migration0005OpenApi } from './0005-openapi';

let dir: string;
let db: Db;
const file = () => join(dir, 'server.db');

/** A version-4 database (before this migration) holding an organization. */
function openAtVersion4(): Db {
  const before = openDatabase(file(), { migrations: migrations.slice(0, 4) });
  before.exec(
    "INSERT INTO organizations (id, title, created_at) VALUES ('o-1', 'One', '2026-01-01')",
  );
  return before;
}

function insertSpec(id: string, url: string | null, text: string | null): void {
  db.prepare(
    `INSERT INTO openapi_specs (id, organization_id, slug, source_url, source_text, created_at, updated_at)
     VALUES (?, 'o-1', ?, ?, ?, '2026-01-02', '2026-01-02')`,
  ).run(id, id, url, text);
}

const count = (table: string) =>
  db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-migration-0005-'));
  openAtVersion4().close();
  // Up to this migration only: later ones would move user_version past it.
  db = openDatabase(file(), { migrations: migrations.slice(0, 5) });
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('migration 0005: OpenAPI specifications', () => {
  it('upgrades a version-4 file in place, keeping its data', () => {
    expect(migration0005OpenApi.version).toBe(5);
    expect(db.pragma('user_version', { simple: true })).toBe(5);
    expect(db.prepare('SELECT title FROM organizations').pluck().get()).toBe('One');
    expect(count('openapi_specs')).toBe(0);
    expect(count('openapi_jobs')).toBe(0);
  });

  it('holds exactly one source per specification and one slug per organization', () => {
    insertSpec('url', 'https://example.com/a.json', null);
    insertSpec('text', null, '{}');
    expect(() => insertSpec('both', 'https://example.com/', '{}')).toThrow(/CHECK constraint/);
    expect(() => insertSpec('none', null, null)).toThrow(/CHECK constraint/);
    expect(() => insertSpec('url', null, '{}')).toThrow(/UNIQUE constraint/);
    expect(() =>
      db.prepare("UPDATE openapi_specs SET last_error_code = 'OOPS' WHERE id = 'url'").run(),
    ).toThrow(/CHECK constraint/);
  });

  it('removes versions and jobs with their specification, and specifications with their organization', () => {
    insertSpec('s-1', null, '{}');
    db.exec(`
      INSERT INTO openapi_spec_versions (id, spec_id, content_hash, text, format, document, file_name, created_at)
        VALUES ('v-1', 's-1', 'h', '{}', 'json', '{}', 'openapi.json', '2026-01-02');
      INSERT INTO openapi_jobs (spec_id, created_at) VALUES ('s-1', '2026-01-02');
    `);
    db.prepare("DELETE FROM openapi_specs WHERE id = 's-1'").run();
    expect(count('openapi_spec_versions')).toBe(0);
    expect(count('openapi_jobs')).toBe(0);
    insertSpec('s-2', null, '{}');
    db.prepare("DELETE FROM organizations WHERE id = 'o-1'").run();
    expect(count('openapi_specs')).toBe(0);
  });
});
