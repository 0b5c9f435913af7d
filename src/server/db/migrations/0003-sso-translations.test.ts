import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../open-database';
import { migrations } from './index';
import { migration0003SsoTranslations } from './0003-sso-translations';

let dir: string;
let db: Db;
const file = () => join(dir, 'server.db');

/** A version-2 database (before this migration) holding an organization and a team. */
function openAtVersion2(): Db {
  const before = openDatabase(file(), { migrations: migrations.slice(0, 2) });
  before.exec(`
    INSERT INTO organizations (id, title, created_at) VALUES ('o-1', 'One', '2026-01-01');
    INSERT INTO teams (id, organization_id, title, created_at) VALUES ('t-1', 'o-1', 'Team', '2026-01-01');
  `);
  return before;
}

function insertProvider(id: string, teamId: string | null, role: string | null): void {
  db.prepare(
    `INSERT INTO saml_providers (id, organization_id, label, default_team_id, default_role, created_at, updated_at)
     VALUES (?, 'o-1', 'Okta', ?, ?, '2026-01-02', '2026-01-02')`,
  ).run(id, teamId, role);
}

const count = (table: string) =>
  (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-migration-0003-'));
  openAtVersion2().close();
  // Up to this migration only: later ones would move user_version past it.
  db = openDatabase(file(), { migrations: migrations.slice(0, 3) });
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('migration 0003: SAML providers and translation settings', () => {
  it('upgrades a version-2 file in place, keeping its data', () => {
    expect(migration0003SsoTranslations.version).toBe(3);
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    expect(db.prepare('SELECT title FROM teams WHERE id = ?').get('t-1')).toEqual({
      title: 'Team',
    });
    expect(count('saml_providers')).toBe(0);
    expect(count('translation_settings')).toBe(0);
  });

  it('drops a deleted default team from its provider, not the provider', () => {
    insertProvider('p-1', 't-1', 'edit');
    db.prepare('DELETE FROM teams WHERE id = ?').run('t-1');
    expect(db.prepare('SELECT default_team_id FROM saml_providers').get()).toEqual({
      default_team_id: null,
    });
  });

  it('accepts a role or NULL (guests) as the default role, and nothing else', () => {
    insertProvider('p-guest', null, null);
    insertProvider('p-admin', null, 'admin');
    expect(() => insertProvider('p-owner', null, 'owner')).toThrow(/CHECK constraint/);
    expect(() => insertProvider('p-team', 't-none', 'read')).toThrow(/FOREIGN KEY/);
  });

  it('removes providers and translation settings with their organization', () => {
    insertProvider('p-1', 't-1', 'read');
    db.prepare(
      `INSERT INTO translation_settings (id, organization_id, title, created_at, updated_at)
       VALUES ('ts-1', 'o-1', 'Europe', '2026-01-02', '2026-01-02')`,
    ).run();
    expect(db.prepare('SELECT languages FROM translation_settings').get()).toEqual({
      languages: '[]',
    });
    db.prepare('DELETE FROM organizations WHERE id = ?').run('o-1');
    expect(count('saml_providers')).toBe(0);
    expect(count('translation_settings')).toBe(0);
  });
});
