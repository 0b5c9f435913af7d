import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPIError, type SearchSpaceResult } from '@gitbook/api';
import { RevisionStore } from '../../src/server/content/revision-store';
import type { StoredPage } from '../../src/server/content/revision-tree';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';

/**
 * Two more Acme spaces with searchable pages. s-handbook (readable by Gus the guest) already says
 * "Install it." in Setup; both new spaces mention installing too, and Gus can read neither.
 */
function searchFixture(): Fixture {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push(
    {
      id: 's-zoo',
      title: 'Zoo',
      pages: [
        {
          id: 'p-zebra',
          title: 'Zebra crossing',
          description: 'Stripes',
          markdown: '# Zebra crossing\n\nStripes on the road. Install paint.\n',
        },
        {
          id: 'p-animals',
          title: 'Animals',
          markdown: [
            '# Animals',
            '',
            'Intro text about animals.',
            '',
            '## Savanna',
            '',
            'The zebra lives here next to a **quokkaword** sign.',
            '',
            '## Hidden notes',
            '',
            '<span>Secret</span> `inline code` words.',
          ].join('\n'),
          pages: [{ id: 'p-lions', title: 'Lions', markdown: '# Lions\n\nInstall fences.\n' }],
        },
      ],
    },
    {
      id: 's-garage',
      title: 'Garage',
      pages: [{ id: 'p-tools', title: 'Tools', markdown: '# Tools\n\nInstall the shelves.\n' }],
    },
  );
  return fixture;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ fixture: searchFixture() });
});
afterAll(async () => {
  await t.close();
});

async function search(query: string, token: string = TOKENS.ada, extra = '') {
  const response = await t.request(
    'GET',
    `/v1/orgs/o-acme/search?query=${encodeURIComponent(query)}${extra}`,
    token,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as {
    items: SearchSpaceResult[];
    next?: { page: string };
    count: number;
  };
}

describe('GET /v1/orgs/{organizationId}/search', () => {
  it('finds a word that appears only in a section body, in the published shape', async () => {
    const { data } = await t
      .client(TOKENS.ada)
      .orgs.searchOrganizationContent('o-acme', { query: 'quokkaword' });
    expect(data.count).toBe(1);
    expect(data.items).toEqual([
      {
        type: 'space',
        id: 's-zoo',
        title: 'Zoo',
        score: expect.any(Number),
        pages: [
          {
            id: 'p-animals',
            title: 'Animals',
            description: '',
            path: 'animals',
            score: expect.any(Number),
            rank: 1,
            resultType: 'section',
            ancestors: [],
            urls: { app: `${t.url}/app/s/s-zoo/animals` },
            sections: [
              {
                id: 'p-animals#savanna',
                title: 'Savanna',
                path: 'animals#savanna',
                body: 'The zebra lives here next to a quokkaword sign.',
                score: expect.any(Number),
                resultType: 'section',
                urls: { app: `${t.url}/app/s/s-zoo/animals#savanna` },
              },
            ],
          },
        ],
      },
    ]);
    expect(data.items[0]!.score).toBeGreaterThan(0);
  });

  it('ranks a title hit above a body hit and gives pages their global rank', async () => {
    const body = await search('zebra');
    const pages = body.items.flatMap((space) => space.pages);
    expect(pages.map((page) => [page.id, page.rank, page.resultType])).toEqual([
      ['p-zebra', 1, 'page'],
      ['p-animals', 2, 'section'],
    ]);
    expect(pages[0]!.score).toBeGreaterThan(pages[1]!.score);
    expect(pages[0]!.description).toBe('Stripes');
    expect(pages[0]!.sections![0]).toMatchObject({
      id: 'p-zebra#intro',
      title: 'Zebra crossing',
      path: 'zebra-crossing',
      resultType: 'page',
    });
  });

  it('matches stems and a trailing prefix, and reports ancestors', async () => {
    const installing = await search('installing');
    expect(installing.items.map((space) => space.id).sort()).toEqual([
      's-garage',
      's-handbook',
      's-zoo',
    ]);
    const lions = (await search('fenc')).items[0]!.pages[0]!;
    expect(lions).toMatchObject({
      id: 'p-lions',
      path: 'animals/lions',
      ancestors: [{ title: 'Animals' }],
    });
    // Markup is stripped from indexed text: HTML and code spans are searchable as words.
    expect((await search('secret inline')).items[0]!.pages[0]!.sections![0]).toMatchObject({
      id: 'p-animals#hidden-notes',
      body: 'Secret inline code words.',
    });
  });

  it('walks the spaces page by page', async () => {
    const all = await search('install');
    expect(all.count).toBe(3);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const body = await search(
        'install',
        TOKENS.ada,
        `&limit=1${cursor ? `&page=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(body.count).toBe(3);
      expect(body.items).toHaveLength(1);
      seen.push(body.items[0]!.id);
      cursor = body.next?.page;
    } while (cursor);
    expect(seen).toEqual(all.items.map((space) => space.id));
    const ranks = all.items.flatMap((space) => space.pages.map((page) => page.rank));
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks.map((_, i) => i + 1));

    const first = await search('install', TOKENS.ada, '&limit=1');
    const reused = await t.request(
      'GET',
      `/v1/orgs/o-acme/search?query=zebra&page=${encodeURIComponent(first.next!.page)}`,
      TOKENS.ada,
    );
    expect(await expectError(reused, 400)).toMatch(/query\.page/);
  });

  it('searches only spaces the caller may read', async () => {
    const guest = await search('install', TOKENS.gus);
    expect(guest.items.map((space) => space.id)).toEqual(['s-handbook']);
    expect((await search('zebra', TOKENS.gus)).items).toEqual([]);
    expect((await search('install', TOKENS.cara)).count).toBe(3);

    // A deleted space is not searched.
    t.db
      .prepare("UPDATE spaces SET deleted_at = '2025-01-01T00:00:00.000Z' WHERE id = ?")
      .run('s-garage');
    try {
      expect((await search('shelves')).items).toEqual([]);
    } finally {
      t.db.prepare('UPDATE spaces SET deleted_at = NULL WHERE id = ?').run('s-garage');
    }
    expect((await search('shelves')).count).toBe(1);
  });

  it('reindexes a space after its live revision changed', async () => {
    expect((await search('Hello')).items.map((space) => space.id)).toEqual(['s-handbook']);
    const store = new RevisionStore(t.db);
    const live = (
      t.db.prepare('SELECT revision_id FROM spaces WHERE id = ?').get('s-handbook') as {
        revision_id: string;
      }
    ).revision_id;
    const tree = store.tree(live)!;
    const pages: StoredPage[] = tree.pages.map((page) =>
      page.id === 'p-welcome'
        ? { ...page, body: store.putBody('# Welcome\n\nGreetings platypusword.\n') }
        : page,
    );
    const next = store.create(
      's-handbook',
      { ...tree, pages },
      [live],
      'edits',
      new Date().toISOString(),
    );
    t.db.prepare('UPDATE spaces SET revision_id = ? WHERE id = ?').run(next, 's-handbook');

    const found = await search('platypusword', TOKENS.gus);
    expect(found.items[0]!.pages[0]!.sections![0]!.id).toBe('p-welcome#intro');
    expect((await search('Hello')).items).toEqual([]);
    // Pages the new revision did not change are still found.
    expect((await search('install', TOKENS.gus)).items[0]!.pages[0]!.id).toBe('p-setup');
    const state = t.db
      .prepare('SELECT revision_id FROM search_index_state WHERE space_id = ?')
      .get('s-handbook') as { revision_id: string };
    expect(state.revision_id).toBe(next);
  });

  it('survives hostile queries', async () => {
    const hostile = [
      '"',
      '""',
      'AND OR NOT',
      '*',
      'NEAR(',
      'NEAR(zebra crossing, 2)',
      'title:zebra',
      '{title}: zebra',
      '^zebra',
      'zebra -animals',
      "'; DROP TABLE page_sections; --",
      '日本語 café 🦓 \u0301',
      'a'.repeat(512),
      'zebra '.repeat(85),
    ];
    for (const query of hostile) {
      const response = await t.request(
        'GET',
        `/v1/orgs/o-acme/search?query=${encodeURIComponent(query)}`,
        TOKENS.ada,
      );
      expect(response.status, query).toBe(200);
      const body = (await response.json()) as { items: unknown[]; count: number };
      expect(Array.isArray(body.items)).toBe(true);
    }
    // Operators are plain words: all of them must match, the syntax never applies.
    expect((await search('zebra:crossing')).items.map((space) => space.id)).toEqual(['s-zoo']);
    expect((await search('"zebra crossing')).count).toBe(1);
    expect((await search('NEAR(zebra crossing, 2)')).count).toBe(0);
  });

  it('answers 400, 401 and 404', async () => {
    const long = await t.request(
      'GET',
      `/v1/orgs/o-acme/search?query=${'a'.repeat(513)}`,
      TOKENS.ada,
    );
    expect(await expectError(long, 400)).toMatch(/query\.query/);
    const missing = await t.request('GET', '/v1/orgs/o-acme/search', TOKENS.ada);
    expect(await expectError(missing, 400)).toMatch(/query/);
    const empty = await t.request('GET', '/v1/orgs/o-acme/search?query=', TOKENS.ada);
    expect(await expectError(empty, 400)).toMatch(/query\.query/);
    const blank = await t.request('GET', '/v1/orgs/o-acme/search?query=%20%20', TOKENS.ada);
    expect(await expectError(blank, 400)).toMatch(/query\.query/);
    const limit = await t.request('GET', '/v1/orgs/o-acme/search?query=x&limit=1001', TOKENS.ada);
    expect(await expectError(limit, 400)).toMatch(/query\.limit/);

    await expectError(await t.request('GET', '/v1/orgs/o-acme/search?query=zebra', null), 401);
    await expectError(
      await t.request('GET', '/v1/orgs/o-acme/search?query=zebra', TOKENS.eve),
      404,
    );
    await expectError(
      await t.request('GET', '/v1/orgs/o-nope/search?query=zebra', TOKENS.ada),
      404,
    );
    const error = await t
      .client(TOKENS.eve)
      .orgs.searchOrganizationContent('o-acme', { query: 'zebra' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(GitBookAPIError);
    expect((error as GitBookAPIError).code).toBe(404);
    // Eve searches her own organization and finds nothing of Acme.
    const own = await t
      .client(TOKENS.eve)
      .orgs.searchOrganizationContent('o-other', { query: 'zebra' });
    expect(own.data.items).toEqual([]);
  });
});
