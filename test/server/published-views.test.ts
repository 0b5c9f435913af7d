/**
 * Published sites in a browser (`urls.published` of sites, sections and share links): the site
 * space's live content, read by members signed in, by anyone when the site is public, and by
 * anyone holding an active share link's key, which stays with the visitor across the site's
 * own links; an inactive link stops opening it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { viewGet, viewSignIn } from '../support/view-browser-session';

let t: TestServer;
let cookie: string;
let siteId: string;
let published: string;

async function api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await t.request(method, path, TOKENS.ada, body);
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

async function html(url: string, withCookie?: string): Promise<{ status: number; text: string }> {
  const response = await viewGet(url, withCookie);
  return { status: response.status, text: await response.text() };
}

beforeAll(async () => {
  t = await startTestServer({ fixture: contentFixture(), config: { cpuJobBudgetMs: 60_000 } });
  cookie = await viewSignIn(t.url, TOKENS.ada);
  const site = await api('POST', '/v1/orgs/o-acme/sites', {
    title: 'Handbook site',
    spaces: ['s-handbook'],
  });
  siteId = String(site['id']);
  published = (site['urls'] as { published: string }).published;
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('published sites', () => {
  it('shows the site space to a signed-in member: the first page, the tree, page links', async () => {
    expect(published).toBe(`${t.url}/published/o-acme/${siteId}/`);
    const home = await html(published, cookie);
    expect(home.status).toBe(200);
    expect(home.text).toContain('<h1>Welcome</h1>');
    expect(home.text).toContain(`href="/published/o-acme/${siteId}/guides/setup"`);
    const setup = await html(`${published}guides/setup`, cookie);
    expect(setup.status).toBe(200);
    expect(setup.text).toContain('Install it.');
    expect((await html(`${published}no/such/page`, cookie)).status).toBe(404);
  });

  it('is 404 to a visitor of a members-only site, and open once it is public', async () => {
    await api('PATCH', `/v1/orgs/o-acme/sites/${siteId}`, { visibility: 'visitor-auth' });
    expect((await html(published)).status).toBe(404);
    expect((await html(published, cookie)).status).toBe(200);
    await api('PATCH', `/v1/orgs/o-acme/sites/${siteId}`, { visibility: 'public' });
    expect((await html(published)).status).toBe(200);
  });

  it('opens a share-link site with the key, across its own links, until the link is off', async () => {
    await api('PATCH', `/v1/orgs/o-acme/sites/${siteId}`, { visibility: 'share-link' });
    expect((await html(published)).status).toBe(404);
    const link = await api('POST', `/v1/orgs/o-acme/sites/${siteId}/share-links`, {
      name: 'Reviewers',
    });
    const shared = (link['urls'] as { published: string }).published;
    const first = await viewGet(shared);
    expect(first.status).toBe(200);
    const kept = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(first.headers.get('set-cookie')).toMatch(
      new RegExp(`^quire_share=[^;]+; Path=/published/o-acme/${siteId}/; HttpOnly; SameSite=Lax$`),
    );
    // A link inside the site carries no key: the cookie does.
    expect((await html(`${published}guides/setup`, kept)).status).toBe(200);
    await api('PATCH', `/v1/orgs/o-acme/sites/${siteId}/share-links/${String(link['id'])}`, {
      active: false,
    });
    expect((await html(shared)).status).toBe(404);
    expect((await html(`${published}guides/setup`, kept)).status).toBe(404);
  });

  it('picks a section by its path, and its site space', async () => {
    const section = await api('POST', `/v1/orgs/o-acme/sites/${siteId}/sections`, {
      spaceId: 's-media',
      title: 'Media',
    });
    const sectionUrl = (section['urls'] as { published: string }).published;
    const media = await html(sectionUrl, cookie);
    expect(media.status).toBe(200);
    expect(media.text).toContain('<h1>Home</h1>');
    expect(media.text).toContain('aria-label="Spaces of this site"');
  });

  it('serves a site’s urls.app to members, linking to its published address', async () => {
    const site = await api('GET', `/v1/orgs/o-acme/sites/${siteId}`);
    const app = (site['urls'] as { app: string }).app;
    const page = await html(app, cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/published/o-acme/${siteId}/"`);
    expect((await viewGet(app)).status).toBe(303);
  });
});
