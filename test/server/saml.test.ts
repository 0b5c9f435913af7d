import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemberRole, type OrganizationSAMLProvider } from '@gitbook/api';
import {
  clientError,
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

const ORG = 'o-acme';
const SAML = `/v1/orgs/${ORG}/saml`;

/** A real self-signed X.509 certificate (P-256), as an identity provider hands one out. */
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
/** The same certificate as the bare base64 of its DER, as SAML metadata carries it. */
const CERTIFICATE_BASE64 = CERTIFICATE.replace(/-----[A-Z ]+-----|\s/g, '');

const COMPLETE = {
  label: 'Okta',
  ssoURL: 'https://idp.acme.test/sso/saml',
  entityID: 'http://www.okta.com/exk1',
  certificate: CERTIFICATE,
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const admin = () => t.client(TOKENS.ada).orgs;

async function create(
  body: Parameters<ReturnType<typeof admin>['createOrganizationSamlProvider']>[1],
) {
  return (await admin().createOrganizationSamlProvider(ORG, body)).data;
}

/** Every provider of the list, page by page; fails if a page repeats an id. */
async function walk(limit: number): Promise<OrganizationSAMLProvider[]> {
  const items: OrganizationSAMLProvider[] = [];
  let page: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const { data } = await admin().listSamlProvidersInOrganizationById(ORG, {
      limit,
      ...(page ? { page } : {}),
    });
    expect(data.items.length).toBeLessThanOrEqual(limit);
    items.push(...data.items);
    page = data.next?.page;
    if (!page) {
      expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
      return items;
    }
  }
  throw new Error('pagination did not end');
}

describe('SAML providers: create', () => {
  it('creates a complete provider (201 + Location) with generated service URLs', async () => {
    const response = await admin().createOrganizationSamlProvider(ORG, {
      ...COMPLETE,
      defaultTeam: 't-writers',
      defaultRole: MemberRole.Edit,
    });
    expect(response.status).toBe(201);
    const provider = response.data;
    expect(provider).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      ssoURL: COMPLETE.ssoURL,
      entityID: COMPLETE.entityID,
      certificate: CERTIFICATE,
      defaultRole: 'edit',
      status: 'active',
      defaultTeam: { object: 'team', id: 't-writers', title: 'Writers', members: 2 },
      urls: { location: `${t.url}${SAML}/${provider.id}` },
    });
    expect(response.headers.get('location')).toBe(provider.urls.location);
    expect(Number.isNaN(Date.parse(provider.createdAt))).toBe(false);
    // The service provider's side lives under the server's public URL, one set per provider.
    const base = `${t.url}/sso/saml/${provider.id}`;
    expect(provider.service).toEqual({
      acsURL: `${base}/acs`,
      startURL: `${base}/start`,
      entityID: `${base}/metadata`,
    });
    const fetched = await admin().getOrganizationSamlProviderById(ORG, provider.id);
    expect(fetched.data).toEqual(provider);
  });

  it('starts pending with only a label, as a reader, without a default team', async () => {
    const provider = await create({ label: 'Later' });
    expect(provider).toMatchObject({
      label: 'Later',
      ssoURL: '',
      entityID: '',
      certificate: '',
      defaultRole: 'read',
      status: 'pending',
    });
    expect(provider).not.toHaveProperty('defaultTeam');
    const guest = await create({ label: 'Guests', defaultRole: null });
    expect(guest.defaultRole).toBeNull();
  });

  it('accepts a bare base64 certificate', async () => {
    const provider = await create({ ...COMPLETE, certificate: CERTIFICATE_BASE64 });
    expect(provider).toMatchObject({ certificate: CERTIFICATE_BASE64, status: 'active' });
  });

  it('accepts every limit exactly and refuses each one exceeded by one, naming the field', async () => {
    const url = 'https://idp.acme.test/';
    const atLimit = {
      label: 'l'.repeat(30),
      entityID: 'e'.repeat(1024),
      certificate: CERTIFICATE.padEnd(10_000, '\n'),
      ssoURL: url + 'p'.repeat(2048 - url.length),
    };
    expect((await t.request('POST', SAML, TOKENS.ada, atLimit)).status).toBe(201);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ label: 'l'.repeat(31) }, /body\.label must NOT have more than 30 characters/],
      [{ label: '' }, /body\.label must NOT have fewer than 1 characters/],
      [{ label: 'Ok\u0007ta' }, /body\.label must not contain control characters/],
      [{ entityID: 'e'.repeat(1025) }, /body\.entityID must NOT have more than 1024 characters/],
      [{ entityID: 'line\nbreak' }, /body\.entityID must not contain control characters/],
      [{ certificate: 'c'.repeat(10_001) }, /body\.certificate must NOT have more than 10000/],
      [{ certificate: 'not a certificate' }, /body\.certificate must be an X\.509 certificate/],
      [
        { ssoURL: url + 'p'.repeat(2049 - url.length) },
        /body\.ssoURL must NOT have more than 2048/,
      ],
      [{ ssoURL: 'not a url' }, /body\.ssoURL must be an absolute http or https URL/],
      [{ ssoURL: 'ftp://idp.acme.test/' }, /body\.ssoURL must be an absolute http or https URL/],
      [{ defaultRole: 'owner' }, /body\.defaultRole/],
      [{ defaultTeam: 't-other' }, /body\.defaultTeam "t-other" is not a team of organization/],
      [{ defaultTeam: 't-none' }, /body\.defaultTeam "t-none" is not a team/],
      [{ label: 42 }, /body\.label must be string/],
    ];
    for (const [change, message] of cases) {
      const body = { ...atLimit, ...change };
      expect(await expectError(await t.request('POST', SAML, TOKENS.ada, body), 400)).toMatch(
        message,
      );
    }
    expect(
      await expectError(await t.request('POST', SAML, TOKENS.ada, { ssoURL: url }), 400),
    ).toMatch(/label/);
  });

  it('refuses a missing token (401), another organization (404) and non-admins (403)', async () => {
    await expectError(await t.request('POST', SAML, null, { label: 'X' }), 401);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.createOrganizationSamlProvider(ORG, { label: 'X' }),
      ),
    ).toBe(404);
    expect(
      await clientFailure(admin().createOrganizationSamlProvider('o-other', { label: 'X' })),
    ).toBe(404);
    for (const token of [TOKENS.bob, TOKENS.cara, TOKENS.gus]) {
      const error = await clientError(
        t.client(token).orgs.createOrganizationSamlProvider(ORG, { label: 'X' }),
      );
      expect(error.code).toBe(403);
      expect(error.errorMessage).toMatch(/admin/);
    }
  });
});

describe('SAML providers: read, update, delete', () => {
  it('gets a provider only in its own organization, for admins', async () => {
    const provider = await create({ label: 'Read me' });
    const path = `${SAML}/${provider.id}`;
    await expectError(await t.request('GET', path, null), 401);
    expect(
      await clientFailure(
        t.client(TOKENS.bob).orgs.getOrganizationSamlProviderById(ORG, provider.id),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.getOrganizationSamlProviderById(ORG, provider.id),
      ),
    ).toBe(404);
    // Eve's own provider is not reachable through Acme, nor Acme's through hers.
    const eves = await t
      .client(TOKENS.eve)
      .orgs.createOrganizationSamlProvider('o-other', { label: 'Eve' });
    expect(await clientFailure(admin().getOrganizationSamlProviderById(ORG, eves.data.id))).toBe(
      404,
    );
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.getOrganizationSamlProviderById('o-other', provider.id),
      ),
    ).toBe(404);
    expect(await clientFailure(admin().getOrganizationSamlProviderById(ORG, 'nope'))).toBe(404);
  });

  it('patches each field, keeps the others, and moves between pending and active', async () => {
    const provider = await create({ label: 'Patchy', defaultTeam: 't-writers' });
    const api = admin();
    const completed = await api.updateOrganizationSamlProvider(ORG, provider.id, COMPLETE);
    expect(completed.data).toMatchObject({ ...COMPLETE, status: 'active', defaultRole: 'read' });
    expect(completed.data.defaultTeam?.id).toBe('t-writers');
    const moved = await api.updateOrganizationSamlProvider(ORG, provider.id, {
      defaultTeam: 't-reviewers',
      defaultRole: null,
    });
    expect(moved.data).toMatchObject({ label: 'Okta', defaultRole: null, status: 'active' });
    expect(moved.data.defaultTeam?.id).toBe('t-reviewers');
    // An empty entity ID means "not given": the provider can no longer sign anyone in.
    const emptied = await api.updateOrganizationSamlProvider(ORG, provider.id, { entityID: '' });
    expect(emptied.data).toMatchObject({
      entityID: '',
      status: 'pending',
      ssoURL: COMPLETE.ssoURL,
    });
    expect(emptied.data.createdAt).toBe(provider.createdAt);
    expect(emptied.data.service).toEqual(provider.service);
    expect((await api.getOrganizationSamlProviderById(ORG, provider.id)).data).toEqual(
      emptied.data,
    );
  });

  it('refuses bad patches naming the field, and guards the route', async () => {
    const provider = await create({ label: 'Guarded' });
    const path = `${SAML}/${provider.id}`;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ label: 'l'.repeat(31) }, /body\.label must NOT have more than 30/],
      [{ label: '' }, /body\.label/],
      [{ entityID: 'e'.repeat(1025) }, /body\.entityID/],
      [{ certificate: 'c'.repeat(10_001) }, /body\.certificate/],
      [
        { certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
        /body\.certificate must be an X\.509/,
      ],
      [{ ssoURL: 'https://x.test/' + 'p'.repeat(2048) }, /body\.ssoURL/],
      [{ defaultTeam: 't-other' }, /body\.defaultTeam/],
    ];
    for (const [body, message] of cases) {
      expect(await expectError(await t.request('PATCH', path, TOKENS.ada, body), 400)).toMatch(
        message,
      );
    }
    expect((await admin().getOrganizationSamlProviderById(ORG, provider.id)).data).toEqual(
      provider,
    );
    await expectError(await t.request('PATCH', path, null, { label: 'X' }), 401);
    expect(
      await clientFailure(
        t.client(TOKENS.cleo).orgs.updateOrganizationSamlProvider(ORG, provider.id, { label: 'X' }),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.updateOrganizationSamlProvider(ORG, provider.id, { label: 'X' }),
      ),
    ).toBe(404);
    expect(
      await clientFailure(admin().updateOrganizationSamlProvider(ORG, 'nope', { label: 'X' })),
    ).toBe(404);
  });

  it('deletes a provider (204), after which it is gone', async () => {
    const provider = await create({ label: 'Doomed' });
    const path = `${SAML}/${provider.id}`;
    await expectError(await t.request('DELETE', path, null), 401);
    expect(
      await clientFailure(
        t.client(TOKENS.bob).orgs.deleteOrganizationSamlProvider(ORG, provider.id),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.deleteOrganizationSamlProvider(ORG, provider.id),
      ),
    ).toBe(404);
    const deleted = await admin().deleteOrganizationSamlProvider(ORG, provider.id);
    expect(deleted.status).toBe(204);
    expect(await clientFailure(admin().getOrganizationSamlProviderById(ORG, provider.id))).toBe(
      404,
    );
    expect(await clientFailure(admin().deleteOrganizationSamlProvider(ORG, provider.id))).toBe(404);
  });

  it('keeps a provider whose default team is deleted, without the team', async () => {
    const team = await admin().createOrganizationTeam(ORG, { title: 'Short-lived' });
    const provider = await create({ label: 'Team gone', defaultTeam: team.data.id });
    expect(provider.defaultTeam?.id).toBe(team.data.id);
    await admin().removeTeamFromOrganizationById(ORG, team.data.id);
    const after = await admin().getOrganizationSamlProviderById(ORG, provider.id);
    expect(after.data).not.toHaveProperty('defaultTeam');
  });
});

describe('SAML providers: list', () => {
  it('walks every provider page by page, oldest first, with a true count', async () => {
    for (let i = 0; i < 5; i++) await create({ label: `Walk ${i}` });
    const { data: all } = await admin().listSamlProvidersInOrganizationById(ORG, { limit: 1000 });
    const stored = t.db
      .prepare('SELECT count(*) AS n FROM saml_providers WHERE organization_id = ?')
      .get(ORG) as { n: number };
    expect(all.count).toBe(stored.n);
    expect(all.items).toHaveLength(stored.n);
    expect(all.items.every((item) => item.object === 'saml-provider')).toBe(true);
    const walked = await walk(2);
    expect(walked.map((item) => item.id)).toEqual(all.items.map((item) => item.id));
    const created = walked.map((item) => item.createdAt);
    expect(created).toEqual([...created].sort());
  });

  it('keeps a cursor valid while providers are deleted meanwhile', async () => {
    const first = await admin().listSamlProvidersInOrganizationById(ORG, { limit: 2 });
    const next = first.data.next!.page;
    await admin().deleteOrganizationSamlProvider(ORG, first.data.items[1]!.id);
    const second = await admin().listSamlProvidersInOrganizationById(ORG, { limit: 2, page: next });
    const firstIds = first.data.items.map((item) => item.id);
    expect(second.data.items.some((item) => firstIds.includes(item.id))).toBe(false);
  });

  it('guards the list and its paging input', async () => {
    await expectError(await t.request('GET', SAML, null), 401);
    expect(
      await clientFailure(t.client(TOKENS.bob).orgs.listSamlProvidersInOrganizationById(ORG)),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.listSamlProvidersInOrganizationById(ORG)),
    ).toBe(404);
    expect(
      await expectError(await t.request('GET', `${SAML}?limit=1001`, TOKENS.ada), 400),
    ).toMatch(/limit/);
    const teams = await t.client(TOKENS.ada).orgs.listTeamsInOrganizationById(ORG, { limit: 1 });
    expect(
      await expectError(
        await t.request('GET', `${SAML}?page=${teams.data.next!.page}`, TOKENS.ada),
        400,
      ),
    ).toMatch(/page/);
  });
});

describe('service provider metadata', () => {
  it('serves the SAML metadata at the provider’s service entity ID, without a token', async () => {
    const provider = await create({ label: 'Metadata' });
    const response = await fetch(provider.service.entityID);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const xml = await response.text();
    expect(xml).toContain(`entityID="${provider.service.entityID}"`);
    expect(xml).toMatch(
      new RegExp(
        `<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${provider.service.acsURL}"`,
      ),
    );
    await admin().deleteOrganizationSamlProvider(ORG, provider.id);
    await expectError(await fetch(provider.service.entityID), 404);
  });
});

describe('SSO login info', () => {
  it('lists the active providers for any member, with their start URL, unpaginated', async () => {
    const active = await create({ ...COMPLETE, label: 'Sign in here' });
    const pending = await create({ label: 'Not yet' });
    for (const token of [TOKENS.ada, TOKENS.cara, TOKENS.gus]) {
      const { data } = await t.client(token).orgs.listSsoProviderLoginsInOrganization(ORG);
      expect(Object.keys(data)).toEqual(['items']);
      expect(data.items).toContainEqual({
        id: active.id,
        label: 'Sign in here',
        startURL: active.service.startURL,
      });
      expect(data.items.map((item) => item.id)).not.toContain(pending.id);
      for (const item of data.items)
        expect(Object.keys(item).sort()).toEqual(['id', 'label', 'startURL']);
    }
    const activeIds = (await walk(1000)).filter((p) => p.status === 'active').map((p) => p.id);
    const { data } = await admin().listSsoProviderLoginsInOrganization(ORG);
    expect(data.items.map((item) => item.id)).toEqual(activeIds);
  });

  it('answers 401 without a token and 404 to another organization', async () => {
    await expectError(await t.request('GET', `/v1/orgs/${ORG}/sso`, null), 401);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.listSsoProviderLoginsInOrganization(ORG)),
    ).toBe(404);
    const { data } = await t.client(TOKENS.eve).orgs.listSsoProviderLoginsInOrganization('o-other');
    expect(data.items).toEqual([]);
  });
});

describe('SSO members', () => {
  it('marks a member as an SSO member, which the member list then shows', async () => {
    const { data } = await admin().setUserAsSsoMemberForOrganization(ORG, 'u-finn');
    expect(data).toMatchObject({ object: 'member', id: 'u-finn', sso: true });
    const member = await admin().getMemberInOrganizationById(ORG, 'u-finn');
    expect(member.data.sso).toBe(true);
    await expectError(await t.request('POST', `/v1/orgs/${ORG}/members/u-finn/sso`, null), 401);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.setUserAsSsoMemberForOrganization(ORG, 'u-finn'),
      ),
    ).toBe(404);
  });
});
