import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RemoteRevision } from '../sync-ports';
import { ContentCache } from './content-cache';
import { contentHash } from './content-hash';
import { openCacheDatabase, type CacheDb } from './open-cache-database';
import { SpaceCache } from './space-cache';

let dir: string;
let db: CacheDb;
let content: ContentCache;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-content-cache-'));
  db = openCacheDatabase(join(dir, 'cache.db'));
  content = new ContentCache(db);
  const spaces = new SpaceCache(db);
  spaces.insertOrganization({ id: 'o1', title: 'Acme', folderName: 'Acme', position: 0 });
  for (const id of ['s1', 's2']) {
    spaces.insertSpace({
      id,
      organizationId: 'o1',
      title: id,
      emoji: null,
      parentId: null,
      folderPath: `Acme/${id}`,
      position: 0,
      enabled: true,
      remoteRevision: 'r1',
      discoveredAt: '2026-01-01T00:00:00.000Z',
    });
  }
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const revision = (id: string, welcome = '# Welcome\n'): RemoteRevision => ({
  id,
  pages: [
    {
      id: 'p1',
      type: 'document',
      title: 'Welcome',
      slug: 'welcome',
      path: 'welcome',
      description: 'Start here',
      layout: { width: 'wide' },
      updatedAt: '2026-01-01',
      markdown: welcome,
      pages: [
        {
          id: 'p2',
          type: 'document',
          title: 'Child',
          slug: 'child',
          markdown: '# Same\n',
          pages: [],
        },
      ],
    },
    { id: 'g', type: 'group', title: 'Group', slug: 'group', pages: [] },
    { id: 'l', type: 'link', title: 'Site', href: 'https://example.com/', pages: [] },
    { id: 'p3', type: 'document', title: 'Twin', slug: 'twin', markdown: '# Same\n', pages: [] },
  ],
  files: [
    {
      id: 'f1',
      name: 'a.png',
      contentType: 'image/png',
      size: 3,
      downloadURL: 'https://x.test/a.png',
      dimensions: { width: 1, height: 2 },
    },
  ],
});

const bodyCount = () => (db.prepare('SELECT count(*) AS n FROM bodies').get() as { n: number }).n;

describe('ContentCache', () => {
  it('rebuilds the revision it stored: tree, fields, Markdown and files', () => {
    content.replaceSpaceContent('s1', revision('r1'), new Map([['f1', 'h1']]), 'now');
    expect(content.loadRevision('s1')).toEqual(revision('r1'));
    expect(content.revisionId('s1')).toBe('r1');
    expect(content.pageCount('s1')).toBe(5);
    expect(content.files('s1')[0]).toMatchObject({ id: 'f1', contentHash: 'h1' });
    expect(content.knownPages('s1')).toEqual(new Map([['p1', '2026-01-01']]));
    expect(content.pageMarkdown('s1', 'p2')).toBe('# Same\n');
    expect(content.loadRevision('s2')).toBeUndefined();
  });

  it('stores each body once, shared across pages and spaces, and drops unreferenced ones', () => {
    content.replaceSpaceContent('s1', revision('r1'), new Map(), 'now');
    content.replaceSpaceContent('s2', revision('r1'), new Map(), 'now');
    // '# Welcome\n' and '# Same\n' (p2 and p3 share it).
    expect(bodyCount()).toBe(2);
    content.replaceSpaceContent('s1', revision('r2', '# Welcome back\n'), new Map(), 'now');
    expect(bodyCount()).toBe(3);
    content.clearSpace('s2');
    expect(bodyCount()).toBe(2);
    const hashes = db.prepare('SELECT hash FROM bodies ORDER BY hash').all();
    expect(hashes).toEqual(
      [contentHash('# Welcome back\n'), contentHash('# Same\n')].sort().map((hash) => ({ hash })),
    );
  });

  it('replaces the previous revision of the space', () => {
    content.replaceSpaceContent('s1', revision('r1'), new Map(), 'now');
    content.replaceSpaceContent('s1', { id: 'r2', pages: [], files: [] }, new Map(), 'now');
    expect(content.loadRevision('s1')).toEqual({ id: 'r2', pages: [], files: [] });
    expect(db.prepare('SELECT id FROM revisions').all()).toEqual([{ id: 'r2' }]);
  });
});
