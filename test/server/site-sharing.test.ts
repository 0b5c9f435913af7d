import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { ORG, SITES, siteCalls, type ShareLinkJson } from '../support/site-calls';
import { TOKENS } from '../support/test-fixture';

let t: TestServer;
let calls: ReturnType<typeof siteCalls>;
beforeAll(async () => {
  t = await startTestServer();
  calls = siteCalls(t);
});
afterAll(async () => {
  await t.close();
});

const shareKeyOf = (link: ShareLinkJson) =>
  new URL(link.urls.published).searchParams.get('shareKey')!;

describe('site share links', () => {
  it('creates (201), lists, renames, deactivates and deletes (205) links', async () => {
    const { data: site } = await calls.createSite({ visibility: 'share-link' });
    const link = await calls.createShareLink(site.id, 'Partners');
    expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    expect(link.urls.published).toMatch(
      new RegExp(`^${t.url}/published/${ORG}/${site.id}/\\?shareKey=[A-Za-z0-9_-]{24}$`),
    );
    expect(Number.isNaN(Date.parse(link.createdAt))).toBe(false);
    const orgs = calls.orgs(TOKENS.ada);
    const renamed = await orgs.updateSiteShareLinkById(ORG, site.id, link.id, {
      name: 'Resellers',
    });
    expect(renamed.data).toMatchObject({ name: 'Resellers', active: true, urls: link.urls });
    const off = await orgs.updateSiteShareLinkById(ORG, site.id, link.id, { active: false });
    expect(off.data.active).toBe(false);
    const list = await orgs.listSiteShareLinks(ORG, site.id);
    expect(list.data.items.map((item) => [item.id, item.active])).toEqual([[link.id, false]]);
    expect((await orgs.deleteSiteShareLinkById(ORG, site.id, link.id)).status).toBe(205);
    expect((await orgs.listSiteShareLinks(ORG, site.id)).data.count).toBe(0);
  });

  it('refuses each limit exceeded by one, naming the field', async () => {
    const { data: site } = await calls.createSite();
    expect((await calls.createShareLink(site.id, 'n'.repeat(50))).name).toHaveLength(50);
    const url = `${SITES}/${site.id}/share-links`;
    const link = await calls.createShareLink(site.id, 'ok');
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', url, { name: 'n'.repeat(51) }, /body\.name must NOT have more than 50/],
      ['POST', url, {}, /body must have required property 'name'/],
      [
        'PATCH',
        `${url}/${link.id}`,
        { name: 'n'.repeat(51) },
        /body\.name must NOT have more than 50/,
      ],
      ['PATCH', `${url}/${link.id}`, { active: 'no' }, /body\.active must be boolean/],
      ['PATCH', `${url}/${link.id}`, {}, /body must NOT have fewer than 1 properties/],
    ];
    for (const [method, path, body, message] of cases) {
      expect(await expectError(await t.request(method, path, TOKENS.ada, body), 400)).toMatch(
        message,
      );
    }
  });

  it('walks the list page by page', async () => {
    const { data: site } = await calls.createSite();
    for (let i = 0; i < 5; i += 1) await calls.createShareLink(site.id, `Link ${i}`);
    const orgs = calls.orgs(TOKENS.ada);
    const names: string[] = [];
    let page: string | undefined;
    do {
      const result = await orgs.listSiteShareLinks(ORG, site.id, {
        limit: 2,
        ...(page ? { page } : {}),
      });
      expect(result.data.count).toBe(5);
      names.push(...result.data.items.map((item) => item.name ?? ''));
      page = result.data.next?.page;
    } while (page);
    expect(names).toEqual(['Link 0', 'Link 1', 'Link 2', 'Link 3', 'Link 4']);
  });

  it('answers 401 without a token, 404 to another organization, 403 to non-admins', async () => {
    const { data: site } = await calls.createSite();
    const link = await calls.createShareLink(site.id, 'Guarded');
    await expectError(await t.request('GET', `${SITES}/${site.id}/share-links`, null), 401);
    const eve = calls.orgs(TOKENS.eve);
    expect(await clientFailure(eve.listSiteShareLinks(ORG, site.id))).toBe(404);
    expect(
      await clientFailure(eve.updateSiteShareLinkById(ORG, site.id, link.id, { active: false })),
    ).toBe(404);
    const bob = calls.orgs(TOKENS.bob);
    expect(await clientFailure(bob.listSiteShareLinks(ORG, site.id))).toBe(403);
    expect(await clientFailure(bob.createSiteShareLink(ORG, site.id, { name: 'Mine' }))).toBe(403);
    expect(await clientFailure(bob.deleteSiteShareLinkById(ORG, site.id, link.id))).toBe(403);
    expect(
      await clientFailure(calls.orgs(TOKENS.ada).deleteSiteShareLinkById(ORG, site.id, 'nope')),
    ).toBe(404);
  });
});

describe('published site profile', () => {
  it('gives the site, its structure and default customizations', async () => {
    const { data: site } = await calls.createSite({ title: 'Profile', spaces: ['s-handbook'] });
    const flat = await calls.orgs(TOKENS.cara).getPublishedContentSite(ORG, site.id);
    expect(flat.data).toMatchObject({
      object: 'published-content-site',
      site: { object: 'site', id: site.id },
      structure: { type: 'siteSpaces' },
      customizations: {
        site: {
          title: 'Profile',
          styling: { theme: 'clean', primaryColor: { light: '#346DDB', dark: '#346DDB' } },
          internationalization: { locale: 'en' },
        },
      },
    });
    await calls.addSection(site.id, { spaceId: 's-api', title: 'API' });
    const sectioned = await calls.orgs(TOKENS.ada).getPublishedContentSite(ORG, site.id);
    expect(sectioned.data.structure.type).toBe('sections');
    const titles = (
      sectioned.data.structure.structure as { title: string; default: boolean }[]
    ).map((s) => [s.title, s.default]);
    expect(titles).toEqual([
      ['Profile', true],
      ['API', false],
    ]);
  });

  it('opens a share-link site to anyone with an active key, and stops when the link is off', async () => {
    const { data: site } = await calls.createSite({
      visibility: 'share-link',
      spaces: ['s-secret'],
    });
    const link = await calls.createShareLink(site.id, 'Auditors');
    const key = shareKeyOf(link);
    const eve = calls.orgs(TOKENS.eve);
    // Without the key, Eve (another organization) finds nothing.
    expect(await clientFailure(eve.getPublishedContentSite(ORG, site.id))).toBe(404);
    const shared = await eve.getPublishedContentSite(ORG, site.id, { shareKey: key });
    expect(shared.data.site.urls.published).toBe(link.urls.published);
    expect(shared.data.site.permissions.view).toBe(false);
    const spaces = await eve.listSiteSpaces(ORG, site.id, { shareKey: key });
    expect(spaces.data.items[0]?.urls.published).toBe(
      `${t.url}/published/${ORG}/${site.id}/board-notes/?shareKey=${encodeURIComponent(key)}`,
    );
    expect((await eve.listSiteSections(ORG, site.id, { shareKey: key })).status).toBe(200);
    await calls.orgs(TOKENS.ada).updateSiteShareLinkById(ORG, site.id, link.id, { active: false });
    expect(await clientFailure(eve.getPublishedContentSite(ORG, site.id, { shareKey: key }))).toBe(
      404,
    );
    expect(await clientFailure(eve.listSiteSpaces(ORG, site.id, { shareKey: key }))).toBe(404);
    // A dead key is dead for members too; without it they still read their own site.
    expect(
      await clientFailure(
        calls.orgs(TOKENS.ada).getPublishedContentSite(ORG, site.id, { shareKey: key }),
      ),
    ).toBe(404);
    expect((await calls.orgs(TOKENS.ada).getPublishedContentSite(ORG, site.id)).status).toBe(200);
  });

  it('shows a public site to anyone, and a visitor-auth site only to members', async () => {
    const { data: open } = await calls.createSite({ visibility: 'public' });
    expect((await calls.orgs(TOKENS.eve).getPublishedContentSite(ORG, open.id)).status).toBe(200);
    const { data: closed } = await calls.createSite({ visibility: 'visitor-auth' });
    expect(
      await clientFailure(calls.orgs(TOKENS.eve).getPublishedContentSite(ORG, closed.id)),
    ).toBe(404);
    expect(
      await clientFailure(calls.orgs(TOKENS.gus).getPublishedContentSite(ORG, closed.id)),
    ).toBe(403);
    await expectError(await t.request('GET', `${SITES}/${closed.id}/published`, null), 401);
  });
});

describe('site adaptive schema', () => {
  const claims = {
    type: 'object',
    properties: {
      unsigned: {
        type: 'object',
        description: 'Unsigned claims of the site visitor.',
        properties: { beta: { type: 'boolean', description: 'In the beta' } },
        additionalProperties: false,
      },
      isAdmin: { type: 'boolean', description: 'An administrator' },
    },
    additionalProperties: false,
  };

  it('starts with the default schema and replaces it (PUT) with a valid draft-07 one', async () => {
    const { data: site } = await calls.createSite();
    const orgs = calls.orgs(TOKENS.ada);
    const initial = await orgs.getSiteAdaptiveSchema(ORG, site.id);
    expect(initial.data).toMatchObject({
      object: 'site-adaptive-schema',
      jsonSchema: {
        type: 'object',
        properties: { unsigned: { type: 'object' } },
        additionalProperties: false,
      },
      updatedAt: site.createdAt,
    });
    const put = await orgs.updateSiteAdaptiveSchema(ORG, site.id, {
      jsonSchema: { $schema: 'http://json-schema.org/draft-07/schema#', ...claims } as never,
    });
    expect(put.data.jsonSchema).toMatchObject(claims);
    expect((await orgs.getSiteAdaptiveSchema(ORG, site.id, { headers: {} })).data).toEqual(
      put.data,
    );
    expect(
      await clientFailure(
        calls
          .orgs(TOKENS.cara)
          .updateSiteAdaptiveSchema(ORG, site.id, { jsonSchema: claims as never }),
      ),
    ).toBe(403);
    expect(await clientFailure(calls.orgs(TOKENS.eve).getSiteAdaptiveSchema(ORG, site.id))).toBe(
      404,
    );
    await expectError(await t.request('GET', `${SITES}/${site.id}/adaptive-schema`, null), 401);
  });

  it('refuses schemas of the wrong shape, invalid draft-07 or too large, naming the field', async () => {
    const { data: site } = await calls.createSite();
    const url = `${SITES}/${site.id}/adaptive-schema`;
    const big = Object.fromEntries(
      Array.from({ length: 1200 }, (_, i) => [
        `claim${i}`,
        { type: 'boolean', description: 'x'.repeat(10) },
      ]),
    );
    const cases: [unknown, RegExp][] = [
      [{}, /body must have required property 'jsonSchema'/],
      [{ jsonSchema: 'x' }, /body\.jsonSchema must be object/],
      [
        { jsonSchema: { ...claims, additionalProperties: true } },
        /body\.jsonSchema\.additionalProperties must be false/,
      ],
      [
        { jsonSchema: { ...claims, $schema: 'https://json-schema.org/draft/2020-12/schema' } },
        /body\.jsonSchema\.\$schema must be .*draft-07/,
      ],
      [
        { jsonSchema: { ...claims, properties: { x: { type: 'date' } } } },
        /body\.jsonSchema\.properties\.x\.type must be one of/,
      ],
      [
        { jsonSchema: { ...claims, properties: { x: { type: 'string', enum: 'a' } } } },
        /body\.jsonSchema.*enum must be array/,
      ],
      [
        { jsonSchema: { ...claims, properties: big } },
        /body\.jsonSchema must be at most 32768 bytes/,
      ],
      [{ jsonSchema: claims, extra: 1 }, /extra/],
    ];
    for (const [body, message] of cases) {
      expect(await expectError(await t.request('PUT', url, TOKENS.ada, body), 400)).toMatch(
        message,
      );
    }
  });
});
