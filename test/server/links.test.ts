import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import {
  ChangeRequestQueries,
  type ChangeRequestRow,
} from '../../src/server/resources/change-requests/change-request-queries';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { PNG_BASE64, TOKENS, testFixture } from '../support/test-fixture';

/**
 * s-links (Acme): Git Sync layout README.md (Home), guides/README.md (Guides), guides/setup.md
 * (Setup), api.md (API), and the asset `.gitbook/assets/logo.png` (f-logo).
 */
function linksFixture(): Fixture {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push({
    id: 's-links',
    title: 'Links',
    pages: [
      {
        id: 'p-links-home',
        title: 'Home',
        markdown: [
          '# Home',
          '',
          'Read [setup](guides/setup.md) in [guides](guides/README.md), the [API](/pages/p-links-api),',
          '[gone](/pages/p-missing) and [nowhere](./nowhere.md#top).',
          '',
          '![logo](.gitbook/assets/logo.png) [docs](https://example.com/docs) [top](#top)',
          '',
        ].join('\n'),
      },
      {
        id: 'p-links-guides',
        title: 'Guides',
        markdown: '# Guides\n',
        pages: [
          {
            id: 'p-links-setup',
            title: 'Setup',
            markdown:
              '# Setup\n\n[home](../README.md) [guides](./README.md) [missing](../missing.md) [api](../api.md)\n',
          },
        ],
      },
      {
        id: 'p-links-api',
        title: 'API',
        markdown:
          '# API\n\n![logo](.gitbook/assets/logo.png) [docs](https://example.com/docs) ![gone](.gitbook/assets/gone.png)\n',
      },
    ],
    files: [{ id: 'f-logo', name: 'logo.png', contentType: 'image/png', base64: PNG_BASE64 }],
  });
  return fixture;
}

interface Reference {
  kind: string;
  organization?: string;
  space?: string;
  page?: string;
  file?: string;
  url?: string;
  path?: string;
  name?: string;
  versionContext?: { kind: string; changeRequest: string };
}
interface LinkItem {
  status: string;
  relation: string;
  targetReference: Reference;
  locationReferences: Reference[];
}
interface LinkList {
  items: LinkItem[];
  next?: { page: string };
  count: number;
  stats: { total: number; broken: { total: number; changeRequest: number } };
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ fixture: linksFixture() });
});
afterAll(async () => {
  await t.close();
});

async function list(path: string, token: string = TOKENS.ada): Promise<LinkList> {
  const response = await t.request('GET', path, token);
  expect(response.status).toBe(200);
  return (await response.json()) as LinkList;
}

/** A compact, order-independent view of link items. */
function brief(items: LinkItem[]) {
  return items.map((item) => ({
    status: item.status,
    target:
      item.targetReference.page ??
      item.targetReference.file ??
      item.targetReference.url ??
      item.targetReference.path ??
      item.targetReference.name,
    from: item.locationReferences.map((reference) => reference.page).sort(),
  }));
}

describe('GET /v1/spaces/{spaceId}/links', () => {
  it('lists every link of the live revision, grouped by target, with stats', async () => {
    const body = await list('/v1/spaces/s-links/links');
    expect(body.count).toBe(10);
    expect(body.stats).toEqual({ total: 10, broken: { total: 4, changeRequest: 0 } });
    expect(brief(body.items)).toEqual([
      { status: 'broken', target: 'gone.png', from: ['p-links-api'] },
      { status: 'ok', target: 'f-logo', from: ['p-links-api', 'p-links-home'] },
      { status: 'broken', target: 'missing', from: ['p-links-setup'] },
      { status: 'broken', target: 'nowhere', from: ['p-links-home'] },
      { status: 'ok', target: 'p-links-api', from: ['p-links-home', 'p-links-setup'] },
      { status: 'ok', target: 'p-links-guides', from: ['p-links-home', 'p-links-setup'] },
      { status: 'ok', target: 'p-links-home', from: ['p-links-setup'] },
      { status: 'ok', target: 'p-links-setup', from: ['p-links-home'] },
      { status: 'broken', target: 'p-missing', from: ['p-links-home'] },
      {
        status: 'ok',
        target: 'https://example.com/docs',
        from: ['p-links-api', 'p-links-home'],
      },
    ]);
  });

  it('returns the item shape of the spec', async () => {
    const body = await list('/v1/spaces/s-links/links?limit=1000');
    const logo = body.items.find((item) => item.targetReference.file === 'f-logo')!;
    expect(logo).toEqual({
      status: 'ok',
      relation: 'reference',
      targetReference: { kind: 'file', organization: 'o-acme', space: 's-links', file: 'f-logo' },
      locationReferences: [
        { kind: 'page', organization: 'o-acme', space: 's-links', page: 'p-links-home' },
        { kind: 'page', organization: 'o-acme', space: 's-links', page: 'p-links-api' },
      ],
    });
    const url = body.items.find((item) => item.targetReference.kind === 'url')!;
    expect(url.targetReference).toEqual({ kind: 'url', url: 'https://example.com/docs' });
    const byPath = body.items.find((item) => item.targetReference.path === 'nowhere')!;
    expect(byPath.targetReference).toEqual({
      kind: 'page',
      organization: 'o-acme',
      space: 's-links',
      path: 'nowhere',
    });
  });

  it('filters by status; stats stay those of the whole list', async () => {
    const broken = await list('/v1/spaces/s-links/links?status=broken');
    expect(broken.count).toBe(4);
    expect(broken.items.every((item) => item.status === 'broken')).toBe(true);
    expect(broken.stats).toEqual({ total: 10, broken: { total: 4, changeRequest: 0 } });
    const ok = await list('/v1/spaces/s-links/links?status=ok');
    expect(ok.count).toBe(6);
    expect((await list('/v1/spaces/s-links/links?status=in-app')).items).toEqual([]);
  });

  it('walks the pages with cursors', async () => {
    const all = (await list('/v1/spaces/s-links/links')).items;
    const seen: LinkItem[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const query = cursor ? `&page=${encodeURIComponent(cursor)}` : '';
      const body = await list(`/v1/spaces/s-links/links?limit=3${query}`);
      expect(body.count).toBe(10);
      expect(body.items.length).toBeLessThanOrEqual(3);
      seen.push(...body.items);
      cursor = body.next?.page;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toEqual(all);

    // A cursor belongs to its filter.
    const first = await list('/v1/spaces/s-links/links?limit=1');
    const other = await t.request(
      'GET',
      `/v1/spaces/s-links/links?status=broken&page=${first.next!.page}`,
      TOKENS.ada,
    );
    expect(await expectError(other, 400)).toMatch(/query\.page/);
  });

  it('is readable with the read role and answers 401, 404 and 400', async () => {
    expect((await list('/v1/spaces/s-links/links', TOKENS.cara)).count).toBe(10);
    await expectError(await t.request('GET', '/v1/spaces/s-links/links', null), 401);
    await expectError(await t.request('GET', '/v1/spaces/s-links/links', TOKENS.eve), 404);
    // Gus is a guest without a grant on this space.
    await expectError(await t.request('GET', '/v1/spaces/s-links/links', TOKENS.gus), 404);
    await expectError(await t.request('GET', '/v1/spaces/s-nope/links', TOKENS.ada), 404);
    const limit = await t.request('GET', '/v1/spaces/s-links/links?limit=1001', TOKENS.ada);
    expect(await expectError(limit, 400)).toMatch(/query\.limit/);
    const status = await t.request('GET', '/v1/spaces/s-links/links?status=dead', TOKENS.ada);
    expect(await expectError(status, 400)).toMatch(/query\.status/);
  });

  it('serves a space without links', async () => {
    const body = await list('/v1/spaces/s-handbook/links');
    expect(body).toEqual({
      items: [],
      count: 0,
      stats: { total: 0, broken: { total: 0, changeRequest: 0 } },
    });
  });
});

describe('change request links and backlinks', () => {
  let changeRequest: ChangeRequestRow;

  /** A change request (made through the published client) whose content edits API and Setup. */
  beforeAll(async () => {
    const client = t.client(TOKENS.dora);
    const created = await client.spaces.createChangeRequest('s-links', { subject: 'Fix links' });
    await client.spaces.updateChangeRequestContent('s-links', created.data.id, {
      changes: [
        {
          operation: 'update_page',
          page: 'p-links-api',
          document: {
            markdown: `# API\n\n![logo](/files/f-logo) [home](README.md) [bad](/pages/p-nope) [app](${t.url}/app/s/s-handbook)\n`,
          },
        },
        {
          operation: 'update_page',
          page: 'p-links-setup',
          document: {
            markdown: '# Setup\n\n[home](../README.md) ![logo](../.gitbook/assets/logo.png)\n',
          },
        },
      ],
    });
    changeRequest = new ChangeRequestQueries(t.db).find('s-links', created.data.id)!;
  });

  const prefix = () => `/v1/spaces/s-links/change-requests/${changeRequest.id}/content`;

  it('lists the links of one page in the change request', async () => {
    const body = await list(`${prefix()}/page/p-links-api/links`);
    expect(body.stats).toEqual({ total: 4, broken: { total: 1, changeRequest: 1 } });
    expect(brief(body.items)).toEqual([
      { status: 'ok', target: 'f-logo', from: ['p-links-api'] },
      { status: 'ok', target: 'p-links-home', from: ['p-links-api'] },
      { status: 'broken', target: 'p-nope', from: ['p-links-api'] },
      { status: 'in-app', target: `${t.url}/app/s/s-handbook`, from: ['p-links-api'] },
    ]);
    expect(body.items[0]!.locationReferences).toEqual([
      {
        kind: 'page',
        organization: 'o-acme',
        space: 's-links',
        versionContext: { kind: 'change-request', changeRequest: changeRequest.id },
        page: 'p-links-api',
      },
    ]);
    // `{CR}` may be the number too; pagination works as everywhere.
    const first = await list(
      `/v1/spaces/s-links/change-requests/${changeRequest.number}/content/page/p-links-api/links?limit=2`,
    );
    expect(first.items).toHaveLength(2);
    const second = await list(
      `${prefix()}/page/p-links-api/links?limit=2&page=${encodeURIComponent(first.next!.page)}`,
    );
    expect([...first.items, ...second.items]).toEqual(body.items);
    expect(second.next).toBeUndefined();
  });

  it('lists the pages linking to a file', async () => {
    const body = (await list(`${prefix()}/files/f-logo/backlinks`)) as unknown as {
      items: Reference[];
      count: number;
    };
    expect(body.count).toBe(3);
    expect(body.items).toEqual(
      ['p-links-api', 'p-links-home', 'p-links-setup'].map((page) => ({
        kind: 'page',
        organization: 'o-acme',
        space: 's-links',
        versionContext: { kind: 'change-request', changeRequest: changeRequest.id },
        page,
      })),
    );
    const firstPage = await list(`${prefix()}/files/f-logo/backlinks?limit=2`);
    expect(firstPage.items).toHaveLength(2);
    const rest = await list(
      `${prefix()}/files/f-logo/backlinks?limit=2&page=${encodeURIComponent(firstPage.next!.page)}`,
    );
    expect(rest.items).toEqual([body.items[2]]);
  });

  it('counts broken links of draft and open change requests in the space stats', async () => {
    // Home still has 2 broken links; API now has 1; Setup none.
    expect((await list('/v1/spaces/s-links/links')).stats.broken).toEqual({
      total: 4,
      changeRequest: 3,
    });
    const queries = new ChangeRequestQueries(t.db);
    queries.update(changeRequest.id, { status: 'archived' }, new Date().toISOString());
    expect((await list('/v1/spaces/s-links/links')).stats.broken.changeRequest).toBe(0);
    queries.update(changeRequest.id, { status: 'open' }, new Date().toISOString());
    expect((await list('/v1/spaces/s-links/links')).stats.broken.changeRequest).toBe(3);
  });

  it('answers 404 for unknown change requests, pages and files, 401 and 400', async () => {
    const cases: Array<[string, string, number]> = [
      [`${prefix()}/page/p-nope/links`, TOKENS.ada, 404],
      [`${prefix()}/files/f-nope/backlinks`, TOKENS.ada, 404],
      ['/v1/spaces/s-links/change-requests/999/content/page/p-links-api/links', TOKENS.ada, 404],
      [
        '/v1/spaces/s-links/change-requests/cr-nope/content/files/f-logo/backlinks',
        TOKENS.ada,
        404,
      ],
      [`${prefix()}/page/p-links-api/links`, TOKENS.eve, 404],
      [`${prefix()}/files/f-logo/backlinks`, TOKENS.eve, 404],
      [`${prefix()}/files/f-logo/backlinks`, TOKENS.gus, 404],
    ];
    for (const [path, token, status] of cases) {
      await expectError(await t.request('GET', path, token), status);
    }
    await expectError(await t.request('GET', `${prefix()}/page/p-links-api/links`, null), 401);
    await expectError(await t.request('GET', `${prefix()}/files/f-logo/backlinks`, null), 401);
    const limit = await t.request(
      'GET',
      `${prefix()}/files/f-logo/backlinks?limit=1001`,
      TOKENS.ada,
    );
    expect(await expectError(limit, 400)).toMatch(/query\.limit/);
    const pageLimit = await t.request(
      'GET',
      `${prefix()}/page/p-links-api/links?limit=0`,
      TOKENS.ada,
    );
    expect(await expectError(pageLimit, 400)).toMatch(/query\.limit/);
    expect((await list(`${prefix()}/files/f-logo/backlinks`, TOKENS.cara)).count).toBe(3);
  });
});
