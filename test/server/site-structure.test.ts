import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { ORG, SITES, siteCalls, type SectionJson, type SiteSpaceJson } from '../support/site-calls';
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

const json = async <T>(response: Response, status: number): Promise<T> => {
  expect(response.status).toBe(status);
  return (await response.json()) as T;
};

describe('site spaces', () => {
  it('adds spaces at the root (201) with the spec’s shape, the first as the default', async () => {
    const { data: site } = await calls.createSite({ title: 'Root site' });
    const first = await calls.addSiteSpace(site.id, { spaceId: 's-handbook' });
    expect(first).toMatchObject({
      object: 'site-space',
      path: 'handbook',
      title: 'Handbook',
      default: true,
      space: { object: 'space', id: 's-handbook' },
      urls: { published: `${t.url}/published/${ORG}/${site.id}/handbook/` },
    });
    expect(first.section).toBeUndefined();
    // The same space again gets a free path of its own.
    const again = await calls.addSiteSpace(site.id, { spaceId: 's-handbook' });
    expect([again.path, again.default]).toEqual(['handbook-2', false]);
    expect((await calls.getSite(site.id)).siteSpaces).toBe(2);
    const defaults = await calls.listSiteSpaces(site.id, { default: true });
    expect(defaults.items.map((item) => item.id)).toEqual([first.id]);
    const others = await calls.listSiteSpaces(site.id, { default: false });
    expect(others.items.map((item) => item.id)).toEqual([again.id]);
  });

  it('changes path and condition (omitted leaves it, null removes it); a taken path is 409', async () => {
    const { data: site } = await calls.createSite({ spaces: ['s-handbook', 's-api'] });
    const [handbook, api] = (await calls.listSiteSpaces(site.id)).items as [
      SiteSpaceJson,
      SiteSpaceJson,
    ];
    const path = `${SITES}/${site.id}/site-spaces/${api.id}`;
    const withCondition = await calls
      .orgs(TOKENS.ada)
      .updateSiteSpaceById(ORG, site.id, api.id, { path: 'api', condition: 'visitor.claims.beta' });
    expect(withCondition.data).toMatchObject({ path: 'api', condition: 'visitor.claims.beta' });
    const kept = await json<SiteSpaceJson>(
      await t.request('PATCH', path, TOKENS.ada, { path: 'v2' }),
      200,
    );
    expect(kept).toMatchObject({ path: 'v2', condition: 'visitor.claims.beta' });
    const removed = await json<SiteSpaceJson>(
      await t.request('PATCH', path, TOKENS.ada, { condition: null }),
      200,
    );
    expect(removed.condition).toBeUndefined();
    const clash = await expectError(
      await t.request('PATCH', path, TOKENS.ada, { path: handbook.path }),
      409,
    );
    expect(clash).toContain(`body.path ${handbook.path} is already used by another site space`);
    // The same path in another section is fine: paths are unique per section.
    const section = await calls.addSection(site.id, { spaceId: 's-secret' });
    const inSection = section.siteSpaces[0]!;
    const moved = await json<SiteSpaceJson>(
      await t.request('PATCH', `${SITES}/${site.id}/site-spaces/${inSection.id}`, TOKENS.ada, {
        path: handbook.path,
      }),
      200,
    );
    expect(moved.path).toBe(handbook.path);
  });

  it('refuses each limit exceeded by one and unknown sections or spaces, naming the field', async () => {
    const { data: site } = await calls.createSite({ spaces: ['s-handbook'] });
    const [siteSpace] = (await calls.listSiteSpaces(site.id)).items;
    const base = `${SITES}/${site.id}/site-spaces`;
    const ok = await json<SiteSpaceJson>(
      await t.request('PATCH', `${base}/${siteSpace!.id}`, TOKENS.ada, {
        path: 'p'.repeat(100),
        condition: 'c'.repeat(1024),
      }),
      200,
    );
    expect(ok.path).toHaveLength(100);
    const cases: [string, string, Record<string, unknown>, RegExp][] = [
      [
        'PATCH',
        `${base}/${siteSpace!.id}`,
        { path: 'p'.repeat(101) },
        /body\.path must NOT have more than 100/,
      ],
      ['PATCH', `${base}/${siteSpace!.id}`, { path: '' }, /body\.path must NOT have fewer than 1/],
      [
        'PATCH',
        `${base}/${siteSpace!.id}`,
        { path: 'a/b' },
        /body\.path must start with a letter or digit/,
      ],
      [
        'PATCH',
        `${base}/${siteSpace!.id}`,
        { condition: 'c'.repeat(1025) },
        /body\.condition must NOT have more than 1024/,
      ],
      [
        'PATCH',
        `${base}/${siteSpace!.id}`,
        { condition: '' },
        /body\.condition must NOT have fewer than 1/,
      ],
      ['POST', base, {}, /body must have required property 'spaceId'/],
      [
        'POST',
        base,
        { spaceId: 's-other' },
        /body\.spaceId must be a space of organization o-acme/,
      ],
      [
        'POST',
        base,
        { spaceId: 's-api', sectionId: 'nope' },
        /body\.sectionId must be a section of site/,
      ],
    ];
    for (const [method, path, body, message] of cases) {
      expect(await expectError(await t.request(method, path, TOKENS.ada, body), 400)).toMatch(
        message,
      );
    }
  });

  it('moves a site space before or after another, or last; pointers stay in its section', async () => {
    const { data: site } = await calls.createSite({ spaces: ['s-handbook', 's-api', 's-secret'] });
    const ids = (await calls.listSiteSpaces(site.id)).items.map((item) => item.id);
    const [a, b, c] = ids as [string, string, string];
    const orgs = calls.orgs(TOKENS.ada);
    await orgs.moveSiteSpace(ORG, site.id, c, {
      position: { before: { type: 'site-space', siteSpace: a } },
    });
    expect((await calls.listSiteSpaces(site.id)).items.map((i) => i.id)).toEqual([c, a, b]);
    await orgs.moveSiteSpace(ORG, site.id, c, {
      position: { after: { type: 'site-space', siteSpace: b } },
    });
    expect((await calls.listSiteSpaces(site.id)).items.map((i) => i.id)).toEqual([a, b, c]);
    await orgs.moveSiteSpace(ORG, site.id, a, {});
    expect((await calls.listSiteSpaces(site.id)).items.map((i) => i.id)).toEqual([b, c, a]);
    const message = await expectError(
      await t.request('POST', `${SITES}/${site.id}/site-spaces/${a}/move`, TOKENS.ada, {
        position: { before: { type: 'site-space', siteSpace: 'elsewhere' } },
      }),
      400,
    );
    expect(message).toContain('body.position.before names elsewhere');
  });

  it('walks a list of site spaces page by page', async () => {
    const spaces = Array.from({ length: 5 }, () => 's-handbook');
    const { data: site } = await calls.createSite({ spaces: ['s-api'] });
    for (const spaceId of spaces) await calls.addSiteSpace(site.id, { spaceId });
    const all = await calls.listSiteSpaces(site.id, { limit: 1000 });
    expect(all.count).toBe(6);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const result = await calls.listSiteSpaces(site.id, { limit: 4, ...(page ? { page } : {}) });
      seen.push(...result.items.map((item) => item.id));
      page = result.next?.page;
    } while (page);
    expect(seen).toEqual(all.items.map((item) => item.id));
  });

  it('hides a site space while its space is in the trash, and shows it again on restore', async () => {
    const { data: site } = await calls.createSite({ spaces: ['s-secret', 's-api'] });
    const space = t.client(TOKENS.ada).spaces;
    await space.deleteSpaceById('s-secret');
    expect((await calls.getSite(site.id)).siteSpaces).toBe(1);
    expect((await calls.listSiteSpaces(site.id)).items.map((i) => [i.space.id, i.default])).toEqual(
      [['s-api', true]],
    );
    await space.restoreSpace('s-secret');
    expect((await calls.listSiteSpaces(site.id)).items.map((i) => i.space.id)).toEqual([
      's-secret',
      's-api',
    ]);
  });

  it('deletes a site space (205) and leaves the space', async () => {
    const { data: site } = await calls.createSite({ spaces: ['s-api'] });
    const [siteSpace] = (await calls.listSiteSpaces(site.id)).items;
    const response = await calls.orgs(TOKENS.ada).deleteSiteSpaceById(ORG, site.id, siteSpace!.id);
    expect(response.status).toBe(205);
    expect((await calls.getSite(site.id)).siteSpaces).toBe(0);
    expect((await t.client(TOKENS.ada).spaces.getSpaceById('s-api')).status).toBe(200);
  });
});

describe('site sections', () => {
  it('gives a site its first sections, keeping root spaces in a section of their own', async () => {
    const { data: site } = await calls.createSite({ title: 'Sectioned', spaces: ['s-handbook'] });
    const api = await calls.addSection(site.id, { spaceId: 's-api', title: 'API' });
    expect(api).toMatchObject({
      object: 'site-section',
      title: 'API',
      path: 'api',
      default: false,
      urls: { published: `${t.url}/published/${ORG}/${site.id}/api/` },
    });
    expect(api.siteSpaces.map((s) => [s.space.id, s.section, s.default])).toEqual([
      ['s-api', api.id, true],
    ]);
    const sections = (await calls.listSections(site.id)).items;
    expect(sections.map((s) => [s.title, s.default, s.siteSpaces.map((x) => x.space.id)])).toEqual([
      ['Sectioned', true, ['s-handbook']],
      ['API', false, ['s-api']],
    ]);
    // Without a section, a new site space goes to the default section.
    const added = await calls.addSiteSpace(site.id, { spaceId: 's-secret' });
    expect(added.section).toBe(sections[0]!.id);
    const inApi = await calls.addSiteSpace(site.id, { spaceId: 's-secret', sectionId: api.id });
    expect(inApi.urls.published).toBe(`${t.url}/published/${ORG}/${site.id}/api/board-notes/`);
  });

  it('patches every field; condition omitted stays, null removes; a taken path is 409', async () => {
    const { data: site } = await calls.createSite();
    const one = await calls.addSection(site.id, { spaceId: 's-handbook' });
    const two = await calls.addSection(site.id, { spaceId: 's-api', title: 'Second' });
    const extra = await calls.addSiteSpace(site.id, { spaceId: 's-secret', sectionId: two.id });
    const url = `${SITES}/${site.id}/sections/${two.id}`;
    const patched = await calls.orgs(TOKENS.ada).updateSiteSectionById(ORG, site.id, two.id, {
      title: 'Renamed',
      path: 'renamed',
      defaultSiteSpace: extra.id,
      condition: 'visitor.claims.staff',
      icon: 'gear',
      description: 'All about it',
    });
    expect(patched.data).toMatchObject({
      title: 'Renamed',
      path: 'renamed',
      condition: 'visitor.claims.staff',
      icon: 'gear',
      description: 'All about it',
    });
    expect(patched.data.siteSpaces.find((s) => s.default)?.id).toBe(extra.id);
    const kept = await json<SectionJson>(
      await t.request('PATCH', url, TOKENS.ada, { title: 'Again' }),
      200,
    );
    expect(kept.condition).toBe('visitor.claims.staff');
    const cleared = await json<SectionJson>(
      await t.request('PATCH', url, TOKENS.ada, { condition: null, icon: null, description: null }),
      200,
    );
    expect([cleared.condition, cleared.icon, cleared.description]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(
      await expectError(await t.request('PATCH', url, TOKENS.ada, { path: one.path }), 409),
    ).toContain(`body.path ${one.path} is already the path of section ${one.id}`);
    expect(
      await expectError(
        await t.request('PATCH', url, TOKENS.ada, { defaultSiteSpace: one.siteSpaces[0]!.id }),
        400,
      ),
    ).toContain(`body.defaultSiteSpace must be a site space of section ${two.id}`);
  });

  it('refuses each limit exceeded by one, naming the field', async () => {
    const { data: site } = await calls.createSite();
    const section = await calls.addSection(site.id, {
      spaceId: 's-handbook',
      title: 't'.repeat(64),
    });
    const url = `${SITES}/${site.id}/sections`;
    const one = `${url}/${section.id}`;
    await json(
      await t.request('PATCH', one, TOKENS.ada, {
        title: 't'.repeat(128),
        description: 'd'.repeat(256),
        icon: 'i'.repeat(50),
      }),
      200,
    );
    const cases: [string, string, Record<string, unknown>, RegExp][] = [
      [
        'POST',
        url,
        { spaceId: 's-api', title: 't'.repeat(65) },
        /body\.title must NOT have more than 64/,
      ],
      ['POST', url, { title: 'No space' }, /body must have required property 'spaceId'/],
      ['PATCH', one, { title: 't'.repeat(129) }, /body\.title must NOT have more than 128/],
      ['PATCH', one, { title: 't' }, /body\.title must NOT have fewer than 2/],
      [
        'PATCH',
        one,
        { description: 'd'.repeat(257) },
        /body\.description must NOT have more than 256/,
      ],
      ['PATCH', one, { icon: 'i'.repeat(51) }, /body\.icon must NOT have more than 50/],
      ['PATCH', one, { path: 'p'.repeat(101) }, /body\.path must NOT have more than 100/],
      [
        'PATCH',
        one,
        { condition: 'c'.repeat(1025) },
        /body\.condition must NOT have more than 1024/,
      ],
      ['PATCH', one, { draft: true }, /draft/],
    ];
    for (const [method, path, body, message] of cases) {
      expect(await expectError(await t.request(method, path, TOKENS.ada, body), 400)).toMatch(
        message,
      );
    }
  });

  it('moves sections before and after each other, and deletes one with its site spaces (205)', async () => {
    const { data: site } = await calls.createSite();
    const a = await calls.addSection(site.id, { spaceId: 's-handbook', title: 'Alpha' });
    const b = await calls.addSection(site.id, { spaceId: 's-api', title: 'Beta' });
    const c = await calls.addSection(site.id, { spaceId: 's-secret', title: 'Gamma' });
    const orgs = calls.orgs(TOKENS.ada);
    const order = async () => (await calls.listSections(site.id)).items.map((s) => s.title);
    await orgs.moveSiteSection(ORG, site.id, c.id, {
      position: { before: { type: 'site-section', siteSection: a.id } },
    });
    expect(await order()).toEqual(['Gamma', 'Alpha', 'Beta']);
    await orgs.moveSiteSection(ORG, site.id, c.id, {
      position: { after: { type: 'site-section', siteSection: b.id } },
    });
    expect(await order()).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(
      await expectError(
        await t.request('POST', `${SITES}/${site.id}/sections/${a.id}/move`, TOKENS.ada, {
          position: {
            before: { type: 'site-section', siteSection: c.id },
            after: { type: 'site-section', siteSection: a.id },
          },
        }),
        400,
      ),
    ).toMatch(/body\.position\.after cannot point at the item being moved/);
    const response = await orgs.deleteSiteSectionById(ORG, site.id, a.id);
    expect(response.status).toBe(205);
    expect(await order()).toEqual(['Beta', 'Gamma']);
    expect((await calls.getSite(site.id)).siteSpaces).toBe(2);
    expect((await calls.listSections(site.id)).items[0]?.default).toBe(true);
  });

  it('walks the list of sections page by page', async () => {
    const { data: site } = await calls.createSite();
    for (let i = 0; i < 5; i += 1)
      await calls.addSection(site.id, { spaceId: 's-api', title: `Part ${i}` });
    const first = await calls.listSections(site.id, { limit: 3 });
    expect(first.count).toBe(5);
    const second = await calls.listSections(site.id, { limit: 3, page: first.next!.page });
    expect([...first.items, ...second.items].map((s) => s.title)).toEqual([
      'Part 0',
      'Part 1',
      'Part 2',
      'Part 3',
      'Part 4',
    ]);
    expect(second.next).toBeUndefined();
  });
});
