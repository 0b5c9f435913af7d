import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../cache/open-cache-database';
import { SyncedTexts } from '../cache/synced-texts';
import { ConflictStore, type NewConflict } from './conflict-store';

let dir: string;
let db: CacheDb;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-conflict-store-'));
  db = openCacheDatabase(join(dir, 'cache.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const conflict = (overrides: Partial<NewConflict> = {}): NewConflict => ({
  spaceId: 's1',
  kind: 'content',
  path: 'guides/setup.md',
  pageId: 'p-setup',
  fileId: null,
  title: 'Setup',
  baseHash: 'b',
  remoteHash: 'r',
  localHash: 'l',
  message: 'both sides edited line 3',
  ...overrides,
});

describe('ConflictStore', () => {
  it('records, lists and resolves conflicts', () => {
    const store = new ConflictStore(db);
    const first = store.record(conflict(), '2025-01-01T00:00:00.000Z');
    const other = store.record(
      conflict({ spaceId: 's2', path: 'x.md' }),
      '2025-01-02T00:00:00.000Z',
    );
    expect(first).toMatchObject({ id: expect.any(Number), resolvedAt: null, resolution: null });
    expect(store.open().map((c) => c.id)).toEqual([first.id, other.id]);
    expect(store.open('s2').map((c) => c.id)).toEqual([other.id]);

    expect(store.resolve(first.id, 'theirs', '2025-01-03T00:00:00.000Z')).toBe(true);
    expect(store.resolve(first.id, 'mine', '2025-01-04T00:00:00.000Z')).toBe(false);
    expect(store.get(first.id)).toMatchObject({
      resolution: 'theirs',
      resolvedAt: '2025-01-03T00:00:00.000Z',
    });
    expect(store.open().map((c) => c.id)).toEqual([other.id]);
    expect(store.resolve(9999, 'mine', 'now')).toBe(false);
  });

  it('updates the open conflict at a path in place, keeping its id and creation time', () => {
    const store = new ConflictStore(db);
    const first = store.record(conflict(), '2025-01-01T00:00:00.000Z');
    const again = store.record(
      conflict({ remoteHash: 'r2', message: 'newer' }),
      '2025-01-05T00:00:00.000Z',
    );
    expect(again).toMatchObject({
      id: first.id,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-05T00:00:00.000Z',
      remoteHash: 'r2',
      message: 'newer',
    });
    expect(store.open()).toHaveLength(1);
    // Once resolved, a new conflict at the same path is a new one.
    store.resolve(first.id, 'mine', 'now');
    expect(store.record(conflict(), 'later').id).not.toBe(first.id);
  });

  it('keeps the texts open conflicts and the file index refer to, and collects the rest', () => {
    const store = new ConflictStore(db);
    const texts = new SyncedTexts(db);
    const base = texts.put('base\n');
    const remote = texts.put('remote\n');
    const indexed = texts.put('indexed\n');
    const orphan = texts.put('orphan\n');
    db.prepare("INSERT INTO organizations (id, title, folder_name) VALUES ('o', 'O', 'O')").run();
    db.prepare(
      `INSERT INTO spaces (id, organization_id, title, folder_path, discovered_at)
       VALUES ('s1', 'o', 'S', 'O/S', 'now')`,
    ).run();
    db.prepare(
      `INSERT INTO file_index (space_id, path, kind, page_id, file_id, content_hash, size, mtime_ms)
       VALUES ('s1', 'a.md', 'page', 'p-a', NULL, ?, 1, 1)`,
    ).run(indexed);
    const recorded = store.record(conflict({ baseHash: base, remoteHash: remote }), 'now');

    texts.collect();
    expect([base, remote, indexed].map((hash) => texts.get(hash))).toEqual([
      'base\n',
      'remote\n',
      'indexed\n',
    ]);
    expect(texts.get(orphan)).toBeUndefined();

    store.resolve(recorded.id, 'mine', 'now');
    texts.collect();
    expect(texts.get(base)).toBeUndefined();
    expect(texts.get(indexed)).toBe('indexed\n');
  });

  it('forgets a space', () => {
    const store = new ConflictStore(db);
    store.record(conflict(), 'now');
    store.record(conflict({ spaceId: 's2' }), 'now');
    store.clearSpace('s1');
    expect(store.open().map((c) => c.spaceId)).toEqual(['s2']);
  });
});
