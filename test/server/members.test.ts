import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemberRole } from '@gitbook/api';
import { ManualClock } from '../../src/server/clock';
import type { Db } from '../../src/server/db/open-database';
import {
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

const ORG = 'o-acme';
const MEMBERS = `/v1/orgs/${ORG}/members`;

interface Listed<T> {
  items: T[];
  next?: { page: string };
  count?: number;
}

/** Follows `next.page` to the end; returns every item and the `count` of each page. */
async function walk<T>(
  fetchPage: (page: string | undefined) => Promise<Listed<T>>,
  afterFirstPage?: () => void,
): Promise<{ items: T[]; counts: (number | undefined)[] }> {
  const items: T[] = [];
  const counts: (number | undefined)[] = [];
  let page: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const data = await fetchPage(page);
    items.push(...data.items);
    counts.push(data.count);
    if (guard === 0) afterFirstPage?.();
    page = data.next?.page;
    if (!page) return { items, counts };
  }
  throw new Error('pagination did not end');
}

function liveSpaces(db: Db): number {
  return (
    db
      .prepare('SELECT count(*) AS n FROM spaces WHERE organization_id = ? AND deleted_at IS NULL')
      .get(ORG) as { n: number }
  ).n;
}

function teamsOf(db: Db, userId: string): number {
  return (
    db
      .prepare(
        `SELECT count(*) AS n FROM team_members tm JOIN teams t ON t.id = tm.team_id
         WHERE tm.user_id = ? AND t.organization_id = ?`,
      )
      .get(userId, ORG) as { n: number }
  ).n;
}

function memberIds(db: Db, order: 'ASC' | 'DESC', column: 'joined_at' | 'last_seen_at') {
  return (
    db
      .prepare(
        `SELECT user_id FROM members WHERE organization_id = ? AND ${column} IS NOT NULL
         ORDER BY ${column} ${order}, user_id ${order}`,
      )
      .all(ORG) as { user_id: string }[]
  ).map((row) => row.user_id);
}

describe('organization members: reading', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists members newest first with their counts', async () => {
    const { data } = await t.client(TOKENS.ada).orgs.listMembersInOrganizationById(ORG);
    expect(data.count).toBe(memberIds(t.db, 'DESC', 'joined_at').length);
    expect(data.items.map((m) => m.id)).toEqual(memberIds(t.db, 'DESC', 'joined_at'));
    const bob = data.items.find((m) => m.id === 'u-bob')!;
    expect(bob).toMatchObject({
      object: 'member',
      role: 'create',
      disabled: false,
      sso: false,
      lastSeenAt: '2025-12-02T10:00:00.000Z',
      spaces: liveSpaces(t.db),
      teams: teamsOf(t.db, 'u-bob'),
    });
    expect(bob.teams).toBeGreaterThanOrEqual(1);
    expect(bob.user).toMatchObject({
      object: 'user',
      id: 'u-bob',
      displayName: 'Bob Builder',
      email: 'bob@acme.test',
      urls: { location: `${t.url}/v1/users/u-bob` },
    });
    expect(typeof bob.joinedAt).toBe('string');
    // A guest sees only what was granted: Gus has a grant on the handbook.
    const gus = data.items.find((m) => m.id === 'u-gus')!;
    expect(gus.role).toBeNull();
    expect(gus.spaces).toBe(1);
    expect(data.items.find((m) => m.id === 'u-cleo')!.lastSeenAt).toBeUndefined();
  });

  it('orders, filters by role and searches', async () => {
    const api = t.client(TOKENS.cara).orgs;
    const asc = await api.listMembersInOrganizationById(ORG, { order: 'asc' });
    expect(asc.data.items.map((m) => m.id)).toEqual(memberIds(t.db, 'ASC', 'joined_at'));

    const admins = await api.listMembersInOrganizationById(ORG, { role: MemberRole.Admin });
    expect(admins.data.items.map((m) => m.id)).toEqual(['u-ada']);
    expect(admins.data.count).toBe(1);
    const guests = await api.listMembersInOrganizationById(ORG, { role: 'guest' });
    expect(guests.data.items.map((m) => m.id)).toContain('u-gus');
    expect(guests.data.items.every((m) => m.role === null)).toBe(true);

    const byName = await api.listMembersInOrganizationById(ORG, { search: 'LOVELACE' });
    expect(byName.data.items.map((m) => m.id)).toEqual(['u-ada']);
    const byEmail = await api.listMembersInOrganizationById(ORG, { search: '@Partner.' });
    expect(byEmail.data.items.map((m) => m.id)).toEqual(['u-gus']);
    const wildcard = await api.listMembersInOrganizationById(ORG, { search: '%' });
    expect(wildcard.data).toMatchObject({ items: [], count: 0 });
  });

  it('sorts by last activity, listing only members who have been active', async () => {
    const { data } = await t
      .client(TOKENS.ada)
      .orgs.listMembersInOrganizationById(ORG, { sort: 'lastSeenAt' });
    expect(data.items.map((m) => m.id)).toEqual(['u-bob', 'u-ada']);
    expect(data.count).toBe(2);
    const asc = await t
      .client(TOKENS.ada)
      .orgs.listMembersInOrganizationById(ORG, { sort: 'lastSeenAt', order: 'asc' });
    expect(asc.data.items.map((m) => m.id)).toEqual(['u-ada', 'u-bob']);
  });

  it('rejects bad list parameters, naming them', async () => {
    const limit = await expectError(
      await t.request('GET', `${MEMBERS}?limit=1001`, TOKENS.ada),
      400,
    );
    expect(limit).toMatch(/limit/);
    expect(
      await expectError(await t.request('GET', `${MEMBERS}?order=up`, TOKENS.ada), 400),
    ).toMatch(/order.*asc, desc/);
    expect(
      await expectError(await t.request('GET', `${MEMBERS}?sort=name`, TOKENS.ada), 400),
    ).toMatch(/sort.*joinedAt, lastSeenAt/);
    expect(
      await expectError(await t.request('GET', `${MEMBERS}?role=owner`, TOKENS.ada), 400),
    ).toMatch(/role/);
    const search = await expectError(
      await t.request('GET', `${MEMBERS}?search=${'x'.repeat(257)}`, TOKENS.ada),
      400,
    );
    expect(search).toMatch(/search/);
    expect(
      await expectError(await t.request('GET', `${MEMBERS}?page=garbage`, TOKENS.ada), 400),
    ).toMatch(/page/);
  });

  it('answers 401 without a token, 404 to outsiders and 403 to guests', async () => {
    await expectError(await t.request('GET', MEMBERS, null), 401);
    expect(await clientFailure(t.client(TOKENS.eve).orgs.listMembersInOrganizationById(ORG))).toBe(
      404,
    );
    expect(await clientFailure(t.client(TOKENS.gus).orgs.listMembersInOrganizationById(ORG))).toBe(
      403,
    );
  });

  it('gets one member', async () => {
    const { data } = await t.client(TOKENS.finn).orgs.getMemberInOrganizationById(ORG, 'u-dora');
    expect(data).toMatchObject({ object: 'member', id: 'u-dora', role: 'edit' });
    expect(data.teams).toBe(teamsOf(t.db, 'u-dora'));
    // A guest may read their own membership only.
    const self = await t.client(TOKENS.gus).orgs.getMemberInOrganizationById(ORG, 'u-gus');
    expect(self.data.role).toBeNull();
    expect(
      await clientFailure(t.client(TOKENS.gus).orgs.getMemberInOrganizationById(ORG, 'u-ada')),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.ada).orgs.getMemberInOrganizationById(ORG, 'u-nope')),
    ).toBe(404);
    // Eve exists, but not in Acme; and Acme does not exist for Eve.
    expect(
      await clientFailure(t.client(TOKENS.ada).orgs.getMemberInOrganizationById(ORG, 'u-eve')),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.getMemberInOrganizationById(ORG, 'u-ada')),
    ).toBe(404);
    await expectError(await t.request('GET', `${MEMBERS}/u-ada`, null), 401);
  });

  it("lists a member's spaces with their effective role", async () => {
    const api = t.client(TOKENS.ada).orgs;
    const { data } = await api.listSpacesForOrganizationMember(ORG, 'u-dora');
    expect(data.count).toBe(liveSpaces(t.db));
    const created = t.db
      .prepare(
        `SELECT id FROM spaces WHERE organization_id = ? AND deleted_at IS NULL
         ORDER BY created_at DESC, id DESC`,
      )
      .all(ORG) as { id: string }[];
    expect(data.items.map((item) => item.space.id)).toEqual(created.map((row) => row.id));
    const handbook = data.items.find((item) => item.space.id === 's-handbook')!;
    // Dora is an editor; the Writers team grant (edit) does not raise that.
    expect(handbook.permission).toBe('edit');
    expect(handbook.space).toMatchObject({ object: 'space', id: 's-handbook', organization: ORG });
    // `space.permissions` are Ada's (the caller), not Dora's.
    expect(handbook.space.permissions.admin).toBe(true);

    const asc = await api.listSpacesForOrganizationMember(ORG, 'u-dora', { order: 'asc' });
    expect(asc.data.items.map((item) => item.space.id)).toEqual(
      created.map((row) => row.id).reverse(),
    );

    const gus = await t.client(TOKENS.gus).orgs.listSpacesForOrganizationMember(ORG, 'u-gus');
    expect(gus.data.items.map((item) => [item.space.id, item.permission])).toEqual([
      ['s-handbook', 'comment'],
    ]);
    expect(gus.data.count).toBe(1);
    expect(gus.data.items[0]!.space.permissions.edit).toBe(false);

    for (const order of ['asc', 'desc'] as const) {
      const walked = await walk(
        async (page) =>
          (
            await api.listSpacesForOrganizationMember(ORG, 'u-bob', {
              limit: 1,
              order,
              ...(page ? { page } : {}),
            })
          ).data,
      );
      const ids = walked.items.map((item) => item.space.id);
      expect(ids).toEqual(
        order === 'desc' ? created.map((r) => r.id) : created.map((r) => r.id).reverse(),
      );
    }
  });

  it("guards a member's spaces: admins or the member themself", async () => {
    expect(
      await clientFailure(t.client(TOKENS.cara).orgs.listSpacesForOrganizationMember(ORG, 'u-bob')),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.gus).orgs.listSpacesForOrganizationMember(ORG, 'u-bob')),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.listSpacesForOrganizationMember(ORG, 'u-bob')),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.ada).orgs.listSpacesForOrganizationMember(ORG, 'u-nope')),
    ).toBe(404);
    await expectError(await t.request('GET', `${MEMBERS}/u-bob/spaces`, null), 401);
    const limit = await expectError(
      await t.request('GET', `${MEMBERS}/u-bob/spaces?limit=1001`, TOKENS.ada),
      400,
    );
    expect(limit).toMatch(/limit/);
  });

  it("lists a member's teams with a title filter", async () => {
    const api = t.client(TOKENS.cara).orgs;
    const { data } = await api.listTeamsForOrganizationMember(ORG, 'u-bob');
    const writers = data.items.find((item) => item.team.id === 't-writers')!;
    expect(writers.member).toEqual({ role: 'owner' });
    expect(writers.team).toMatchObject({ object: 'team', title: 'Writers', members: 2 });
    expect(writers.team.permissions).toEqual({ admin: false, view: true });
    expect(data.count).toBe(teamsOf(t.db, 'u-bob'));

    const filtered = await api.listTeamsForOrganizationMember(ORG, 'u-bob', { title: 'WRIT' });
    expect(filtered.data.items.map((item) => item.team.id)).toEqual(['t-writers']);
    const none = await api.listTeamsForOrganizationMember(ORG, 'u-bob', { title: 'zzz' });
    expect(none.data).toMatchObject({ items: [], count: 0 });

    const own = await t.client(TOKENS.gus).orgs.listTeamsForOrganizationMember(ORG, 'u-gus');
    expect(own.data.count).toBe(teamsOf(t.db, 'u-gus'));
    expect(
      await clientFailure(t.client(TOKENS.gus).orgs.listTeamsForOrganizationMember(ORG, 'u-bob')),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.listTeamsForOrganizationMember(ORG, 'u-bob')),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.ada).orgs.listTeamsForOrganizationMember(ORG, 'u-nope')),
    ).toBe(404);
    await expectError(await t.request('GET', `${MEMBERS}/u-bob/teams`, null), 401);
    const limit = await expectError(
      await t.request('GET', `${MEMBERS}/u-bob/teams?limit=1001`, TOKENS.ada),
      400,
    );
    expect(limit).toMatch(/limit/);
  });
});

describe('organization members: changes', () => {
  const clock = new ManualClock('2026-02-01T12:00:00.000Z');
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ clock });
  });
  afterAll(async () => {
    await t.close();
  });

  it('ping records the caller’s last activity', async () => {
    clock.set('2026-02-03T08:30:00.000Z');
    const ping = await t.client(TOKENS.finn).orgs.updateOrganizationMemberLastSeenAt(ORG);
    expect(ping.status).toBe(200);
    // The signed visitor claims (see visitor-claims.test.ts).
    expect(ping.data.gitbookVisitorClaims).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const { data } = await t.client(TOKENS.ada).orgs.getMemberInOrganizationById(ORG, 'u-finn');
    expect(data.lastSeenAt).toBe('2026-02-03T08:30:00.000Z');
    const active = await t
      .client(TOKENS.ada)
      .orgs.listMembersInOrganizationById(ORG, { sort: 'lastSeenAt' });
    expect(active.data.items[0]!.id).toBe('u-finn');
    // Guests ping too; outsiders cannot.
    expect((await t.client(TOKENS.gus).orgs.updateOrganizationMemberLastSeenAt(ORG)).status).toBe(
      200,
    );
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.updateOrganizationMemberLastSeenAt(ORG)),
    ).toBe(404);
    await expectError(await t.request('POST', `/v1/orgs/${ORG}/ping`, null), 401);
  });

  it('changes a role as an admin; null makes a guest', async () => {
    const api = t.client(TOKENS.ada).orgs;
    const { data } = await api.updateMemberInOrganizationById(ORG, 'u-cara', {
      role: MemberRole.Comment,
    });
    expect(data).toMatchObject({ object: 'member', id: 'u-cara', role: 'comment' });
    const guest = await api.updateMemberInOrganizationById(ORG, 'u-cara', { role: null });
    expect(guest.data.role).toBeNull();
    // As a guest with no grants, Cara now sees no space.
    expect(guest.data.spaces).toBe(0);
    const back = await api.updateMemberInOrganizationById(ORG, 'u-cara', { role: MemberRole.Read });
    expect(back.data.spaces).toBe(liveSpaces(t.db));

    expect(
      await clientFailure(
        t.client(TOKENS.bob).orgs.updateMemberInOrganizationById(ORG, 'u-cara', {
          role: MemberRole.Admin,
        }),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        api.updateMemberInOrganizationById(ORG, 'u-nope', { role: MemberRole.Read }),
      ),
    ).toBe(404);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.updateMemberInOrganizationById(ORG, 'u-cara', { role: null }),
      ),
    ).toBe(404);
    await expectError(await t.request('PATCH', `${MEMBERS}/u-cara`, null, { role: 'read' }), 401);
  });

  it('requires a valid role in the body', async () => {
    const missing = await expectError(
      await t.request('PATCH', `${MEMBERS}/u-cara`, TOKENS.ada, {}),
      400,
    );
    expect(missing).toMatch(/role/);
    const wrong = await expectError(
      await t.request('PATCH', `${MEMBERS}/u-cara`, TOKENS.ada, { role: 'owner' }),
      400,
    );
    expect(wrong).toMatch(/role/);
  });

  it('never demotes or removes the last admin', async () => {
    const api = t.client(TOKENS.ada).orgs;
    const demote = await t.request('PATCH', `${MEMBERS}/u-ada`, TOKENS.ada, { role: 'read' });
    expect(await expectError(demote, 409)).toMatch(/last admin/);
    expect(
      await expectError(await t.request('DELETE', `${MEMBERS}/u-ada`, TOKENS.ada), 409),
    ).toMatch(/last admin/);
    // With a second admin, either may step down.
    await api.updateMemberInOrganizationById(ORG, 'u-bob', { role: MemberRole.Admin });
    const stepped = await api.updateMemberInOrganizationById(ORG, 'u-ada', {
      role: MemberRole.Admin,
    });
    expect(stepped.data.role).toBe('admin');
    const bobDown = await t
      .client(TOKENS.bob)
      .orgs.updateMemberInOrganizationById(ORG, 'u-bob', { role: MemberRole.Create });
    expect(bobDown.data.role).toBe('create');
  });

  it('marks a member as an SSO member (admins only)', async () => {
    const { data } = await t
      .client(TOKENS.ada)
      .orgs.setUserAsSsoMemberForOrganization(ORG, 'u-dora');
    expect(data).toMatchObject({ object: 'member', id: 'u-dora', sso: true });
    expect(
      await clientFailure(
        t.client(TOKENS.bob).orgs.setUserAsSsoMemberForOrganization(ORG, 'u-dora'),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.ada).orgs.setUserAsSsoMemberForOrganization(ORG, 'u-nope'),
      ),
    ).toBe(404);
    expect(
      await clientFailure(
        t.client(TOKENS.eve).orgs.setUserAsSsoMemberForOrganization(ORG, 'u-dora'),
      ),
    ).toBe(404);
    await expectError(await t.request('POST', `${MEMBERS}/u-dora/sso`, null), 401);
  });

  it('removes a member with their team memberships and grants', async () => {
    const api = t.client(TOKENS.ada).orgs;
    const writersBefore = (await api.getTeamInOrganizationById(ORG, 't-writers')).data.members;
    const removed = await api.removeMemberFromOrganizationById(ORG, 'u-dora');
    expect(removed.status).toBe(204);
    expect(await clientFailure(api.getMemberInOrganizationById(ORG, 'u-dora'))).toBe(404);
    const writers = (await api.getTeamInOrganizationById(ORG, 't-writers')).data;
    expect(writers.members).toBe(writersBefore - 1);
    expect(teamsOf(t.db, 'u-dora')).toBe(0);

    // Gus's grant on the handbook goes with his membership.
    await api.removeMemberFromOrganizationById(ORG, 'u-gus');
    const grants = t.db
      .prepare('SELECT count(*) AS n FROM space_grants WHERE user_id = ?')
      .get('u-gus') as { n: number };
    expect(grants.n).toBe(0);

    const list = await api.listMembersInOrganizationById(ORG);
    expect(list.data.items.map((m) => m.id)).not.toContain('u-dora');
    expect(list.data.count).toBe(memberIds(t.db, 'DESC', 'joined_at').length);
    expect(await clientFailure(api.removeMemberFromOrganizationById(ORG, 'u-dora'))).toBe(404);
  });

  it('lets a member leave but not remove others', async () => {
    expect(
      await clientFailure(
        t.client(TOKENS.cara).orgs.removeMemberFromOrganizationById(ORG, 'u-bob'),
      ),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.removeMemberFromOrganizationById(ORG, 'u-bob')),
    ).toBe(404);
    await expectError(await t.request('DELETE', `${MEMBERS}/u-bob`, null), 401);
    const left = await t.client(TOKENS.finn).orgs.removeMemberFromOrganizationById(ORG, 'u-finn');
    expect(left.status).toBe(204);
    // Finn is no longer in Acme: Acme no longer exists for him.
    expect(await clientFailure(t.client(TOKENS.finn).orgs.listMembersInOrganizationById(ORG))).toBe(
      404,
    );
  });
});

describe('organization members: pagination', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    const insertUser = t.db.prepare(
      'INSERT INTO users (id, display_name, email, created_at) VALUES (?, ?, ?, ?)',
    );
    const insertMember = t.db.prepare(
      `INSERT INTO members (organization_id, user_id, role, joined_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?)`,
    );
    t.db.transaction(() => {
      for (let i = 0; i < 30; i++) {
        const id = `u-extra-${String(i).padStart(2, '0')}`;
        insertUser.run(id, `Extra ${i}`, `extra${i}@acme.test`, '2025-01-01T00:00:00.000Z');
        // Pairs share a join time, so the user id has to break ties without losing anyone.
        const joined = new Date(Date.UTC(2025, 5, 1) + Math.floor(i / 2) * 60_000).toISOString();
        const seen =
          i % 3 === 0 ? null : new Date(Date.UTC(2025, 8, 1) + (i % 7) * 60_000).toISOString();
        insertMember.run(ORG, id, i % 5 === 0 ? null : 'read', joined, seen);
      }
    })();
  });
  afterAll(async () => {
    await t.close();
  });

  let added = 0;
  function addMemberNow(): string {
    const id = `u-late-${added++}`;
    const now = new Date().toISOString();
    t.db
      .prepare('INSERT INTO users (id, display_name, email, created_at) VALUES (?, ?, ?, ?)')
      .run(id, `Late ${id}`, `${id}@acme.test`, now);
    t.db
      .prepare(
        `INSERT INTO members (organization_id, user_id, role, joined_at, last_seen_at)
         VALUES (?, ?, 'read', ?, ?)`,
      )
      .run(ORG, id, now, now);
    return id;
  }

  for (const sort of ['joinedAt', 'lastSeenAt'] as const) {
    for (const order of ['asc', 'desc'] as const) {
      it(`walks sort=${sort} order=${order} with no duplicates or gaps, even with a member added mid-walk`, async () => {
        const column = sort === 'joinedAt' ? 'joined_at' : 'last_seen_at';
        const expected = memberIds(t.db, order === 'asc' ? 'ASC' : 'DESC', column);
        let late = '';
        const walked = await walk(
          async (page) =>
            (
              await t.client(TOKENS.cara).orgs.listMembersInOrganizationById(ORG, {
                limit: 7,
                sort,
                order,
                ...(page ? { page } : {}),
              })
            ).data,
          () => {
            late = addMemberNow();
          },
        );
        const ids = walked.items.map((m) => m.id);
        expect(new Set(ids).size).toBe(ids.length);
        // The newest member sorts last ascending (and is reached), first descending (already passed).
        expect(ids).toEqual(order === 'asc' ? [...expected, late] : expected);
        expect(walked.counts[0]).toBe(expected.length);
        expect(walked.counts.at(-1)).toBe(expected.length + 1);
        if (sort === 'lastSeenAt') expect(walked.items.every((m) => m.lastSeenAt)).toBe(true);
      });
    }
  }

  it('walks a filtered list and refuses a cursor from another filter', async () => {
    const api = t.client(TOKENS.ada).orgs;
    const guests = await walk(
      async (page) =>
        (
          await api.listMembersInOrganizationById(ORG, {
            role: 'guest',
            limit: 2,
            ...(page ? { page } : {}),
          })
        ).data,
    );
    const expected = (
      t.db
        .prepare(
          `SELECT user_id FROM members WHERE organization_id = ? AND role IS NULL
           ORDER BY joined_at DESC, user_id DESC`,
        )
        .all(ORG) as { user_id: string }[]
    ).map((row) => row.user_id);
    expect(guests.items.map((m) => m.id)).toEqual(expected);
    const first = await api.listMembersInOrganizationById(ORG, { limit: 2 });
    const page = first.data.next!.page;
    const reused = await t.request('GET', `${MEMBERS}?role=read&page=${page}`, TOKENS.ada);
    expect(await expectError(reused, 400)).toMatch(/page/);
  });
});
