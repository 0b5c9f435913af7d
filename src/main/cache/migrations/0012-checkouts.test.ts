import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../open-cache-database';
import { SpaceCache } from '../space-cache';
import { cacheMigrations } from './cache-migrations';

const UP_TO_12 = cacheMigrations.slice(0, 12);

let dir: string;
const opened: CacheDb[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-cache-checkouts-'));
});
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(migrations = UP_TO_12): CacheDb {
  const db = openCacheDatabase(join(dir, 'cache.db'), { migrations });
  opened.push(db);
  return db;
}

const SPACES = `INSERT INTO organizations (id, title, folder_name) VALUES ('o', 'O', 'O');
  INSERT INTO spaces (id, organization_id, title, folder_path, discovered_at)
  VALUES ('s', 'o', 'S', 'O/S', 'now'),
    ('checkout:s:c', 'o', 'S #1', 'O/S (change requests)/1 Fix', 'now');`;
const CHECKOUT = `INSERT INTO checkouts (key, space_id, change_request_id, number, subject, status, created_at)
  VALUES ('checkout:s:c', 's', 'c', 1, 'Fix', 'open', 'now');`;

describe('migration 0012 (checkouts)', () => {
  it('upgrades a version 11 cache, keeping its data', () => {
    const v11 = open(UP_TO_12.slice(0, 11));
    v11.exec(SPACES);
    v11.close();
    const db = open();
    expect(db.pragma('user_version', { simple: true })).toBe(12);
    expect(db.prepare('SELECT count(*) AS n FROM spaces').get()).toEqual({ n: 2 });
  });

  it("hides a checkout's own row from the space listing, not from getSpace", () => {
    const db = open();
    db.exec(SPACES + CHECKOUT);
    const spaces = new SpaceCache(db);
    expect(spaces.listSpaces().map((space) => space.id)).toEqual(['s']);
    expect(spaces.listSpaces('o').map((space) => space.id)).toEqual(['s']);
    expect(spaces.countSpaces()).toBe(1);
    expect(spaces.getSpace('checkout:s:c')?.folderPath).toBe('O/S (change requests)/1 Fix');
  });

  it('one checkout per change request, dropped with its row or its space', () => {
    const db = open();
    db.exec(SPACES + CHECKOUT);
    expect(() => db.exec(CHECKOUT.replace("('checkout:s:c'", "('checkout:s:d'"))).toThrow();
    db.prepare("DELETE FROM spaces WHERE id = 'checkout:s:c'").run();
    expect(db.prepare('SELECT count(*) AS n FROM checkouts').get()).toEqual({ n: 0 });
    db.exec(`INSERT INTO spaces (id, organization_id, title, folder_path, discovered_at)
      VALUES ('checkout:s:c', 'o', 'S #1', 'O/S (change requests)/1 Fix', 'now');`);
    db.exec(CHECKOUT);
    db.prepare("DELETE FROM spaces WHERE id = 's'").run();
    expect(db.prepare('SELECT count(*) AS n FROM checkouts').get()).toEqual({ n: 0 });
  });
});
