import { describe, expect, it } from 'vitest';
import { SpaceCache } from '../space-cache';
import { migratedCache } from '../../../../test/support/migrated-cache';

const open = migratedCache(12);

const SPACES = `INSERT INTO organizations (id, title, folder_name) VALUES ('o', 'O', 'O');
  INSERT INTO spaces (id, organization_id, title, folder_path, discovered_at)
  VALUES ('s', 'o', 'S', 'O/S', 'now'),
    ('checkout:s:c', 'o', 'S #1', 'O/S (change requests)/1 Fix', 'now');`;
const CHECKOUT = `INSERT INTO checkouts (key, space_id, change_request_id, number, subject, status, created_at)
  VALUES ('checkout:s:c', 's', 'c', 1, 'Fix', 'open', 'now');`;

describe('migration 0012 (checkouts)', () => {
  it('upgrades a version 11 cache, keeping its data', () => {
    const v11 = open(11);
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
