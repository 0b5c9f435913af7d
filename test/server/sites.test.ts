import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { ORG, SITES, siteCalls, type SiteJson } from '../support/site-calls';
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

describe('docs sites: create, read, delete', () => {
  it('creates a site (201 + Location) with the spec’s shape and reads it back', async () => {
    const created = await calls.createSite({ title: 'Developer docs', visibility: 'unlisted' });
    expect(created.status).toBe(201);
    const site = created.data;
    expect(site).toMatchObject({
      object: 'site',
      type: 'basic',
      title: 'Developer docs',
      visibility: 'unlisted',
      published: true,
      siteSpaces: 0,
      adaptiveContent: { enabled: false },
      urls: {
        location: `${t.url}${SITES}/${site.id}`,
        published: `${t.url}/published/${ORG}/${site.id}/`,
      },
    });
    expect(created.location).toBe(site.urls.location);
    expect(Number.isNaN(Date.parse(site.createdAt))).toBe(false);
    expect(await calls.getSite(site.id)).toEqual(site);
    // All defaults when no body is sent at all.
    const bare = await t.request('POST', SITES, TOKENS.ada);
    expect(bare.status).toBe(201);
    expect(await bare.json()).toMatchObject({ title: 'Docs site', visibility: 'public' });
  });

  it('adds the spaces named at creation, and counts them', async () => {
    const { data } = await calls.createSite({
      title: 'With spaces',
      spaces: ['s-handbook', 's-api'],
    });
    expect(data.siteSpaces).toBe(2);
    const list = await calls.listSiteSpaces(data.id);
    expect(list.items.map((item) => [item.space.id, item.path, item.default])).toEqual([
      ['s-handbook', 'handbook', true],
      ['s-api', 'api-reference', false],
    ]);
  });

  it('creates a new space for the published API’s "empty" and "sample" literals', async () => {
    for (const literal of ['empty', 'sample'] as const) {
      const { data } = await calls.createSite({ title: `Site ${literal}`, spaces: literal });
      expect(data.siteSpaces).toBe(1);
      const [siteSpace] = (await calls.listSiteSpaces(data.id)).items;
      expect(siteSpace?.space.title).toBe(`Site ${literal}`);
      const pages = await t.client(TOKENS.ada).spaces.listPages(siteSpace!.space.id);
      expect(pages.data.pages.map((page) => page.title)).toEqual(
        literal === 'sample' ? ['Welcome'] : [],
      );
    }
  });

  it('refuses a space the caller cannot read, or of another organization, creating nothing', async () => {
    const before = (await calls.listSites()).count;
    for (const [spaces, field] of [
      [['s-handbook', 's-other'], 'body.spaces.1'],
      [['s-missing'], 'body.spaces.0'],
    ] as const) {
      const message = await expectError(
        await t.request('POST', SITES, TOKENS.ada, { title: 'Nope', spaces }),
        400,
      );
      expect(message).toContain(`${field} must be a space of organization ${ORG}`);
    }
    expect((await calls.listSites()).count).toBe(before);
  });

  it('replays a create sent again with the same Idempotency-Key, making one site', async () => {
    const before = (await calls.listSites({ limit: 1000 })).count;
    const send = () =>
      t.request('POST', SITES, TOKENS.ada, { title: 'Once' }, { 'idempotency-key': 'site-once' });
    const first = await send();
    const again = await send();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as SiteJson).id).toBe(((await first.json()) as SiteJson).id);
    expect((await calls.listSites({ limit: 1000 })).count).toBe(before + 1);
  });

  it('deletes a site (205) and keeps its spaces', async () => {
    const { data } = await calls.createSite({ title: 'Short-lived', spaces: ['s-api'] });
    const response = await calls.orgs(TOKENS.ada).deleteSiteById(ORG, data.id);
    expect(response.status).toBe(205);
    expect(await clientFailure(calls.orgs(TOKENS.ada).getSiteById(ORG, data.id))).toBe(404);
    expect((await t.client(TOKENS.ada).spaces.getSpaceById('s-api')).status).toBe(200);
  });
});

describe('docs sites: update', () => {
  it('patches every field, and null removes basename and proxy', async () => {
    const { data } = await calls.createSite({ title: 'Patch me' });
    const patched = await calls.updateSite(data.id, {
      title: 'Patched',
      visibility: 'share-link',
      basename: 'docs',
      adaptiveContent: { enabled: true },
      proxy: 'example.com/docs',
    });
    expect(patched).toMatchObject({
      title: 'Patched',
      visibility: 'share-link',
      basename: 'docs',
      adaptiveContent: { enabled: true },
      proxy: { origin: 'example.com/docs', target: data.urls.published },
    });
    const cleared = await calls.updateSite(data.id, { basename: null, proxy: null });
    expect(cleared.basename).toBeUndefined();
    expect(cleared.proxy).toBeUndefined();
    expect(cleared.title).toBe('Patched');
  });

  it('sets the default site space at the root, and in the default section of a sectioned site', async () => {
    const { data } = await calls.createSite({ spaces: ['s-handbook', 's-api'] });
    const [, api] = (await calls.listSiteSpaces(data.id)).items;
    await calls.updateSite(data.id, { defaultSiteSpace: api!.id });
    expect((await calls.listSiteSpaces(data.id, { default: true })).items.map((i) => i.id)).toEqual(
      [api!.id],
    );
    const section = await calls.addSection(data.id, { spaceId: 's-secret', title: 'Board' });
    await calls.updateSite(data.id, { defaultSiteSection: section.id });
    const secret = section.siteSpaces[0]!;
    const site = await calls.updateSite(data.id, { defaultSiteSpace: secret.id });
    expect(site.siteSpaces).toBe(3);
    const sections = (await calls.listSections(data.id)).items;
    expect(sections.find((s) => s.default)?.id).toBe(section.id);
    // A site space of another section is not the default section's.
    const message = await expectError(
      await t.request('PATCH', `${SITES}/${data.id}`, TOKENS.ada, { defaultSiteSpace: api!.id }),
      400,
    );
    expect(message).toContain('body.defaultSiteSpace must be a site space of the default section');
    expect(
      await expectError(
        await t.request('PATCH', `${SITES}/${data.id}`, TOKENS.ada, { defaultSiteSection: 'nope' }),
        400,
      ),
    ).toContain('body.defaultSiteSection must be a section of site');
  });

  it('refuses each limit exceeded by one, naming the field', async () => {
    const { data } = await calls.createSite({ title: 'Limits' });
    expect(
      (await calls.updateSite(data.id, { title: 't'.repeat(128), basename: 'b'.repeat(100) }))
        .title,
    ).toHaveLength(128);
    const longProxy = `example.com/${'p'.repeat(512 - 'example.com/'.length)}`;
    expect((await calls.updateSite(data.id, { proxy: longProxy })).proxy?.origin).toBe(longProxy);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['POST', { title: 't'.repeat(129) }, /body\.title must NOT have more than 128 characters/],
      ['POST', { title: 't' }, /body\.title must NOT have fewer than 2 characters/],
      [
        'POST',
        { visibility: 'private' },
        /body\.visibility must be equal to one of the allowed values/,
      ],
      ['POST', { type: 'gold' }, /body\.type must be equal to one of the allowed values/],
      ['POST', { spaces: Array.from({ length: 101 }, (_, i) => `s-${i}`) }, /body\.spaces/],
      ['POST', { bogus: 1 }, /bogus/],
      ['PATCH', { title: 't'.repeat(129) }, /body\.title must NOT have more than 128 characters/],
      ['PATCH', { basename: 'b'.repeat(101) }, /body\.basename/],
      ['PATCH', { basename: '' }, /body\.basename/],
      ['PATCH', { proxy: `${longProxy}p` }, /body\.proxy/],
      ['PATCH', { proxy: 'https://example.com/docs' }, /body\.proxy/],
      [
        'PATCH',
        { adaptiveContent: { enabled: 'yes' } },
        /body\.adaptiveContent\.enabled must be boolean/,
      ],
      ['PATCH', { published: false }, /published/],
    ];
    for (const [method, body, message] of cases) {
      const path = method === 'POST' ? SITES : `${SITES}/${data.id}`;
      expect(await expectError(await t.request(method, path, TOKENS.ada, body), 400)).toMatch(
        message,
      );
    }
  });
});

describe('docs sites: list', () => {
  it('filters by space, title and published, and walks the pages without gaps', async () => {
    const { data: tagged } = await calls.createSite({ title: 'Needle site', spaces: ['s-secret'] });
    const { data: plain } = await calls.createSite({ title: 'Plain site' });
    const bySpace = (await calls.listSites({ space: 's-secret', limit: 1000 })).items.map(
      (s) => s.id,
    );
    expect(bySpace).toContain(tagged.id);
    expect(bySpace).not.toContain(plain.id);
    expect((await calls.listSites({ title: 'nEEDLE' })).items.map((s) => s.id)).toEqual([
      tagged.id,
    ]);
    expect((await calls.listSites({ published: false })).items).toEqual([]);
    const all = await calls.listSites({ limit: 1000 });
    expect(all.count).toBeGreaterThan(3);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const result = await calls.listSites({ limit: 2, ...(page ? { page } : {}) });
      expect(result.count).toBe(all.count);
      seen.push(...result.items.map((site: SiteJson) => site.id));
      page = result.next?.page;
    } while (page);
    expect(seen).toEqual(all.items.map((site) => site.id));
    expect(
      await expectError(await t.request('GET', `${SITES}?limit=1001`, TOKENS.ada), 400),
    ).toMatch(/query\.limit must be <= 1000/);
  });
});

describe('docs sites: access', () => {
  it('answers 401 without a token, 404 to another organization, 403 below the role', async () => {
    const { data } = await calls.createSite({ title: 'Guarded' });
    const site = `${SITES}/${data.id}`;
    for (const [method, path] of [
      ['GET', SITES],
      ['POST', SITES],
      ['GET', site],
      ['PATCH', site],
      ['DELETE', site],
    ] as const) {
      await expectError(
        await t.request(method, path, null, method === 'PATCH' ? {} : undefined),
        401,
      );
    }
    const eve = calls.orgs(TOKENS.eve);
    expect(await clientFailure(eve.getSiteById(ORG, data.id))).toBe(404);
    expect(await clientFailure(eve.listSites(ORG))).toBe(404);
    expect(await clientFailure(eve.updateSiteById(ORG, data.id, { title: 'Mine' }))).toBe(404);
    expect(await clientFailure(eve.deleteSiteById(ORG, data.id))).toBe(404);
    // Eve's own organization does not reach Acme's site either.
    expect(await clientFailure(eve.getSiteById('o-other', data.id))).toBe(404);
    // Readers read; only admins create, change and delete; guests read nothing.
    expect((await calls.getSite(data.id, TOKENS.cara)).permissions).toMatchObject({
      view: true,
      admin: false,
    });
    expect(await clientFailure(calls.orgs(TOKENS.gus).getSiteById(ORG, data.id))).toBe(403);
    const bob = calls.orgs(TOKENS.bob);
    expect(await clientFailure(bob.createSite(ORG, { title: 'Bob site' }))).toBe(403);
    expect(await clientFailure(bob.updateSiteById(ORG, data.id, { title: 'Bob' }))).toBe(403);
    expect(await clientFailure(bob.deleteSiteById(ORG, data.id))).toBe(403);
  });
});

describe('organization default content', () => {
  it('may point at a site of the organization, and only at one', async () => {
    const { data } = await calls.createSite({ title: 'Home site' });
    const org = `/v1/orgs/${ORG}`;
    const ok = await t.request('PATCH', org, TOKENS.ada, {
      defaultContent: { type: 'site', site: data.id },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ defaultContent: { type: 'site', site: data.id } });
    // Deleting the site takes the pointer with it: no member is sent to a site that is gone.
    await calls.orgs(TOKENS.ada).deleteSiteById(ORG, data.id);
    const after = (await (await t.request('GET', org, TOKENS.ada)).json()) as {
      defaultContent?: unknown;
    };
    expect(after.defaultContent ?? null).toBeNull();
    const eves = (await (
      await t.request('POST', '/v1/orgs/o-other/sites', TOKENS.eve, { title: 'Eve site' })
    ).json()) as SiteJson;
    for (const site of ['site-missing', eves.id]) {
      const message = await expectError(
        await t.request('PATCH', org, TOKENS.ada, { defaultContent: { type: 'site', site } }),
        400,
      );
      expect(message).toContain(`body.defaultContent.site must be a site of organization ${ORG}`);
    }
  });
});
