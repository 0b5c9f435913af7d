import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { serializePages } from '../../content/page-serializer';
import type { StoredPage } from '../../content/revision-tree';
import { Urls } from '../../http/urls';
import { JsonResponseCache, toJsonBytes } from './json-response-cache';
import { revisionJsonWithMarkdown } from './revision-json';

const AT = '2026-01-01T00:00:00.000Z';

function page(
  id: string,
  type: StoredPage['type'],
  body?: string,
  pages: StoredPage[] = [],
): StoredPage {
  return {
    id,
    type,
    title: `Title "${id}"`,
    slug: id,
    ...(body !== undefined ? { body } : {}),
    ...(type === 'link' ? { href: 'https://example.com/' } : {}),
    createdAt: AT,
    updatedAt: AT,
    pages,
  };
}

/** Quotes like ContentQueries.quotedBodies does, with SQLite's json_quote. */
function quote(markdown: string): Buffer {
  const db = new Database(':memory:');
  try {
    const row = db.prepare('SELECT CAST(json_quote(?) AS BLOB) AS q').get(markdown) as {
      q: Buffer;
    };
    return row.q;
  } finally {
    db.close();
  }
}

describe('revisionJsonWithMarkdown', () => {
  it('equals JSON.stringify of the same revision with the Markdown in place', () => {
    const bodies = new Map([
      ['h1', '# Hi\n\n"quoted" \\ back\\slash\ttab\r\n\u0000\u001f é 🚀 \u2028'],
      ['h2', ''],
      ['h3', '# Child\n'],
    ]);
    const stored = [
      page('a', 'document', 'h1', [page('a1', 'document', 'h3')]),
      page('g', 'group', undefined, [page('g1', 'document', 'h2'), page('g2', 'document')]),
      page('l', 'link'),
    ];
    const options = {
      urls: new Urls('http://x'),
      spaceId: 's',
      body: (h: string) => bodies.get(h)!,
    };
    const expected = {
      object: 'revision',
      id: 'r',
      pages: serializePages(stored, { ...options, format: 'markdown' }),
    };
    const quoted = new Map([...bodies].map(([hash, markdown]) => [hash, quote(markdown)]));
    const bytes = revisionJsonWithMarkdown(
      { object: 'revision', id: 'r' },
      serializePages(stored, options),
      stored,
      quoted,
    );
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(expected);
  });

  it('writes an empty tree', () => {
    const bytes = revisionJsonWithMarkdown({ id: 'r' }, [], [], new Map());
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ id: 'r', pages: [] });
  });
});

describe('JsonResponseCache', () => {
  it('builds once per key and evicts the least recently used beyond its size', () => {
    const cache = new JsonResponseCache(20, 20);
    let builds = 0;
    const build = (value: string) => () => {
      builds++;
      return value;
    };
    expect(cache.get('a', build('aaaaaa')).toString()).toBe('"aaaaaa"'); // 8 bytes
    cache.get('a', build('other'));
    expect(builds).toBe(1);
    cache.get('b', build('bbbbbb')); // 16 bytes in all
    cache.get('a', build('x')); // a is now the most recent
    cache.get('c', build('cccccc')); // 24 > 20: b goes
    expect(cache.bytes).toBe(16);
    cache.get('a', build('x'));
    expect(builds).toBe(3);
    cache.get('b', build('bbbbbb'));
    expect(builds).toBe(4);
  });

  it('does not keep entries larger than its entry limit', () => {
    const cache = new JsonResponseCache(100, 4);
    let builds = 0;
    const big = () => {
      builds++;
      return 'too long';
    };
    expect(cache.get('k', big)).toEqual(toJsonBytes('too long'));
    cache.get('k', big);
    expect(builds).toBe(2);
    expect(cache.bytes).toBe(0);
  });
});
