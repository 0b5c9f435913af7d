import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../cache/open-cache-database';
import { SpaceCache, type CachedSpace } from '../cache/space-cache';
import { resolveInside } from '../mirror/resolve-inside';
import { allocateCheckoutFolder, checkoutsParentOf } from './checkout-folder';

let dir: string;
let db: CacheDb;
let space: CachedSpace;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-checkout-folder-'));
  db = openCacheDatabase(join(dir, 'cache.db'));
  db.exec(`INSERT INTO organizations (id, title, folder_name) VALUES ('o', 'Acme', 'Acme');
    INSERT INTO spaces (id, organization_id, title, folder_path, discovered_at)
    VALUES ('s', 'o', 'Handbook', 'Acme/Handbook', '2026-01-01T00:00:00.000Z');`);
  space = new SpaceCache(db).getSpace('s')!;
  mkdirSync(join(dir, 'mirror'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = () => ({ db, folder: join(dir, 'mirror') });

describe('allocateCheckoutFolder', () => {
  it('names the folder <number> <subject> beside the space folder', async () => {
    expect(checkoutsParentOf(space)).toBe('Acme/Handbook (change requests)');
    expect(await allocateCheckoutFolder(ctx(), space, { number: 4, subject: 'Fix it' })).toBe(
      'Acme/Handbook (change requests)/4 Fix it',
    );
  });

  it('makes one safe segment of a hostile subject', async () => {
    const hostile = ['../../../etc', 'a/b\\c', 'nul\u0000byte', 'CON', '..', 'é'.repeat(400), ''];
    for (const subject of hostile) {
      const folder = await allocateCheckoutFolder(ctx(), space, { number: 7, subject });
      const segments = folder.split('/');
      expect(segments.slice(0, 2)).toEqual(['Acme', 'Handbook (change requests)']);
      expect(segments).toHaveLength(3);
      expect(segments[2]!.includes('\u0000') || /[/\\]/.test(segments[2]!)).toBe(false);
      expect(Buffer.byteLength(segments[2]!)).toBeLessThanOrEqual(255);
      // It resolves inside the mirror root (resolveInside throws otherwise).
      expect(resolveInside(ctx().folder, ...segments).startsWith(ctx().folder)).toBe(true);
    }
  });

  it('never reuses a name taken on disk or by another checkout', async () => {
    mkdirSync(join(dir, 'mirror/Acme/Handbook (change requests)/3 Same'), { recursive: true });
    db.exec(`INSERT INTO spaces (id, organization_id, title, folder_path, discovered_at)
      VALUES ('k', 'o', 'Handbook #3', 'Acme/Handbook (change requests)/3 Same-2', 'now');`);
    expect(await allocateCheckoutFolder(ctx(), space, { number: 3, subject: 'Same' })).toBe(
      'Acme/Handbook (change requests)/3 Same-3',
    );
  });
});
