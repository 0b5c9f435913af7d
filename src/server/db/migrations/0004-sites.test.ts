import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../open-database';
import { migrations } from './index';
import { migration0004Sites } from './0004-sites';

let dir: string;
let db: Db;
const file = () => join(dir, 'server.db');

/** A version-3 database (before this migration) holding an organization and a space. */
function openAtVersion3(): Db {
  const before = openDatabase(file(), { migrations: migrations.slice(0, 3) });
  before.exec(`
    INSERT INTO organizations (id, title, created_at) VALUES ('o-1', 'One', '2026-01-01');
    INSERT INTO spaces (id, organization_id, title, emoji, visibility, edit_mode, revision_id,
      share_key, position, created_at, updated_at)
    VALUES ('s-1', 'o-1', 'Space', '', 'private', 'live', '', 'k', 0, '2026-01-01', '2026-01-01');
  `);
  return before;
}

const count = (table: string) =>
  (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

function insertSite(): void {
  db.exec(`
    INSERT INTO sites (id, organization_id, type, title, visibility, created_at, updated_at)
    VALUES ('site-1', 'o-1', 'basic', 'Docs', 'public', '2026-01-02', '2026-01-02');
    INSERT INTO site_section_groups (id, site_id, title, position, created_at)
    VALUES ('g-1', 'site-1', 'Group', 0, '2026-01-02');
    INSERT INTO site_sections (id, site_id, section_group_id, title, path, position, created_at)
    VALUES ('sec-1', 'site-1', 'g-1', 'Guides', 'guides', 1, '2026-01-02');
    INSERT INTO site_spaces (id, site_id, section_id, space_id, path, position, created_at)
    VALUES ('ss-1', 'site-1', 'sec-1', 's-1', 'space', 0, '2026-01-02');
    INSERT INTO site_share_links (id, site_id, name, share_key, created_at)
    VALUES ('l-1', 'site-1', 'Partners', 'secret', '2026-01-02');
  `);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-migration-0004-'));
  openAtVersion3().close();
  // Up to this migration only: later ones are tested in their own files.
  db = openDatabase(file(), { migrations: migrations.slice(0, 4) });
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('migration 0004: docs sites', () => {
  it('upgrades a version-3 file in place, keeping its data', () => {
    expect(migration0004Sites.version).toBe(4);
    expect(db.pragma('user_version', { simple: true })).toBe(4);
    expect(db.prepare('SELECT title FROM spaces WHERE id = ?').get('s-1')).toEqual({
      title: 'Space',
    });
    expect(count('sites')).toBe(0);
  });

  it('keeps a path unique per section (and per site root), and a share key unique', () => {
    insertSite();
    const addSiteSpace = (id: string, section: string | null, path: string) =>
      db
        .prepare(
          `INSERT INTO site_spaces (id, site_id, section_id, space_id, path, position, created_at)
           VALUES (?, 'site-1', ?, 's-1', ?, 1, '2026-01-03')`,
        )
        .run(id, section, path);
    expect(() => addSiteSpace('ss-2', 'sec-1', 'space')).toThrow(/UNIQUE/);
    addSiteSpace('ss-3', null, 'space');
    expect(() => addSiteSpace('ss-4', null, 'space')).toThrow(/UNIQUE/);
    expect(() =>
      db.exec(`INSERT INTO site_share_links (id, site_id, name, share_key, created_at)
               VALUES ('l-2', 'site-1', 'Again', 'secret', '2026-01-03')`),
    ).toThrow(/UNIQUE/);
  });

  it('keeps sections when their group goes, and removes everything with the site', () => {
    insertSite();
    db.prepare('DELETE FROM site_section_groups WHERE id = ?').run('g-1');
    expect(db.prepare('SELECT section_group_id FROM site_sections').get()).toEqual({
      section_group_id: null,
    });
    db.prepare('DELETE FROM sites WHERE id = ?').run('site-1');
    for (const table of ['site_sections', 'site_spaces', 'site_share_links']) {
      expect(count(table)).toBe(0);
    }
  });

  it('drops a site space when its space is removed for good', () => {
    insertSite();
    db.prepare('DELETE FROM spaces WHERE id = ?').run('s-1');
    expect(count('site_spaces')).toBe(0);
    expect(count('site_sections')).toBe(1);
  });
});
