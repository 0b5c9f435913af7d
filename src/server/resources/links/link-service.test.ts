import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RevisionStore } from '../../content/revision-store';
import type { StoredPage } from '../../content/revision-tree';
import { openDatabase, type Db } from '../../db/open-database';
import { Urls } from '../../http/urls';
import type { ServerContext } from '../../server-context';
import { CpuPool, defaultCpuPoolOptions } from '../../workers/cpu-pool';
import { MarkdownJobs } from '../../workers/markdown-jobs';
import { LinkService } from './link-service';
import { BoundedCache } from './bounded-cache';

const AT = '2025-01-01T00:00:00.000Z';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
  // Revisions only: the spaces they belong to are not needed here.
  db.pragma('foreign_keys = OFF');
});
afterEach(() => db.close());

function page(id: string, body: string): StoredPage {
  return {
    id,
    type: 'document',
    title: id,
    slug: id,
    body,
    createdAt: AT,
    updatedAt: AT,
    pages: [],
  };
}

describe('LinkService', () => {
  it('computes a revision once and parses a shared body once, on a worker thread', async () => {
    const store = new RevisionStore(db);
    const a = store.putBody('[b](/pages/b) [out](https://example.com)');
    const b = store.putBody('[gone](/pages/zz)');
    const first = store.create(
      's',
      { pages: [page('a', a), page('b', b)], files: [] },
      [],
      'edits',
      AT,
    );
    const second = store.create('s', { pages: [page('a', a)], files: [] }, [first], 'edits', AT);
    const cpu = new CpuPool(defaultCpuPoolOptions());
    const parsed: string[] = [];
    const run = cpu.run.bind(cpu);
    cpu.run = (kind, input) => {
      if (kind === 'links') parsed.push(...(input as { bodies: string[] }).bodies);
      return run(kind, input);
    };
    const markdown = new MarkdownJobs(cpu);
    const ctx = { db, urls: new Urls('http://quire.test'), cpu, markdown } as ServerContext;
    const service = new LinkService(ctx);

    const links = await service.ofRevision(first);
    expect(links.links.map((link) => [link.key, link.status])).toEqual([
      ['page:b', 'ok'],
      ['page:zz', 'broken'],
      ['url:https://example.com', 'ok'],
    ]);
    expect(links.brokenCount).toBe(1);
    expect(await service.ofRevision(first)).toBe(links);
    // The page b is gone in the second revision: the same body now links to a missing page.
    const later = await service.ofRevision(second);
    expect(later.links.map((link) => [link.key, link.status])).toEqual([
      ['page:b', 'broken'],
      ['url:https://example.com', 'ok'],
    ]);
    expect(parsed).toHaveLength(2);
    await cpu.close();
  });
});

describe('BoundedCache', () => {
  it('evicts the least recently used entry', () => {
    const cache = new BoundedCache<number>(2);
    let computed = 0;
    const get = (key: string) => cache.get(key, () => ++computed);
    get('a');
    get('b');
    get('a');
    get('c');
    expect(cache.size).toBe(2);
    expect(get('a')).toBe(1);
    expect(get('b')).toBe(4);
  });
});
