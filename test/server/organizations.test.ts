import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPIError, MemberRole } from '@gitbook/api';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('organizations', () => {
  it('lists the caller’s organizations through the published client', async () => {
    const { data } = await t.client(TOKENS.ada).orgs.listOrganizationsForAuthenticatedUser();
    expect(data.items.map((org) => org.id)).toEqual(['o-acme']);
    expect(data.count).toBe(1);
    const org = data.items[0]!;
    expect(org.object).toBe('organization');
    expect(org.urls.location).toBe(`${t.url}/v1/orgs/o-acme`);
    expect(org.permissions.admin).toBe(true);
  });

  it('reflects the caller’s role in permissions', async () => {
    const { data } = await t.client(TOKENS.cara).orgs.getOrganizationById('o-acme');
    expect(data.permissions.admin).toBe(false);
    expect(data.permissions.createContent).toBe(false);
    expect(data.permissions.view).toBe(true);
  });

  it('answers 404, not 403, for an organization the caller does not belong to', async () => {
    const error = await t
      .client(TOKENS.eve)
      .orgs.getOrganizationById('o-acme')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitBookAPIError);
    expect((error as GitBookAPIError).code).toBe(404);
  });

  it('requires a token', async () => {
    const message = await expectError(await t.request('GET', '/v1/orgs/o-acme', null), 401);
    expect(message).toMatch(/Authorization/);
    await expectError(await t.request('GET', '/v1/orgs/o-acme', 'nope-nope'), 401);
  });

  it('patches every field as an admin and forbids it below admin', async () => {
    const { data } = await t.client(TOKENS.ada).orgs.updateOrganizationById('o-acme', {
      title: 'Acme Inc',
      emailDomains: ['acme.test', 'acme.example'],
      hostname: 'acme-docs',
      defaultRole: MemberRole.Read,
      sso: true,
      ai: true,
      inviteLinks: false,
      logo: 'https://acme.example/logo.png',
    });
    expect(data).toMatchObject({
      title: 'Acme Inc',
      emailDomains: ['acme.test', 'acme.example'],
      hostname: 'acme-docs',
      defaultRole: MemberRole.Read,
      sso: true,
      ai: true,
      inviteLinks: false,
    });
    expect(data.urls.logo).toBe('https://acme.example/logo.png');
    await expectError(
      await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.bob, { title: 'Nope' }),
      403,
    );
  });

  it('names the field and rule of invalid input', async () => {
    const long = await expectError(
      await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, { title: 'x'.repeat(256) }),
      400,
    );
    expect(long).toMatch(/title/);
    expect(long).toMatch(/255/);
    const short = await expectError(
      await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, { hostname: 'ab' }),
      400,
    );
    expect(short).toMatch(/hostname/);
    const role = await expectError(
      await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, { defaultRole: 'owner' }),
      400,
    );
    expect(role).toMatch(/defaultRole/);
    await expectError(await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, '{"title":'), 400);
  });

  it('sets defaultContent only to content that exists in the organization', async () => {
    const patch = (defaultContent: unknown) =>
      t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, { title: 'Acme Co', defaultContent });
    // The published client's site pointer, to a site that does not exist.
    const site = await t
      .client(TOKENS.ada)
      .orgs.updateOrganizationById('o-acme', { defaultContent: { type: 'site', site: 'site_x' } })
      .catch((e: unknown) => e);
    expect(site).toBeInstanceOf(GitBookAPIError);
    expect((site as GitBookAPIError).code).toBe(400);
    expect((site as GitBookAPIError).message).toMatch(
      /body\.defaultContent\.site must be a site of organization o-acme that you can read; site_x is not/,
    );
    // A space of another organization, an unknown one, one in the trash: all refused, and the
    // rest of the patch is not applied either.
    for (const space of ['s-other', 's-nope']) {
      const message = await expectError(await patch({ type: 'space', space }), 400);
      expect(message).toBe(
        `body.defaultContent.space must be a space of organization o-acme that you can read; ${space} is not`,
      );
    }
    expect(await expectError(await patch({ type: 'space', site: 's-handbook' }), 400)).toMatch(
      /body\.defaultContent\.site must not be given/,
    );
    expect(await expectError(await patch({ type: 'space' }), 400)).toMatch(
      /body\.defaultContent\.space is required/,
    );
    expect(await expectError(await patch({ type: 'team', space: 's-api' }), 400)).toMatch(
      /defaultContent\.type/,
    );
    const unchanged = await t.client(TOKENS.ada).orgs.getOrganizationById('o-acme');
    expect(unchanged.data.title).not.toBe('Acme Co');
    expect(unchanged.data.defaultContent).toBeUndefined();

    // A space the caller can read is kept, and null removes it.
    const set = await patch({ type: 'space', space: 's-api' });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({
      title: 'Acme Co',
      defaultContent: { type: 'space', space: 's-api' },
    });
    await t.client(TOKENS.ada).spaces.deleteSpaceById('s-api');
    try {
      await expectError(await patch({ type: 'space', space: 's-api' }), 400);
    } finally {
      await t.client(TOKENS.ada).spaces.restoreSpace('s-api');
    }
    const removed = await t
      .client(TOKENS.ada)
      .orgs.updateOrganizationById('o-acme', { defaultContent: null });
    expect(removed.data.defaultContent).toBeUndefined();
  });

  it('gets, patches and deletes link invites', async () => {
    const api = t.client(TOKENS.ada);
    const { data: invite } = await api.orgs.getOrganizationInviteLink('o-acme', 'inv-1');
    expect(invite).toEqual({ object: 'invite', id: 'inv-1', role: 'read', redundant: false });
    const { data: patched } = await api.orgs.updateOrganizationInviteById('o-acme', 'inv-1', {
      role: MemberRole.Edit,
    });
    expect('role' in patched && patched.role).toBe('edit');
    const deleted = await api.orgs.deleteOrganizationInviteById('o-acme', 'inv-1');
    expect(deleted.status).toBe(205);
    await expectError(
      await t.request('GET', '/v1/orgs/o-acme/link-invites/inv-1', TOKENS.ada),
      404,
    );
    await expectError(
      await t.request('GET', '/v1/orgs/o-acme/link-invites/inv-2', TOKENS.cara),
      403,
    );
  });

  it('looks organizations up by e-mail domain', async () => {
    const { data } = await t
      .client(TOKENS.ada)
      .emailDomains.getOrganizationsForEmailDomain('acme.test');
    expect(data.organizations.map((org) => org.id)).toEqual(['o-acme']);
  });

  it('sends rate-limit headers on every response', async () => {
    const response = await t.request('GET', '/v1/orgs', TOKENS.ada);
    expect(Number(response.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(response.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(
      Date.now() / 1000 - 1,
    );
  });
});
