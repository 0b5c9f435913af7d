/**
 * Every URL the API hands out resolves: the test reads API responses (reads and writes, through
 * the published client and raw requests), collects every string that is an address on this
 * server, and GETs each one the way its consumer would — API addresses with the token, views
 * with a browser session (and without one: the sign-in page), public addresses with nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { viewGet, viewSignIn } from '../support/view-browser-session';

const CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBiDCCAS2gAwIBAgIUG4vPm58/NktYgYKvief/PPW+OrgwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNaWRwLmFjbWUudGVzdDAgFw0yNjExMjYxMDEwMjZaGA8yMTI2
MTEwMjEwMTAyNlowGDEWMBQGA1UEAwwNaWRwLmFjbWUudGVzdDBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABFeerxj/5llzQf/hx8xRCdGBltNameMv8y9MTUyOExUT
mrHbkBdcEDkWazzJ6VftgrLtICQ1rQHJHwFyL0GDFHujUzBRMB0GA1UdDgQWBBR9
dqSy4892yy3fb2fdmfbhbevigDAfBgNVHSMEGDAWgBR9dqSy4892yy3fb2fdmfbh
bevigDAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQDAzkS53K0j
GmVTTTngI2cLLBbmONCZS6Am6kBxFW4zKgIhANX7jrMI+tZPq3zuUaX+VVdeFrM3
f0baVzTU4Z5FUhWe
-----END CERTIFICATE-----
`;

let t: TestServer;
let cookie: string;
/** Every address on this server found in a response, with where it was found. */
const found = new Map<string, string>();

/** Collects every string under `value` that is an absolute URL on this server. */
function collect(value: unknown, where: string): void {
  if (typeof value === 'string') {
    if (value.startsWith(`${t.url}/`) || value === t.url) {
      if (!found.has(value)) found.set(value, where);
    }
  } else if (Array.isArray(value)) {
    value.forEach((item) => collect(item, where));
  } else if (value && typeof value === 'object') {
    Object.values(value).forEach((item) => collect(item, where));
  }
}

async function read(path: string): Promise<unknown> {
  const response = await t.request('GET', path, TOKENS.ada);
  expect(response.status, path).toBe(200);
  const body: unknown = await response.json();
  collect(body, `GET ${path}`);
  return body;
}

async function write(
  method: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await t.request(method, path, TOKENS.ada, body);
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  collect(response.headers.get('location'), `${method} ${path} (Location)`);
  const json = (await response.json()) as Record<string, unknown>;
  collect(json, `${method} ${path}`);
  return json;
}

/** The API reads whose answers carry URLs, after writes that create one of everything. */
async function walkApi(): Promise<void> {
  const cr = await write('POST', '/v1/spaces/s-handbook/change-requests', { subject: 'Walk' });
  await write('POST', `/v1/spaces/s-handbook/change-requests/${String(cr['id'])}/content`, {
    changes: [
      { operation: 'update_page', page: 'p-welcome', document: { markdown: '# Welcome\n\nHi.\n' } },
    ],
  });
  await write('POST', '/v1/spaces/s-handbook/comments', { body: { markdown: 'A note' } });
  await write('POST', '/v1/orgs/o-acme/saml', {
    label: 'Okta',
    ssoURL: 'https://idp.acme.test/sso/saml',
    entityID: 'http://www.okta.com/exk1',
    certificate: CERTIFICATE,
  });
  await write('POST', '/v1/orgs/o-acme/translations', { title: 'French', languages: ['fr'] });
  const site = await write('POST', '/v1/orgs/o-acme/sites', {
    title: 'Handbook site',
    spaces: ['s-handbook'],
  });
  const sitePath = `/v1/orgs/o-acme/sites/${String(site['id'])}`;
  await write('POST', `${sitePath}/share-links`, { name: 'Reviewers' });
  await write('PUT', '/v1/orgs/o-acme/openapi/petstore', {
    source: { text: '{"openapi":"3.0.0","info":{"title":"Pets","version":"1"},"paths":{}}' },
  });
  const crPath = `/v1/spaces/s-handbook/change-requests/${String(cr['id'])}`;
  const revision = (await read('/v1/spaces/s-handbook/content')) as { id: string };
  for (const path of [
    '/v1/user',
    '/v1/orgs',
    '/v1/orgs/o-acme',
    '/v1/orgs/o-acme/members',
    '/v1/orgs/o-acme/teams',
    '/v1/orgs/o-acme/collections',
    '/v1/orgs/o-acme/spaces',
    '/v1/orgs/o-acme/custom-fields',
    '/v1/orgs/o-acme/saml',
    '/v1/orgs/o-acme/sso',
    '/v1/orgs/o-acme/translations',
    '/v1/orgs/o-acme/search?query=welcome',
    '/v1/collections/c-guides',
    '/v1/collections/c-guides/spaces',
    '/v1/spaces/s-handbook',
    '/v1/spaces/s-handbook/content?format=markdown',
    `/v1/spaces/s-handbook/revisions/${revision.id}`,
    `/v1/spaces/s-handbook/revisions/${revision.id}/changes`,
    '/v1/spaces/s-handbook/comments',
    '/v1/spaces/s-handbook/links',
    '/v1/spaces/s-handbook/change-requests',
    crPath,
    `${crPath}/content`,
    `${crPath}/changes`,
    `${crPath}/pdf`,
    '/v1/spaces/s-media/content',
    '/v1/spaces/s-media/content/files',
    '/v1/orgs/o-acme/sites',
    sitePath,
    `${sitePath}/site-spaces`,
    `${sitePath}/share-links`,
    `${sitePath}/published`,
    '/v1/orgs/o-acme/openapi',
  ]) {
    await read(path);
  }
}

beforeAll(async () => {
  t = await startTestServer({
    fixture: contentFixture(),
    // A cold worker under a loaded machine: correctness here, not the budget (see bench).
    config: { cpuJobBudgetMs: 60_000 },
  });
  cookie = await viewSignIn(t.url, TOKENS.ada);
  await walkApi();
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('every URL the API hands out', () => {
  it('finds the kinds of address the API returns', () => {
    const paths = [...found.keys()].map((url) => new URL(url).pathname);
    for (const prefix of [
      '/v1/',
      '/app/o/',
      '/app/c/',
      '/app/s/',
      '/sso/saml/',
      '/v1/files/',
      '/v1/pdfs/',
      '/published/',
      '/app/o/o-acme/sites/',
      '/app/o/o-acme/openapi/',
    ]) {
      expect(
        paths.some((path) => path.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
    expect(paths.some((path) => path.includes('/~/changes/'))).toBe(true);
    expect(paths.some((path) => path.includes('/~/revisions/'))).toBe(true);
    for (const end of ['/start', '/acs', '/metadata']) {
      expect(
        paths.some((path) => path.startsWith('/sso/saml/') && path.endsWith(end)),
        end,
      ).toBe(true);
    }
  });

  it('resolves each one for the consumer it is meant for', async () => {
    const failures: string[] = [];
    for (const [url, where] of found) {
      const path = new URL(url).pathname;
      const response = path.startsWith('/v1/')
        ? await fetch(url, { headers: { authorization: `Bearer ${TOKENS.ada}` } })
        : await viewGet(url, cookie);
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(`${response.status} ${url} (from ${where})`);
    }
    expect(failures).toEqual([]);
  });

  it('sends a browser without a session from every view address to the sign-in page', async () => {
    for (const url of found.keys()) {
      if (!new URL(url).pathname.startsWith('/app/')) continue;
      const response = await viewGet(url);
      expect(response.status, url).toBe(303);
      expect(response.headers.get('location'), url).toMatch(/^\/app\/sign-in\?next=/);
    }
  });
});
