import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { ORG, SITES, siteCalls, type GroupJson } from '../support/site-calls';
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

describe('site section groups', () => {
  it('groups sections, adds and removes them, patches, moves and deletes the group', async () => {
    const { data: site } = await calls.createSite();
    const a = await calls.addSection(site.id, { spaceId: 's-handbook', title: 'Alpha' });
    const b = await calls.addSection(site.id, { spaceId: 's-api', title: 'Beta' });
    const orgs = calls.orgs(TOKENS.ada);
    const created = await orgs.addSectionGroupToSite(ORG, site.id, {
      title: 'Guides',
      sections: [a.id],
    });
    expect(created.status).toBe(201);
    const group = created.data as unknown as GroupJson;
    expect(group).toMatchObject({ object: 'site-section-group', title: 'Guides' });
    expect(group.sections.map((s) => [s.id, s.sectionGroup])).toEqual([[a.id, group.id]]);
    const base = `${SITES}/${site.id}/section-groups/${group.id}`;
    const added = await json<GroupJson>(
      await t.request('POST', `${base}/sections`, TOKENS.ada, { sectionId: b.id }),
      201,
    );
    expect(added.sections.map((s) => s.id)).toEqual([a.id, b.id]);
    expect((await t.request('DELETE', `${base}/sections/${a.id}`, TOKENS.ada)).status).toBe(205);
    expect((await t.request('DELETE', `${base}/sections/${a.id}`, TOKENS.ada)).status).toBe(404);
    const patched = await orgs.updateSiteSectionGroupById(ORG, site.id, group.id, {
      title: 'Docs',
      icon: 'book',
    });
    expect(patched.data).toMatchObject({ title: 'Docs', icon: 'book' });
    const moved = await orgs.moveSiteSectionGroup(ORG, site.id, group.id, {
      position: { before: { type: 'site-section', id: a.id } },
    });
    expect(moved.status).toBe(200);
    const published = await orgs.getPublishedContentSite(ORG, site.id);
    const top = published.data.structure.structure as { object: string; id: string }[];
    expect(top.map((item) => [item.object, item.id])).toEqual([
      ['site-section-group', group.id],
      ['site-section', a.id],
    ]);
    const list = await orgs.listSiteSectionGroups(ORG, site.id);
    expect(list.data.count).toBe(1);
    expect((await orgs.deleteSiteSectionGroupById(ORG, site.id, group.id)).status).toBe(205);
    // Its sections stay in the site, ungrouped, in the group's place.
    const sections = (await calls.listSections(site.id)).items;
    expect(sections.map((s) => [s.id, s.sectionGroup])).toEqual([
      [b.id, undefined],
      [a.id, undefined],
    ]);
  });

  it('refuses each limit exceeded by one and unknown sections, naming the field', async () => {
    const { data: site } = await calls.createSite();
    const url = `${SITES}/${site.id}/section-groups`;
    const ok = await json<GroupJson>(
      await t.request('POST', url, TOKENS.ada, { title: 't'.repeat(100), icon: 'i'.repeat(50) }),
      201,
    );
    const cases: [string, string, Record<string, unknown>, RegExp][] = [
      ['POST', url, { title: 't'.repeat(101) }, /body\.title must NOT have more than 100/],
      ['POST', url, { title: '' }, /body\.title must NOT have fewer than 1/],
      ['POST', url, { title: 'Ok', icon: 'i'.repeat(51) }, /body\.icon must NOT have more than 50/],
      [
        'POST',
        url,
        { title: 'Ok', sections: ['nope'] },
        /body\.sections\.0 must be a section of site/,
      ],
      [
        'PATCH',
        `${url}/${ok.id}`,
        { title: 't'.repeat(101) },
        /body\.title must NOT have more than 100/,
      ],
      [
        'POST',
        `${url}/${ok.id}/sections`,
        { sectionId: 'nope' },
        /body\.sectionId must be a section of site/,
      ],
    ];
    for (const [method, path, body, message] of cases) {
      expect(await expectError(await t.request(method, path, TOKENS.ada, body), 400)).toMatch(
        message,
      );
    }
  });
});

describe('site structure: access', () => {
  it('answers 401 without a token, 404 to another organization, 403 below the create role', async () => {
    const { data: site } = await calls.createSite({
      title: 'Private structure',
      visibility: 'visitor-auth',
    });
    const section = await calls.addSection(site.id, { spaceId: 's-handbook' });
    const siteSpace = section.siteSpaces[0]!;
    for (const path of ['sections', 'site-spaces', 'section-groups']) {
      await expectError(await t.request('GET', `${SITES}/${site.id}/${path}`, null), 401);
    }
    const eve = calls.orgs(TOKENS.eve);
    expect(await clientFailure(eve.listSiteSections(ORG, site.id))).toBe(404);
    expect(await clientFailure(eve.listSiteSpaces(ORG, site.id))).toBe(404);
    expect(await clientFailure(eve.listSiteSectionGroups(ORG, site.id))).toBe(404);
    expect(await clientFailure(eve.addSpaceToSite(ORG, site.id, { spaceId: 's-other' }))).toBe(404);
    expect(await clientFailure(eve.deleteSiteSectionById(ORG, site.id, section.id))).toBe(404);
    // Readers read the structure; editors cannot change it; creators can.
    expect((await calls.listSections(site.id, {}, TOKENS.cara)).count).toBe(1);
    const dora = calls.orgs(TOKENS.dora);
    expect(await clientFailure(dora.addSectionToSite(ORG, site.id, { spaceId: 's-api' }))).toBe(
      403,
    );
    expect(await clientFailure(dora.addSpaceToSite(ORG, site.id, { spaceId: 's-api' }))).toBe(403);
    expect(
      await clientFailure(dora.updateSiteSpaceById(ORG, site.id, siteSpace.id, { path: 'x' })),
    ).toBe(403);
    expect(await clientFailure(dora.addSectionGroupToSite(ORG, site.id, { title: 'G' }))).toBe(403);
    expect(await clientFailure(calls.orgs(TOKENS.gus).listSiteSections(ORG, site.id))).toBe(403);
    const bob = await calls.addSiteSpace(site.id, { spaceId: 's-api' }, TOKENS.bob);
    expect(bob.section).toBe(section.id);
    // Unknown ids inside a site are 404 too.
    expect(
      await clientFailure(calls.orgs(TOKENS.ada).deleteSiteSpaceById(ORG, site.id, 'nope')),
    ).toBe(404);
  });
});
