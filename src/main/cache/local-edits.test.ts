import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileIndexEntry } from './file-index';
import { openCacheDatabase, type CacheDb } from './open-cache-database';
import { LocalEdits, type LocalEdit } from './local-edits';

let dir: string;
let db: CacheDb;
let edits: LocalEdits;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-local-edits-'));
  db = openCacheDatabase(join(dir, 'cache.db'));
  edits = new LocalEdits(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (path: string, pageId: string, hash: string): FileIndexEntry => ({
  path,
  kind: 'page',
  pageId,
  fileId: null,
  contentHash: hash,
  size: 1,
  mtimeMs: 1,
});

const edit = (path: string, hash: string | null, extra: Partial<LocalEdit> = {}): LocalEdit => ({
  path,
  kind: 'page',
  pageId: null,
  localKey: null,
  contentHash: hash,
  size: hash === null ? null : 2,
  mtimeMs: hash === null ? null : 2,
  ...extra,
});

describe('LocalEdits', () => {
  it('overlays the synced index: edits replace bytes, deletions drop files, new pages appear', () => {
    const base = [entry('a.md', 'p-a', 'h-a'), entry('b.md', 'p-b', 'h-b')];
    edits.put('s1', edit('a.md', 'h-a2'));
    edits.put('s1', edit('b.md', null, { pageId: 'p-b' }));
    edits.put('s1', edit('c.md', 'h-c', { localKey: 'c.md@1' }));
    edits.setCreated('s1', 'c.md@1', 'p-c');

    const view = edits.overlay('s1', base);

    expect(view).toEqual([
      { ...entry('a.md', 'p-a', 'h-a2'), size: 2, mtimeMs: 2 },
      { ...entry('c.md', 'p-c', 'h-c'), size: 2, mtimeMs: 2 },
    ]);
    expect(edits.overlay('s2', base)).toEqual(base);
  });

  it('settles the edits a pulled revision contains, and paths the pull rewrote', () => {
    edits.put('s1', edit('a.md', 'h-a2'));
    edits.put('s1', edit('b.md', null));
    edits.put('s1', edit('c.md', 'h-c'));
    edits.put('s1', edit('d.md', 'h-d'));
    edits.put('s1', edit('e.md', null));
    const next = new Map([
      ['a.md', entry('a.md', 'p-a', 'h-a2')],
      ['c.md', entry('c.md', 'p-c', 'h-other')],
      ['e.md', entry('e.md', 'p-e', 'h-e')],
    ]);

    edits.settle('s1', next, new Set(['d.md']));

    expect(edits.list('s1').map((e) => e.path)).toEqual(['c.md', 'e.md']);
  });
});
