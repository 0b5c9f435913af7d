import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

// No silent drops: a body property an operation does not define answers 400 naming it, instead
// of being ignored (an update that changes nothing, answered 200).

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('body properties an operation does not define', () => {
  it('refuses update_page with markdown beside document, writing no revision', async () => {
    const { data: cr } = await t
      .client(TOKENS.dora)
      .spaces.createChangeRequest('s-handbook', { subject: 'Edits' });
    const path = `/v1/spaces/s-handbook/change-requests/${cr.id}/content`;
    const misplaced = await t.request('POST', path, TOKENS.dora, {
      changes: [{ operation: 'update_page', page: 'p-welcome', markdown: '# Hello\n' }],
    });
    expect(await expectError(misplaced, 400)).toBe(
      'body.changes.0.markdown is not a property of this operation',
    );
    const nested = await t.request('POST', path, TOKENS.dora, {
      changes: [
        { operation: 'insert_page', title: 'Fine', document: { markdown: 'x' } },
        { operation: 'update_page', page: 'p-welcome', document: { markdown: 'y', md: 'z' } },
      ],
    });
    expect(await expectError(nested, 400)).toBe(
      'body.changes.1.document.md is not a property of this operation',
    );
    const { data } = await t.client(TOKENS.dora).spaces.getChangeRequestById('s-handbook', cr.id);
    expect(data.revision).toBe(cr.revision);
    // Where it belongs, the same Markdown is applied.
    const applied = await t.request('POST', path, TOKENS.dora, {
      changes: [{ operation: 'update_page', page: 'p-welcome', document: { markdown: '# Hi\n' } }],
    });
    expect(applied.status).toBe(200);
  });

  it('refuses PATCH space with {"bogus":1}, and changes nothing beside it', async () => {
    const bogus = await t.request('PATCH', '/v1/spaces/s-handbook', TOKENS.ada, { bogus: 1 });
    expect(await expectError(bogus, 400)).toBe('body.bogus is not a property of this operation');
    const mixed = await t.request('PATCH', '/v1/spaces/s-handbook', TOKENS.ada, {
      title: 'Renamed',
      colour: 'red',
    });
    expect(await expectError(mixed, 400)).toMatch(/^body\.colour /);
    const { data } = await t.client(TOKENS.ada).spaces.getSpaceById('s-handbook');
    expect(data.title).toBe('Handbook');
  });

  it('names a property inside a nullable object, and keeps other errors as they were', async () => {
    const extra = await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, {
      defaultContent: { type: 'space', space: 's-api', note: 'x' },
    });
    expect(await expectError(extra, 400)).toBe(
      'body.defaultContent.note is not a property of this operation',
    );
    // A body invalid as written still gets the message naming its rule.
    const long = await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, {
      title: 'x'.repeat(256),
      bogus: 1,
    });
    expect(await expectError(long, 400)).toMatch(/^body\.title .*255/);
  });

  it('refuses any property sent to a write that takes no body; {} and no body are fine', async () => {
    const ping = '/v1/orgs/o-acme/ping';
    expect(await expectError(await t.request('POST', ping, TOKENS.ada, { force: true }), 400)).toBe(
      'body.force is not a property of this operation (it takes no body)',
    );
    expect((await t.request('POST', ping, TOKENS.ada, {})).status).toBe(200);
    expect((await t.request('POST', ping, TOKENS.ada)).status).toBe(200);
  });

  it('keeps maps and free-form values open, their fixed-shape values closed', async () => {
    const members = '/v1/orgs/o-acme/teams/t-writers/members';
    const ok = await t.request('PUT', members, TOKENS.ada, {
      memberships: { 'u-bob': { role: 'owner' } },
    });
    expect(ok.status).toBe(204);
    const extra = await t.request('PUT', members, TOKENS.ada, {
      memberships: { 'u-bob': { role: 'owner', since: 'today' } },
    });
    expect(await expectError(extra, 400)).toBe(
      'body.memberships.u-bob.since is not a property of this operation',
    );
  });

  it('still accepts everything the published client sends', async () => {
    const api = t.client(TOKENS.ada);
    const { data } = await api.spaces.updateSpaceById('s-api', { title: 'API', emoji: '🧪' });
    expect(data).toMatchObject({ title: 'API', emoji: '🧪' });
    const team = await api.orgs.updateTeamInOrganizationById('o-acme', 't-writers', {
      title: 'Authors',
    });
    expect(team.data.title).toBe('Authors');
  });
});
