import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequest } from '@gitbook/api';
import type { Nodes } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { hashToken } from '../../src/server/auth/token-hash';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { viewGet, viewSignIn } from '../support/view-browser-session';
import { XSS_PAYLOADS } from '../ui/xss-payloads';

const FORBIDDEN_TAGS = [
  'script',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'video',
  'style',
  'base',
];
const URL_PROPERTIES = new Set(['href', 'src', 'action', 'formAction', 'data', 'poster', 'cite']);

let t: TestServer;
let ada: string;
let cr: ChangeRequest;
let xssCr: ChangeRequest;

/** A space whose every title and body is an XSS payload, and a link page to javascript:. */
function xssFixture() {
  const fixture = contentFixture();
  const body = XSS_PAYLOADS.join('\n\n');
  fixture.organizations[0]!.spaces!.push({
    id: 's-xss',
    title: '<svg onload="window.__xss(100)">',
    emoji: '<b>',
    pages: [
      ...XSS_PAYLOADS.map((payload, i) => ({
        id: `p-xss-${i}`,
        title: payload,
        slug: `xss-${i}`,
        description: payload,
        markdown: `${body}\n`,
      })),
      {
        id: 'p-js-link',
        title: 'Click',
        type: 'link' as const,
        href: 'javascript:window.__xss(101)',
      },
      {
        id: 'p-links',
        title: 'Links',
        slug: 'links',
        markdown:
          '[One](xss-1.md) [Two](/pages/p-xss-2) [Three](./xss-3.md#part) [Home](README.md)\n',
      },
    ],
  });
  return fixture;
}

beforeAll(async () => {
  t = await startTestServer({
    fixture: xssFixture(),
    // A cold worker under a loaded machine: correctness here, not the budget (see bench).
    config: { cpuJobBudgetMs: 60_000 },
  });
  ada = await viewSignIn(t.url, TOKENS.ada);
  const client = t.client(TOKENS.ada);
  cr = (await client.spaces.createChangeRequest('s-handbook', { subject: 'Rewrite the welcome' }))
    .data;
  await client.spaces.updateChangeRequestContent('s-handbook', cr.id, {
    changes: [
      {
        operation: 'update_page',
        page: 'p-welcome',
        document: { markdown: '# Welcome\n\nHello, world.\n\nA new line.\n' },
      },
    ],
  });
  const subject = XSS_PAYLOADS[0]!;
  xssCr = (await client.spaces.createChangeRequest('s-xss', { subject })).data;
  await client.spaces.updateChangeRequestContent('s-xss', xssCr.id, {
    changes: [
      { operation: 'update_page', page: 'p-xss-1', document: { markdown: XSS_PAYLOADS[2]! } },
    ],
  });
});
afterAll(async () => {
  await t.close();
});

describe('space, page, revision and change-request views', () => {
  it('shows a space: its page tree and its first page, rendered', async () => {
    const response = await viewGet(`${t.url}/app/s/s-handbook`, ada);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('<h1>Welcome</h1>');
    expect(html).toContain('<p>Hello.</p>');
    expect(html).toMatch(/<a href="\/app\/s\/s-handbook\/welcome"\s+aria-current="page">Welcome</);
    expect(html).toContain('href="/app/s/s-handbook/guides/setup"');
  });

  it('shows a page by its path, and 404 for a path that names no page', async () => {
    const response = await viewGet(`${t.url}/app/s/s-handbook/guides/setup`, ada);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<p>Install it.</p>');
    const unknown = await viewGet(`${t.url}/app/nothing/here`, ada);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('No page at /app/nothing/here');
    const missing = await viewGet(`${t.url}/app/s/s-handbook/nope`, ada);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Page at path &quot;nope&quot; not found');
  });

  it('shows a change request: subject, status and a line diff against its base', async () => {
    const response = await viewGet(`${t.url}/app/s/s-handbook/~/changes/${cr.number}`, ada);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`#${cr.number} Rewrite the welcome`);
    expect(html).toContain('<span class="badge">draft</span>');
    expect(html).toContain('Page edited: <a href="/app/s/s-handbook/~/changes/1/welcome">');
    expect(html).toContain('<del>- Hello.</del>');
    expect(html).toContain('<ins>+ Hello, world.</ins>');
    expect(html).toContain('<ins>+ A new line.</ins>');
  });

  it("shows a change request's pages as the change request has them", async () => {
    const base = `${t.url}/app/s/s-handbook/~/changes/${cr.number}`;
    const html = await (await viewGet(`${base}/welcome`, ada)).text();
    expect(html).toContain('<p>Hello, world.</p>');
    expect(html).toContain(`href="/app/s/s-handbook/~/changes/${cr.number}"`);
    expect((await viewGet(`${base}/`, ada)).status).toBe(200);
    expect((await viewGet(`${t.url}/app/s/s-handbook/~/changes/99`, ada)).status).toBe(404);
  });

  it('shows a revision', async () => {
    const client = t.client(TOKENS.ada);
    const current = (await client.spaces.getCurrentRevision('s-handbook')).data;
    const { data } = await client.spaces.getRevisionById('s-handbook', current.id);
    expect(data.urls.app).toBe(`${t.url}/app/s/s-handbook/~/revisions/${data.id}`);
    const response = await viewGet(data.urls.app, ada);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(new RegExp(`Revision\\s+${data.id}`));
  });

  it('shows an organization and a collection with what the user can read', async () => {
    const org = await (await viewGet(`${t.url}/app/o/o-acme`, ada)).text();
    expect(org).toContain('<a href="/app/s/s-secret">');
    expect(org).toContain('<a href="/app/c/c-guides">Guides</a>');
    const collection = await viewGet(`${t.url}/app/c/c-guides`, ada);
    expect(collection.status).toBe(200);
    const html = await collection.text();
    expect(html).toContain('<a href="/app/s/s-api">');
    expect(html).toContain('<a href="/app/c/c-advanced">Advanced</a>');
    const home = await (await viewGet(`${t.url}/app`, ada)).text();
    expect(home).toContain('<a href="/app/o/o-acme">Acme</a>');
    expect(home).not.toContain('o-other');
  });
});

describe('links and images in pages', () => {
  it('points links to other pages at their views', async () => {
    const html = await (await viewGet(`${t.url}/app/s/s-xss/links`, ada)).text();
    expect(html).toContain('<a href="/app/s/s-xss/xss-1">One</a>');
    expect(html).toContain('<a href="/app/s/s-xss/xss-2">Two</a>');
    expect(html).toContain('<a href="/app/s/s-xss/xss-3#part">Three</a>');
    expect(html).toContain('<a href="/app/s/s-xss/xss-0">Home</a>');
  });

  it("shows a space's images through their signed download URLs", async () => {
    const html = await (await viewGet(`${t.url}/app/s/s-media`, ada)).text();
    const src = /<img src="([^"]+)" alt="Diagram">/.exec(html)?.[1];
    expect(src).toMatch(new RegExp(`^${t.url}/v1/files/s-media/f-diagram/`));
    const image = await fetch(src!.replaceAll('&#x26;', '&').replaceAll('&amp;', '&'));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });
});

describe('access: the API rules', () => {
  const views = [
    '/app',
    '/app/o/o-acme',
    '/app/c/c-guides',
    '/app/s/s-handbook',
    '/app/s/s-handbook/guides/setup',
    '/app/s/s-handbook/~/changes/1',
    '/app/s/s-handbook/~/changes/1/welcome',
  ];

  it('sends a browser without a session to the sign-in page, coming back afterwards', async () => {
    for (const path of views) {
      const response = await viewGet(`${t.url}${path}`);
      expect(response.status, path).toBe(303);
      expect(response.headers.get('location')).toBe(
        `/app/sign-in?next=${encodeURIComponent(path)}`,
      );
    }
  });

  it('treats a forged, tampered or expired-token cookie as no session', async () => {
    const [name, value] = ada.split('=') as [string, string];
    const parts = value.split('.');
    const forged = [
      `${name}=v1.${hashToken(TOKENS.ada)}.9999999999.AAAA`,
      `${name}=${[parts[0], parts[1], '9999999999', parts[3]].join('.')}`,
      `${name}=${TOKENS.ada}`,
    ];
    for (const cookie of forged) {
      expect((await viewGet(`${t.url}/app/s/s-handbook`, cookie)).status).toBe(303);
    }
  });

  it("answers 404 for another organization's content, and for what a guest was not given", async () => {
    const eve = await viewSignIn(t.url, TOKENS.eve);
    for (const path of views.slice(1)) {
      expect((await viewGet(`${t.url}${path}`, eve)).status, path).toBe(404);
    }
    expect((await viewGet(`${t.url}/app/s/s-other`, ada)).status).toBe(404);
    expect((await viewGet(`${t.url}/app/o/o-other`, ada)).status).toBe(404);
    const gus = await viewSignIn(t.url, TOKENS.gus);
    expect((await viewGet(`${t.url}/app/s/s-handbook`, gus)).status).toBe(200);
    expect((await viewGet(`${t.url}/app/s/s-secret`, gus)).status).toBe(404);
    // As in the API: a guest is in the organization, but below any role on its collections.
    expect((await viewGet(`${t.url}/app/c/c-guides`, gus)).status).toBe(403);
    const org = await (await viewGet(`${t.url}/app/o/o-acme`, gus)).text();
    expect(org).toContain('/app/s/s-handbook');
    expect(org).not.toContain('s-secret');
  });

  it("answers a client that does not ask for HTML with the API's error envelope", async () => {
    const response = await fetch(`${t.url}/app/s/s-other`, { headers: { cookie: ada } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: 404, message: 'Space s-other not found' },
    });
    const html = await viewGet(`${t.url}/app/s/s-other`, ada);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('ends the session when its token is revoked', async () => {
    const { token } = await createToken('u-cara');
    const cookie = await viewSignIn(t.url, token);
    expect((await viewGet(`${t.url}/app/s/s-handbook`, cookie)).status).toBe(200);
    t.db
      .prepare('UPDATE tokens SET revoked_at = ? WHERE hash = ?')
      .run('2026-01-01', hashToken(token));
    expect((await viewGet(`${t.url}/app/s/s-handbook`, cookie)).status).toBe(303);
  });
});

async function createToken(userId: string): Promise<{ token: string }> {
  const token = `tok-view-${userId}-${Date.now()}`;
  t.db
    .prepare('INSERT INTO tokens (hash, user_id, label, created_at) VALUES (?, ?, ?, ?)')
    .run(hashToken(token), userId, 'views test', new Date().toISOString());
  return { token };
}

describe('sign-in', () => {
  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${t.url}/app/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  it('shows a labelled form', async () => {
    const response = await viewGet(`${t.url}/app/sign-in?next=/app/s/s-handbook`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<label for="token">API token</label>');
    expect(html).toContain('<input type="hidden" name="next" value="/app/s/s-handbook" />');
    expect(html).not.toContain('You are signed in');
    const signedIn = await (await viewGet(`${t.url}/app/sign-in?next=/app/o/o-acme`, ada)).text();
    expect(signedIn).toMatch(
      /You are signed in as Ada Lovelace: <a href="\/app\/o\/o-acme">continue<\/a>/,
    );
  });

  it('sets an HttpOnly, SameSite=Strict session cookie that is not the token', async () => {
    const response = await form({ token: TOKENS.cara, next: '/app/o/o-acme' }, { origin: t.url });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/app/o/o-acme');
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(
      /^quire_session=[^;]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    expect(cookie).not.toContain(TOKENS.cara);
  });

  it('marks the cookie Secure when the server is reached over https', async () => {
    t.server.ctx.urls.rebase('https://docs.example.com');
    try {
      const response = await form({ token: TOKENS.cara }, { origin: t.url });
      expect(response.headers.get('set-cookie')).toContain('; Secure');
    } finally {
      t.server.ctx.urls.rebase(t.url);
    }
  });

  it('refuses an unknown token with the form again, and a next that leaves the views', async () => {
    const bad = await form({ token: 'tok-nobody' }, { origin: t.url });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('set-cookie')).toBeNull();
    expect(await bad.text()).toContain('That token is unknown or revoked.');
    for (const next of ['https://evil.example/', '//evil.example/app', '/v1/user', '/app\\x']) {
      const response = await form({ token: TOKENS.cara, next }, { origin: t.url });
      expect(response.headers.get('location'), next).toBe('/app');
    }
  });

  it('refuses cross-site sign-in and sign-out (CSRF)', async () => {
    const crossSite = await form({ token: TOKENS.cara }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const otherOrigin = await form({ token: TOKENS.cara }, { origin: 'https://evil.example' });
    expect(otherOrigin.status).toBe(403);
    expect(otherOrigin.headers.get('set-cookie')).toBeNull();
    const signOut = await fetch(`${t.url}/app/sign-out`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: 'https://evil.example', cookie: ada },
    });
    expect(signOut.status).toBe(403);
  });

  it('signs out by clearing the cookie', async () => {
    const response = await fetch(`${t.url}/app/sign-out`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: t.url, 'sec-fetch-site': 'same-origin' },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/app/sign-in');
    expect(response.headers.get('set-cookie')).toMatch(/^quire_session=; Max-Age=0;.*Path=\/;/);
  });
});

describe("SAML's service addresses", () => {
  it('explain that browsers sign in with a token here; 404 for a provider that does not exist', async () => {
    const response = await t.request('POST', '/v1/orgs/o-acme/saml', TOKENS.ada, { label: 'Okta' });
    expect(response.status).toBe(201);
    const { service } = (await response.json()) as {
      service: { startURL: string; acsURL: string };
    };
    for (const url of [service.startURL, service.acsURL]) {
      const page = await viewGet(url);
      expect(page.status, url).toBe(200);
      const html = await page.text();
      expect(html).toMatch(/does not sign\s+browsers in through SAML/);
      expect(html).toContain('href="/app/sign-in"');
    }
    expect((await viewGet(`${t.url}/sso/saml/nope/start`)).status).toBe(404);
  });
});

describe('headers and XSS', () => {
  it('sends a strict CSP, nosniff and no framing on every view, errors included', async () => {
    for (const path of ['/app/s/s-handbook', '/app/sign-in', '/app/s/s-other', '/app']) {
      const response = await viewGet(`${t.url}${path}`, ada);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
    const css = await viewGet(`${t.url}/app/assets/view.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toContain('prefers-color-scheme: dark');
  });

  /**
   * What a payload leaves if it got through, read the way a browser reads the page (rehype-parse,
   * the HTML standard's parser): any of these fails the test.
   */
  function expectInert(page: string, where: string) {
    const visit = (node: Nodes) => {
      if (node.type === 'element') {
        expect(FORBIDDEN_TAGS, where).not.toContain(node.tagName);
        for (const [name, value] of Object.entries(node.properties)) {
          expect(name, where).not.toMatch(/^on/i);
          expect(name, where).not.toBe('srcDoc');
          if (URL_PROPERTIES.has(name)) {
            expect(String(value).trim(), `${where} ${name}`).not.toMatch(
              /^(javascript|data|vbscript):/i,
            );
          }
        }
      }
      if ('children' in node) node.children.forEach(visit);
    };
    visit(unified().use(rehypeParse).parse(page));
  }

  it('renders every payload in titles, page bodies and subjects inert', async () => {
    const paths = [
      '/app/s/s-xss',
      ...XSS_PAYLOADS.map((_, i) => `/app/s/s-xss/xss-${i}`),
      `/app/s/s-xss/~/changes/${xssCr.number}`,
      `/app/s/s-xss/~/changes/${xssCr.number}/xss-1`,
      '/app/o/o-acme',
    ];
    for (const path of paths) {
      const response = await viewGet(`${t.url}${path}`, ada);
      expect(response.status, path).toBe(200);
      expectInert(await response.text(), path);
    }
    const page = await (await viewGet(`${t.url}/app/s/s-xss/xss-0`, ada)).text();
    // Titles are text: the payload is shown, escaped.
    expect(page).toContain('<h1>&lt;img src=x onerror=&quot;window.__xss(1)&quot;&gt;</h1>');
    expect(page).toContain('<li>Click</li>');
  });
});
