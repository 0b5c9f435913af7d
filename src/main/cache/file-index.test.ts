import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileIndex, type FileIndexEntry } from './file-index';
import { openCacheDatabase, type CacheDb } from './open-cache-database';
import { SpaceCache } from './space-cache';

let dir: string;
let db: CacheDb;
let index: FileIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-file-index-'));
  db = openCacheDatabase(join(dir, 'cache.db'));
  index = new FileIndex(db);
  const spaces = new SpaceCache(db);
  spaces.insertOrganization({ id: 'o1', title: 'Acme', folderName: 'Acme', position: 0 });
  spaces.insertSpace({
    id: 's1',
    organizationId: 'o1',
    title: 'S',
    emoji: null,
    parentId: null,
    folderPath: 'Acme/S',
    position: 0,
    enabled: true,
    remoteRevision: 'r1',
    discoveredAt: 'now',
  });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (path: string, pageId: string | null): FileIndexEntry => ({
  path,
  kind: pageId ? 'page' : 'layout',
  pageId,
  fileId: null,
  contentHash: `h-${path}`,
  size: 10,
  mtimeMs: 1234.5,
});

describe('FileIndex', () => {
  it('maps paths to page ids both ways and replaces a space whole', () => {
    index.replaceSpace('s1', [entry('README.md', 'p1'), entry('SUMMARY.md', null)]);
    expect(index.get('s1', 'README.md')).toEqual(entry('README.md', 'p1'));
    expect(index.byPage('s1', 'p1')?.path).toBe('README.md');
    index.replaceSpace('s1', [entry('welcome.md', 'p1')]);
    expect(index.entries('s1')).toEqual([entry('welcome.md', 'p1')]);
  });

  it('refuses two files for one page', () => {
    expect(() => index.replaceSpace('s1', [entry('a.md', 'p1'), entry('b.md', 'p1')])).toThrow(
      /UNIQUE/,
    );
  });

  it('journals pending writes until cleared', () => {
    index.addPendingWrites('s1', [
      { path: 'a.md', contentHash: 'x' },
      { path: 'a.md', contentHash: 'y' },
      { path: 'a.md', contentHash: 'x' },
    ]);
    expect(index.pendingWrites('s1')).toEqual(new Map([['a.md', new Set(['x', 'y'])]]));
    index.clearPending('s1');
    expect(index.pendingWrites('s1')).toEqual(new Map());
  });

  it('goes with its space', () => {
    index.replaceSpace('s1', [entry('README.md', 'p1')]);
    index.addPendingWrites('s1', [{ path: 'a.md', contentHash: 'x' }]);
    new SpaceCache(db).deleteSpace('s1');
    expect(index.entries('s1')).toEqual([]);
    expect(index.pendingWrites('s1').size).toBe(0);
  });
});
