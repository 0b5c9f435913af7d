import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamMemberRole } from '@gitbook/api';
import {
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

const ORG = 'o-acme';
const TEAMS = `/v1/orgs/${ORG}/teams`;

interface Listed<T> {
  items: T[];
  next?: { page: string };
  count?: number;
}

async function walk<T>(fetchPage: (page: string | undefined) => Promise<Listed<T>>): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const data = await fetchPage(page);
    items.push(...data.items);
    page = data.next?.page;
    if (!page) return items;
  }
  throw new Error('pagination did not end');
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

function teamMemberIds(teamId: string): string[] {
  return (
    t.db
      .prepare('SELECT user_id FROM team_members WHERE team_id = ? ORDER BY user_id')
      .all(teamId) as { user_id: string }[]
  ).map((row) => row.user_id);
}

/** Every count the API shows must match the tables after each change. */
async function expectCountsTrue(): Promise<void> {
  const api = t.client(TOKENS.ada).orgs;
  const teams = await walk(
    async (page) =>
      (await api.listTeamsInOrganizationById(ORG, { limit: 1000, ...(page ? { page } : {}) })).data,
  );
  for (const team of teams) {
    expect(team.members).toBe(teamMemberIds(team.id).length);
    const spaces = t.db
      .prepare(
        `SELECT count(*) AS n FROM space_grants g JOIN spaces s ON s.id = g.space_id
         WHERE g.team_id = ? AND s.deleted_at IS NULL`,
      )
      .get(team.id) as { n: number };
    expect(team.spaces).toBe(spaces.n);
  }
  const members = await api.listMembersInOrganizationById(ORG, { limit: 1000 });
  for (const member of members.data.items) {
    const teamsOf = t.db
      .prepare(
        `SELECT count(*) AS n FROM team_members tm JOIN teams t ON t.id = tm.team_id
         WHERE tm.user_id = ? AND t.organization_id = ?`,
      )
      .get(member.id, ORG) as { n: number };
    expect(member.teams).toBe(teamsOf.n);
    const own = await api.listTeamsForOrganizationMember(ORG, member.id, { limit: 1000 });
    expect(own.data.count).toBe(teamsOf.n);
  }
}

describe('teams', () => {
  it('lists teams with counts and the caller’s permissions', async () => {
    const { data } = await t.client(TOKENS.ada).orgs.listTeamsInOrganizationById(ORG);
    const writers = data.items.find((team) => team.id === 't-writers')!;
    expect(writers).toMatchObject({
      object: 'team',
      title: 'Writers',
      members: 2,
      spaces: 1,
      permissions: { admin: true, view: true },
    });
    expect(typeof writers.createdAt).toBe('string');
    expect((writers as unknown as { urls: { location: string } }).urls.location).toBe(
      `${t.url}/v1/orgs/${ORG}/teams/t-writers`,
    );
    expect(data.items.map((team) => team.id)).not.toContain('t-other');
    expect(data.count).toBe(data.items.length);

    // Bob owns Writers: he manages it, not Reviewers.
    const bob = await t.client(TOKENS.bob).orgs.listTeamsInOrganizationById(ORG);
    const perms = Object.fromEntries(bob.data.items.map((team) => [team.id, team.permissions]));
    expect(perms['t-writers']).toEqual({ admin: true, view: true });
    expect(perms['t-reviewers']).toEqual({ admin: false, view: true });
    await expectCountsTrue();
  });

  it('filters by title and by who can manage the team', async () => {
    const api = t.client(TOKENS.cara).orgs;
    const titled = await api.listTeamsInOrganizationById(ORG, { title: 'VIEW' });
    expect(titled.data.items.map((team) => team.id)).toEqual(['t-reviewers']);
    const owned = await api.listTeamsInOrganizationById(ORG, { owner: 'u-bob' });
    expect(owned.data.items.map((team) => team.id)).toEqual(['t-writers']);
    // An admin can manage every team; a plain member none.
    const all = await api.listTeamsInOrganizationById(ORG);
    const admin = await api.listTeamsInOrganizationById(ORG, { owner: 'u-ada' });
    expect(admin.data.count).toBe(all.data.count);
    const none = await api.listTeamsInOrganizationById(ORG, { owner: 'u-cara' });
    expect(none.data).toMatchObject({ items: [], count: 0 });
  });

  it('guards the team list', async () => {
    await expectError(await t.request('GET', TEAMS, null), 401);
    expect(await clientFailure(t.client(TOKENS.eve).orgs.listTeamsInOrganizationById(ORG))).toBe(
      404,
    );
    expect(await clientFailure(t.client(TOKENS.gus).orgs.listTeamsInOrganizationById(ORG))).toBe(
      403,
    );
    expect(
      await expectError(await t.request('GET', `${TEAMS}?limit=1001`, TOKENS.ada), 400),
    ).toMatch(/limit/);
  });

  it('creates a team with members (admins only)', async () => {
    const api = t.client(TOKENS.ada).orgs;
    const created = await api.createOrganizationTeam(ORG, {
      title: 'Docs crew',
      members: ['u-cara', 'u-finn', 'u-cara'],
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      object: 'team',
      title: 'Docs crew',
      members: 2,
      spaces: 0,
      permissions: { admin: true, view: true },
    });
    expect(teamMemberIds(created.data.id)).toEqual(['u-cara', 'u-finn']);
    const cara = await api.getMemberInOrganizationById(ORG, 'u-cara');
    expect(cara.data.teams).toBe(1);
    const max = await api.createOrganizationTeam(ORG, { title: 'x'.repeat(64) });
    expect(max.data.members).toBe(0);
    await expectCountsTrue();
  });

  it('validates a new team', async () => {
    const long = await expectError(
      await t.request('PUT', TEAMS, TOKENS.ada, { title: 'x'.repeat(65) }),
      400,
    );
    expect(long).toMatch(/title/);
    expect(long).toMatch(/64/);
    expect(
      await expectError(await t.request('PUT', TEAMS, TOKENS.ada, { title: '' }), 400),
    ).toMatch(/title/);
    expect(await expectError(await t.request('PUT', TEAMS, TOKENS.ada, {}), 400)).toMatch(/title/);
    const outsider = await expectError(
      await t.request('PUT', TEAMS, TOKENS.ada, { title: 'Mixed', members: ['u-bob', 'u-eve'] }),
      400,
    );
    expect(outsider).toMatch(/members\[1\]/);
    expect(outsider).toMatch(/u-eve/);
    const titles = (
      await t.client(TOKENS.ada).orgs.listTeamsInOrganizationById(ORG)
    ).data.items.map((team) => team.title);
    expect(titles).not.toContain('Mixed');

    expect(
      await clientFailure(t.client(TOKENS.bob).orgs.createOrganizationTeam(ORG, { title: 'Nope' })),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.createOrganizationTeam(ORG, { title: 'Nope' })),
    ).toBe(404);
    await expectError(await t.request('PUT', TEAMS, null, { title: 'Nope' }), 401);
  });

  it('gets a team', async () => {
    const { data } = await t.client(TOKENS.finn).orgs.getTeamInOrganizationById(ORG, 't-reviewers');
    expect(data).toMatchObject({ object: 'team', id: 't-reviewers', members: 1, spaces: 0 });
    expect(data.permissions).toEqual({ admin: false, view: true });
    expect(
      await clientFailure(t.client(TOKENS.ada).orgs.getTeamInOrganizationById(ORG, 't-nope')),
    ).toBe(404);
    // Another organization's team is unknown here.
    expect(
      await clientFailure(t.client(TOKENS.ada).orgs.getTeamInOrganizationById(ORG, 't-other')),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.getTeamInOrganizationById(ORG, 't-writers')),
    ).toBe(404);
    // A guest sees only the teams they are in.
    expect(
      await clientFailure(t.client(TOKENS.gus).orgs.getTeamInOrganizationById(ORG, 't-writers')),
    ).toBe(403);
    await expectError(await t.request('GET', `${TEAMS}/t-writers`, null), 401);
  });

  it('renames a team (admins only)', async () => {
    const api = t.client(TOKENS.ada).orgs;
    const { data } = await api.updateTeamInOrganizationById(ORG, 't-reviewers', {
      title: 'Reviewers & editors',
    });
    expect(data).toMatchObject({ object: 'team', id: 't-reviewers', title: 'Reviewers & editors' });
    const long = await expectError(
      await t.request('PATCH', `${TEAMS}/t-reviewers`, TOKENS.ada, { title: 'x'.repeat(65) }),
      400,
    );
    expect(long).toMatch(/title/);
    expect(
      await expectError(await t.request('PATCH', `${TEAMS}/t-reviewers`, TOKENS.ada, {}), 400),
    ).toMatch(/title/);
    // Owning a team lets Bob change its members, not rename it.
    expect(
      await clientFailure(
        t.client(TOKENS.bob).orgs.updateTeamInOrganizationById(ORG, 't-writers', { title: 'B' }),
      ),
    ).toBe(403);
    expect(
      await clientFailure(api.updateTeamInOrganizationById(ORG, 't-nope', { title: 'Nope' })),
    ).toBe(404);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.updateTeamInOrganizationById(ORG, 't-writers', { title: 'E' }),
      ),
    ).toBe(404);
    await expectError(await t.request('PATCH', `${TEAMS}/t-writers`, null, { title: 'N' }), 401);
  });

  it('lists team members and walks the pages', async () => {
    const api = t.client(TOKENS.cara).orgs;
    const { data } = await api.listTeamMembersInOrganizationById(ORG, 't-writers');
    expect(data.count).toBe(2);
    const bob = data.items.find((item) => item.organization.id === 'u-bob')!;
    expect(bob.team).toEqual({ role: 'owner' });
    expect(bob.permissions).toEqual({ view: true });
    expect(bob.organization).toMatchObject({ object: 'member', role: 'create' });
    expect(bob.organization.user).toMatchObject({ object: 'user', id: 'u-bob' });
    const walked = await walk(
      async (page) =>
        (
          await api.listTeamMembersInOrganizationById(ORG, 't-writers', {
            limit: 1,
            ...(page ? { page } : {}),
          })
        ).data,
    );
    expect(walked.map((item) => item.organization.id).sort()).toEqual(teamMemberIds('t-writers'));

    expect(
      await clientFailure(
        t.client(TOKENS.gus).orgs.listTeamMembersInOrganizationById(ORG, 't-writers'),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.listTeamMembersInOrganizationById(ORG, 't-writers'),
      ),
    ).toBe(404);
    expect(
      await clientFailure(
        t.client(TOKENS.ada).orgs.listTeamMembersInOrganizationById(ORG, 't-nope'),
      ),
    ).toBe(404);
    await expectError(await t.request('GET', `${TEAMS}/t-writers/members`, null), 401);
    expect(
      await expectError(
        await t.request('GET', `${TEAMS}/t-writers/members?limit=1001`, TOKENS.ada),
        400,
      ),
    ).toMatch(/limit/);
  });

  it('walks the team list page by page', async () => {
    const api = t.client(TOKENS.ada).orgs;
    const all = (await api.listTeamsInOrganizationById(ORG)).data;
    const walked = await walk(
      async (page) =>
        (await api.listTeamsInOrganizationById(ORG, { limit: 1, ...(page ? { page } : {}) })).data,
    );
    expect(walked.map((team) => team.id)).toEqual(all.items.map((team) => team.id));
    expect(new Set(walked.map((team) => team.id)).size).toBe(all.count);
  });
});

describe('team membership changes', () => {
  it('adds and removes in bulk by id and e-mail; a user in both lists is removed', async () => {
    const api = t.client(TOKENS.ada).orgs;
    const response = await api.updateMembersInOrganizationTeam(ORG, 't-reviewers', {
      add: ['u-finn', 'CARA@ACME.TEST', 'u-dora', 'gus@partner.test'],
      remove: ['cleo@acme.test', 'u-dora'],
      memberships: { 'u-finn': { role: TeamMemberRole.Owner } },
    });
    expect(response.status).toBe(204);
    expect(teamMemberIds('t-reviewers')).toEqual(['u-cara', 'u-finn', 'u-gus']);
    const members = (await api.listTeamMembersInOrganizationById(ORG, 't-reviewers')).data;
    const roles = Object.fromEntries(members.items.map((i) => [i.organization.id, i.team.role]));
    expect(roles).toEqual({ 'u-cara': 'member', 'u-finn': 'owner', 'u-gus': 'member' });
    // Gus, a guest, now sees the team he is in.
    const seen = await t.client(TOKENS.gus).orgs.getTeamInOrganizationById(ORG, 't-reviewers');
    expect(seen.data.permissions).toEqual({ admin: false, view: true });
    await expectCountsTrue();
  });

  it('rejects a bulk change naming an entry that is not an organization member, changing nothing', async () => {
    const before = teamMemberIds('t-reviewers');
    const response = await t.request('PUT', `${TEAMS}/t-reviewers/members`, TOKENS.ada, {
      add: ['u-bob', 'eve@other.test'],
    });
    const message = await expectError(response, 400);
    expect(message).toMatch(/add\[1\]/);
    expect(message).toMatch(/eve@other\.test/);
    const removeBad = await expectError(
      await t.request('PUT', `${TEAMS}/t-reviewers/members`, TOKENS.ada, { remove: ['u-nope'] }),
      400,
    );
    expect(removeBad).toMatch(/remove\[0\].*u-nope/);
    const badRole = await expectError(
      await t.request('PUT', `${TEAMS}/t-reviewers/members`, TOKENS.ada, {
        memberships: { 'u-bob': { role: 'boss' } },
      }),
      400,
    );
    expect(badRole).toMatch(/memberships/);
    expect(teamMemberIds('t-reviewers')).toEqual(before);
  });

  it('lets a team owner change their team, and nobody else below admin', async () => {
    // Bob owns Writers.
    const bob = t.client(TOKENS.bob).orgs;
    await bob.updateMembersInOrganizationTeam(ORG, 't-writers', { add: ['u-cleo'] });
    expect(teamMemberIds('t-writers')).toContain('u-cleo');
    expect(
      await clientFailure(
        bob.updateMembersInOrganizationTeam(ORG, 't-reviewers', { add: ['u-bob'] }),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.dora).orgs.updateMembersInOrganizationTeam(ORG, 't-writers', {
          add: ['u-dora'],
        }),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.updateMembersInOrganizationTeam(ORG, 't-writers', { add: [] }),
      ),
    ).toBe(404);
    expect(
      await clientFailure(
        t.client(TOKENS.ada).orgs.updateMembersInOrganizationTeam(ORG, 't-nope', { add: [] }),
      ),
    ).toBe(404);
    await expectError(await t.request('PUT', `${TEAMS}/t-writers/members`, null, {}), 401);
    await expectCountsTrue();
  });

  it('adds, updates and removes one team member', async () => {
    const api = t.client(TOKENS.ada).orgs;
    const added = await api.addMemberToOrganizationTeamById(ORG, 't-writers', 'u-ada', {});
    expect(added.status).toBe(204);
    let members = (await api.listTeamMembersInOrganizationById(ORG, 't-writers')).data.items;
    expect(members.find((i) => i.organization.id === 'u-ada')!.team.role).toBe('member');
    await api.addMemberToOrganizationTeamById(ORG, 't-writers', 'u-ada', {
      role: TeamMemberRole.Owner,
    });
    // Without a role, an existing member keeps theirs.
    await api.addMemberToOrganizationTeamById(ORG, 't-writers', 'u-ada', {});
    members = (await api.listTeamMembersInOrganizationById(ORG, 't-writers')).data.items;
    expect(members.find((i) => i.organization.id === 'u-ada')!.team.role).toBe('owner');
    await expectCountsTrue();

    expect(
      await expectError(
        await t.request('PUT', `${TEAMS}/t-writers/members/u-ada`, TOKENS.ada, { role: 'boss' }),
        400,
      ),
    ).toMatch(/role/);
    expect(
      await clientFailure(api.addMemberToOrganizationTeamById(ORG, 't-writers', 'u-eve', {})),
    ).toBe(404);
    expect(
      await clientFailure(
        t.client(TOKENS.cara).orgs.addMemberToOrganizationTeamById(ORG, 't-writers', 'u-cara', {}),
      ),
    ).toBe(403);
    await expectError(await t.request('PUT', `${TEAMS}/t-writers/members/u-ada`, null, {}), 401);

    // The role is optional, so a request with no body at all adds a plain member.
    const bare = await t.request('PUT', `${TEAMS}/t-writers/members/u-cara`, TOKENS.ada);
    expect(bare.status).toBe(204);
    expect(teamMemberIds('t-writers')).toContain('u-cara');
    await api.deleteMemberFromOrganizationTeamById(ORG, 't-writers', 'u-cara');

    const removed = await api.deleteMemberFromOrganizationTeamById(ORG, 't-writers', 'u-ada');
    expect(removed.status).toBe(204);
    expect(teamMemberIds('t-writers')).not.toContain('u-ada');
    expect(
      await clientFailure(api.deleteMemberFromOrganizationTeamById(ORG, 't-writers', 'u-ada')),
    ).toBe(404);
    expect(
      await clientFailure(
        t.client(TOKENS.cara).orgs.deleteMemberFromOrganizationTeamById(ORG, 't-writers', 'u-bob'),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.deleteMemberFromOrganizationTeamById(ORG, 't-writers', 'u-bob'),
      ),
    ).toBe(404);
    await expectError(await t.request('DELETE', `${TEAMS}/t-writers/members/u-bob`, null), 401);
    await expectCountsTrue();
  });

  it('counts a team’s live spaces only', async () => {
    const api = t.client(TOKENS.ada).orgs;
    expect((await api.getTeamInOrganizationById(ORG, 't-writers')).data.spaces).toBe(1);
    t.db
      .prepare('UPDATE spaces SET deleted_at = ? WHERE id = ?')
      .run(new Date().toISOString(), 's-handbook');
    expect((await api.getTeamInOrganizationById(ORG, 't-writers')).data.spaces).toBe(0);
    t.db.prepare('UPDATE spaces SET deleted_at = NULL WHERE id = ?').run('s-handbook');
    await expectCountsTrue();
  });

  it('deletes a team (admins only) with its memberships and grants', async () => {
    const api = t.client(TOKENS.ada).orgs;
    expect(
      await clientFailure(
        t.client(TOKENS.bob).orgs.removeTeamFromOrganizationById(ORG, 't-writers'),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.removeTeamFromOrganizationById(ORG, 't-writers'),
      ),
    ).toBe(404);
    await expectError(await t.request('DELETE', `${TEAMS}/t-writers`, null), 401);
    const bobBefore = (await api.getMemberInOrganizationById(ORG, 'u-bob')).data.teams;
    const deleted = await api.removeTeamFromOrganizationById(ORG, 't-writers');
    expect(deleted.status).toBe(204);
    expect(await clientFailure(api.getTeamInOrganizationById(ORG, 't-writers'))).toBe(404);
    expect(await clientFailure(api.removeTeamFromOrganizationById(ORG, 't-writers'))).toBe(404);
    expect((await api.getMemberInOrganizationById(ORG, 'u-bob')).data.teams).toBe(bobBefore - 1);
    const grants = t.db
      .prepare('SELECT count(*) AS n FROM space_grants WHERE team_id = ?')
      .get('t-writers') as { n: number };
    expect(grants.n).toBe(0);
    await expectCountsTrue();
  });
});
