import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemberRole, SpaceEditMode, type Space } from '@gitbook/api';
import { ManualClock } from '../../src/server/clock';
import { DAY_MS } from '../../src/server/config';
import {
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

async function createSpace(title: string, parent?: string): Promise<Space> {
  const { data } = await t
    .client(TOKENS.ada)
    .orgs.createSpace('o-acme', { title, ...(parent ? { parent } : {}) });
  return data;
}

function expectSpaceShape(space: Space): void {
  expect(space.object).toBe('space');
  for (const field of ['id', 'title', 'emoji', 'visibility', 'createdAt', 'updatedAt'] as const) {
    expect(typeof space[field]).toBe('string');
  }
  expect(typeof space.organization).toBe('string');
  expect(typeof space.revision).toBe('string');
  expect(space.defaultLevel === null || typeof space.defaultLevel === 'string').toBe(true);
  for (const field of [
    'comments',
    'changeRequests',
    'changeRequestsOpen',
    'changeRequestsDraft',
  ] as const) {
    expect(typeof space[field]).toBe('number');
  }
  expect(space.urls.location).toBe(`${t.url}/v1/spaces/${space.id}`);
  expect(space.urls.app.startsWith(t.url)).toBe(true);
  expect(Object.keys(space.permissions).sort()).toEqual([
    'access',
    'admin',
    'comment',
    'edit',
    'merge',
    'review',
    'triggerGitSync',
    'view',
    'viewInviteLinks',
  ]);
}

describe('create space', () => {
  it('creates an empty space with an initial revision and a Location header', async () => {
    const response = await t.client(TOKENS.ada).orgs.createSpace('o-acme', {
      title: 'Launch plan',
      emoji: '🚀',
      editMode: SpaceEditMode.Locked,
    });
    expect(response.status).toBe(201);
    const space = response.data;
    expectSpaceShape(space);
    expect(response.headers.get('location')).toBe(`${t.url}/v1/spaces/${space.id}`);
    expect(space).toMatchObject({
      title: 'Launch plan',
      emoji: '🚀',
      editMode: SpaceEditMode.Locked,
      visibility: 'private',
      organization: 'o-acme',
      defaultLevel: null,
    });
    expect(space.parent).toBeUndefined();
    expect(space.permissions.admin).toBe(true);
    expect(space.permissions.edit).toBe(false); // locked
    const revision = t.db
      .prepare('SELECT space_id, tree FROM revisions WHERE id = ?')
      .get(space.revision) as { space_id: string; tree: string };
    expect(revision.space_id).toBe(space.id);
    expect(JSON.parse(revision.tree)).toEqual({ pages: [], files: [] });
  });

  it('defaults the title, and accepts no body at all', async () => {
    const { data } = await t.client(TOKENS.bob).orgs.createSpace('o-acme', {});
    expect(data.title).toBe('Untitled');
    expect(data.emoji).toBe('');
    expect(data.editMode).toBe('live');
    const raw = await t.request('POST', '/v1/orgs/o-acme/spaces', TOKENS.ada);
    expect(raw.status).toBe(201);
    expect(((await raw.json()) as Space).title).toBe('Untitled');
  });

  it('creates in a collection of the same organization, shown in-collection', async () => {
    const space = await createSpace('In guides', 'c-guides');
    expect(space.parent).toBe('c-guides');
    expect(space.visibility).toBe('in-collection');
  });

  it('answers 400 naming body.parent for an unknown or foreign collection', async () => {
    for (const parent of ['c-nope', 'c-other']) {
      const message = await expectError(
        await t.request('POST', '/v1/orgs/o-acme/spaces', TOKENS.ada, { title: 'x', parent }),
        400,
      );
      expect(message).toMatch(/body\.parent/);
    }
  });

  it('enforces the title and emoji limits', async () => {
    const ok = await t.request('POST', '/v1/orgs/o-acme/spaces', TOKENS.ada, {
      title: 'x'.repeat(50),
      emoji: 'e'.repeat(50),
    });
    expect(ok.status).toBe(201);
    const title = await expectError(
      await t.request('POST', '/v1/orgs/o-acme/spaces', TOKENS.ada, { title: 'x'.repeat(51) }),
      400,
    );
    expect(title).toMatch(/body\.title/);
    expect(title).toMatch(/50/);
    const emoji = await expectError(
      await t.request('POST', '/v1/orgs/o-acme/spaces', TOKENS.ada, { emoji: 'e'.repeat(51) }),
      400,
    );
    expect(emoji).toMatch(/body\.emoji/);
    const mode = await expectError(
      await t.request('POST', '/v1/orgs/o-acme/spaces', TOKENS.ada, { editMode: 'frozen' }),
      400,
    );
    expect(mode).toMatch(/body\.editMode/);
  });

  it('needs a token, membership and the create role', async () => {
    await expectError(await t.request('POST', '/v1/orgs/o-acme/spaces', null, {}), 401);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.createSpace('o-acme', { title: 'x' })),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.ada).orgs.createSpace('o-nope', { title: 'x' })),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.cleo).orgs.createSpace('o-acme', { title: 'x' })),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.cara).orgs.createSpace('o-acme', { title: 'x' })),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.gus).orgs.createSpace('o-acme', { title: 'x' })),
    ).toBe(403);
  });
});

describe('list spaces of an organization', () => {
  it('lists every readable space with its revision', async () => {
    const { data } = await t
      .client(TOKENS.cara)
      .orgs.listSpacesInOrganizationById('o-acme', { limit: 1000 });
    const ids = data.items.map((space) => space.id);
    expect(ids).toEqual(expect.arrayContaining(['s-handbook', 's-api', 's-secret']));
    expect(data.count).toBe(data.items.length);
    for (const space of data.items) {
      expectSpaceShape(space);
      expect(space.revision.length).toBeGreaterThan(0);
      expect(space.permissions.view).toBe(true);
      expect(space.permissions.comment).toBe(false);
    }
  });

  it('shows a guest only the spaces granted to them', async () => {
    const { data } = await t.client(TOKENS.gus).orgs.listSpacesInOrganizationById('o-acme');
    expect(data.items.map((space) => space.id)).toEqual(['s-handbook']);
    expect(data.count).toBe(1);
    expect(data.items[0]!.permissions.comment).toBe(true);
    expect(data.items[0]!.permissions.edit).toBe(false);
  });

  it('needs a token and membership, and checks limit', async () => {
    await expectError(await t.request('GET', '/v1/orgs/o-acme/spaces', null), 401);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.listSpacesInOrganizationById('o-acme')),
    ).toBe(404);
    const message = await expectError(
      await t.request('GET', '/v1/orgs/o-acme/spaces?limit=1001', TOKENS.ada),
      400,
    );
    expect(message).toMatch(/limit/);
  });

  it('walks pages without duplicates or gaps while spaces are deleted', async () => {
    const w = await startTestServer();
    try {
      const ada = w.client(TOKENS.ada);
      for (let i = 0; i < 25; i++) await ada.orgs.createSpace('o-acme', { title: `Walk ${i}` });
      const all = (await ada.orgs.listSpacesInOrganizationById('o-acme', { limit: 1000 })).data;
      expect(all.count).toBe(28);
      const order = all.items.map((space) => space.id);

      const seen: string[] = [];
      let page: string | undefined;
      let first = true;
      const removed: string[] = [];
      do {
        const { data } = await ada.orgs.listSpacesInOrganizationById('o-acme', {
          limit: 4,
          ...(page ? { page } : {}),
        });
        expect(data.items.length).toBeLessThanOrEqual(4);
        expect(data.count).toBe(28 - removed.length);
        seen.push(...data.items.map((space) => space.id));
        page = data.next?.page;
        if (first) {
          first = false;
          // One already served, two still to come.
          removed.push(order[1]!, order[10]!, order[20]!);
          for (const id of removed) await ada.spaces.deleteSpaceById(id);
        }
      } while (page);

      expect(new Set(seen).size).toBe(seen.length);
      const expected = order.filter((id, index) => index < 4 || !removed.includes(id));
      expect(seen).toEqual(expected);
    } finally {
      await w.close();
    }
  });
});

describe('get space', () => {
  it('returns the space with permissions for the caller', async () => {
    const { data } = await t.client(TOKENS.ada).spaces.getSpaceById('s-handbook');
    expectSpaceShape(data);
    expect(data).toMatchObject({
      id: 's-handbook',
      title: 'Handbook',
      emoji: '📘',
      organization: 'o-acme',
    });
    expect(data.permissions).toMatchObject({ view: true, admin: true, edit: true, merge: true });

    const cara = (await t.client(TOKENS.cara).spaces.getSpaceById('s-handbook')).data.permissions;
    expect(cara).toMatchObject({ view: true, comment: false, edit: false, admin: false });
    const gus = (await t.client(TOKENS.gus).spaces.getSpaceById('s-handbook')).data.permissions;
    expect(gus).toMatchObject({
      view: true,
      comment: true,
      edit: false,
      admin: false,
      review: false,
    });
    // Dora edits through her organization role and the Writers team grant.
    const dora = (await t.client(TOKENS.dora).spaces.getSpaceById('s-handbook')).data.permissions;
    expect(dora).toMatchObject({ edit: true, review: false, admin: false });
  });

  it('resolves the published address of a share-link space only with its share key', async () => {
    const space = await createSpace('Shared');
    // `visibility` is not in the published client's update body: sent raw.
    await t.request('PATCH', `/v1/spaces/${space.id}`, TOKENS.ada, { visibility: 'share-link' });
    const key = (
      t.db.prepare('SELECT share_key FROM spaces WHERE id = ?').get(space.id) as {
        share_key: string;
      }
    ).share_key;
    const withKey = await t.client(TOKENS.ada).spaces.getSpaceById(space.id, { shareKey: key });
    expect(withKey.data.visibility).toBe('share-link');
    expect(withKey.data.urls.published).toContain(`share=${key}`);
    const wrong = await t.client(TOKENS.ada).spaces.getSpaceById(space.id, { shareKey: 'wrong' });
    expect(wrong.data.urls.published).toBeUndefined();
    const none = await t.client(TOKENS.ada).spaces.getSpaceById(space.id);
    expect(none.data.urls.published).toBeUndefined();
  });

  it('answers 401, and 404 for strangers, ungranted guests and unknown ids', async () => {
    await expectError(await t.request('GET', '/v1/spaces/s-handbook', null), 401);
    expect(await clientFailure(t.client(TOKENS.eve).spaces.getSpaceById('s-handbook'))).toBe(404);
    expect(await clientFailure(t.client(TOKENS.gus).spaces.getSpaceById('s-api'))).toBe(404);
    expect(await clientFailure(t.client(TOKENS.ada).spaces.getSpaceById('s-nope'))).toBe(404);
    expect(await clientFailure(t.client(TOKENS.ada).spaces.getSpaceById('s-other'))).toBe(404);
  });
});

describe('update space', () => {
  it('patches title, emoji, editMode and defaultLevel as a space admin', async () => {
    const space = await createSpace('Before');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { data } = await t.client(TOKENS.ada).spaces.updateSpaceById(space.id, {
      title: 'After',
      emoji: '✅',
      editMode: SpaceEditMode.Locked,
      defaultLevel: MemberRole.Comment,
    });
    expect(data).toMatchObject({
      title: 'After',
      emoji: '✅',
      editMode: 'locked',
      defaultLevel: 'comment',
    });
    expect(data.updatedAt > space.updatedAt).toBe(true);
    expect(data.permissions.edit).toBe(false);
    // The default level lifts a guest-free member: Cara (read) may now comment.
    const cara = await t.client(TOKENS.cara).spaces.getSpaceById(space.id);
    expect(cara.data.permissions.comment).toBe(true);
    const cleared = await t.client(TOKENS.ada).spaces.updateSpaceById(space.id, { emoji: null });
    expect(cleared.data.emoji).toBe('');
  });

  it('allows in-collection visibility only for a space in a collection', async () => {
    const root = await createSpace('Root');
    const message = await expectError(
      await t.request('PATCH', `/v1/spaces/${root.id}`, TOKENS.ada, {
        visibility: 'in-collection',
      }),
      400,
    );
    expect(message).toMatch(/visibility/);
    const inside = await createSpace('Inside', 'c-guides');
    const ok = await t.request('PATCH', `/v1/spaces/${inside.id}`, TOKENS.ada, {
      visibility: 'public',
    });
    expect(((await ok.json()) as Space).visibility).toBe('public');
    const back = await t.request('PATCH', `/v1/spaces/${inside.id}`, TOKENS.ada, {
      visibility: 'in-collection',
    });
    expect(((await back.json()) as Space).visibility).toBe('in-collection');
  });

  it('names the field of invalid input', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ title: 'x'.repeat(51) }, /body\.title.*50/],
      [{ emoji: 'e'.repeat(51) }, /body\.emoji/],
      [{ editMode: 'frozen' }, /body\.editMode/],
      [{ defaultLevel: 'owner' }, /body\.defaultLevel/],
      [{ visibility: 'everyone' }, /body\.visibility/],
      [{}, /body/],
    ];
    for (const [body, pattern] of cases) {
      const message = await expectError(
        await t.request('PATCH', '/v1/spaces/s-secret', TOKENS.ada, body),
        400,
      );
      expect(message).toMatch(pattern);
    }
  });

  it('needs a token and the admin role on the space', async () => {
    await expectError(await t.request('PATCH', '/v1/spaces/s-secret', null, { title: 'x' }), 401);
    expect(
      await clientFailure(t.client(TOKENS.eve).spaces.updateSpaceById('s-secret', { title: 'x' })),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.bob).spaces.updateSpaceById('s-secret', { title: 'x' })),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.cara).spaces.updateSpaceById('s-secret', { title: 'x' })),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.gus).spaces.updateSpaceById('s-handbook', { title: 'x' }),
      ),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.gus).spaces.updateSpaceById('s-secret', { title: 'x' })),
    ).toBe(404);
  });
});

describe('duplicate space', () => {
  it('copies content, grants and custom-field values into a new space', async () => {
    t.db
      .prepare(
        `INSERT OR REPLACE INTO space_custom_field_values (space_id, organization_id, field_name, value)
         VALUES ('s-handbook', 'o-acme', 'owner', '"Ada"')`,
      )
      .run();
    const response = await t.client(TOKENS.bob).spaces.duplicateSpace('s-handbook');
    expect(response.status).toBe(201);
    const copy = response.data;
    expectSpaceShape(copy);
    expect(copy.id).not.toBe('s-handbook');
    expect(copy).toMatchObject({ title: 'Handbook (copy)', emoji: '📘', organization: 'o-acme' });
    const source = (await t.client(TOKENS.ada).spaces.getSpaceById('s-handbook')).data;
    expect(copy.revision).not.toBe(source.revision);
    const tree = (id: string) =>
      (t.db.prepare('SELECT tree FROM revisions WHERE id = ?').get(id) as { tree: string }).tree;
    expect(tree(copy.revision)).toBe(tree(source.revision));
    const gus = await t.client(TOKENS.gus).spaces.getSpaceById(copy.id);
    expect(gus.data.permissions.comment).toBe(true);
    const values = t.db
      .prepare('SELECT field_name, value FROM space_custom_field_values WHERE space_id = ?')
      .all(copy.id);
    expect(values).toEqual([{ field_name: 'owner', value: '"Ada"' }]);
  });

  it('keeps the copy in the same collection and cuts long titles to 50', async () => {
    const long = await createSpace('L'.repeat(50), 'c-advanced');
    const { data } = await t.client(TOKENS.ada).spaces.duplicateSpace(long.id);
    expect(data.title).toBe(`${'L'.repeat(43)} (copy)`);
    expect(data.title.length).toBe(50);
    expect(data.parent).toBe('c-advanced');
  });

  it('needs a token, read on the source and create in the organization', async () => {
    await expectError(await t.request('POST', '/v1/spaces/s-handbook/duplicate', null), 401);
    expect(await clientFailure(t.client(TOKENS.eve).spaces.duplicateSpace('s-handbook'))).toBe(404);
    expect(await clientFailure(t.client(TOKENS.ada).spaces.duplicateSpace('s-nope'))).toBe(404);
    expect(await clientFailure(t.client(TOKENS.cara).spaces.duplicateSpace('s-handbook'))).toBe(
      403,
    );
    expect(await clientFailure(t.client(TOKENS.gus).spaces.duplicateSpace('s-handbook'))).toBe(403);
  });
});

describe('delete and restore', () => {
  it('deletes (205), hides the space everywhere and restores it', async () => {
    const space = await createSpace('Doomed', 'c-guides');
    const ada = t.client(TOKENS.ada);
    const deleted = await ada.spaces.deleteSpaceById(space.id);
    expect(deleted.status).toBe(205);
    expect(await clientFailure(ada.spaces.getSpaceById(space.id))).toBe(404);
    const org = await ada.orgs.listSpacesInOrganizationById('o-acme', { limit: 1000 });
    expect(org.data.items.map((s) => s.id)).not.toContain(space.id);
    const inCollection = await ada.collections.listSpacesInCollectionById('c-guides', {
      limit: 1000,
    });
    expect(inCollection.data.items.map((s) => s.id)).not.toContain(space.id);
    expect(await clientFailure(ada.spaces.deleteSpaceById(space.id))).toBe(404);

    const restored = await ada.spaces.restoreSpace(space.id);
    expect(restored.status).toBe(200);
    expectSpaceShape(restored.data);
    expect(restored.data.deletedAt).toBeUndefined();
    expect(restored.data.parent).toBe('c-guides');
    expect((await ada.spaces.getSpaceById(space.id)).data.title).toBe('Doomed');
    const again = await t.request('POST', `/v1/spaces/${space.id}/restore`, TOKENS.ada);
    expect(await expectError(again, 409)).toMatch(/not deleted/);
  });

  it('needs a token and the admin role', async () => {
    const space = await createSpace('Kept');
    await expectError(await t.request('DELETE', `/v1/spaces/${space.id}`, null), 401);
    expect(await clientFailure(t.client(TOKENS.eve).spaces.deleteSpaceById(space.id))).toBe(404);
    expect(await clientFailure(t.client(TOKENS.ada).spaces.deleteSpaceById('s-nope'))).toBe(404);
    expect(await clientFailure(t.client(TOKENS.bob).spaces.deleteSpaceById(space.id))).toBe(403);
    expect(await clientFailure(t.client(TOKENS.cara).spaces.deleteSpaceById(space.id))).toBe(403);
    await t.client(TOKENS.ada).spaces.deleteSpaceById(space.id);
    await expectError(await t.request('POST', `/v1/spaces/${space.id}/restore`, null), 401);
    expect(await clientFailure(t.client(TOKENS.eve).spaces.restoreSpace(space.id))).toBe(404);
    expect(await clientFailure(t.client(TOKENS.cara).spaces.restoreSpace(space.id))).toBe(403);
    expect(await clientFailure(t.client(TOKENS.ada).spaces.restoreSpace('s-nope'))).toBe(404);
  });

  it('restores within 7 days; after that the sweep removes the space for good', async () => {
    const clock = new ManualClock('2026-03-01T00:00:00.000Z');
    const w = await startTestServer({ clock });
    try {
      const ada = w.client(TOKENS.ada);
      await ada.spaces.deleteSpaceById('s-secret');
      clock.advance(6 * DAY_MS);
      expect(w.server.sweep()).toBe(0);
      const restored = await ada.spaces.restoreSpace('s-secret');
      expect(restored.data.id).toBe('s-secret');

      await ada.spaces.deleteSpaceById('s-secret');
      clock.advance(7 * DAY_MS + 1);
      // Expired: not restorable even before the sweep has run.
      expect(await clientFailure(ada.spaces.restoreSpace('s-secret'))).toBe(404);
      expect(w.server.sweep()).toBe(1);
      expect(w.db.prepare("SELECT 1 FROM spaces WHERE id = 's-secret'").get()).toBeUndefined();
      expect(await clientFailure(ada.spaces.restoreSpace('s-secret'))).toBe(404);
      expect((await ada.spaces.getSpaceById('s-handbook')).data.id).toBe('s-handbook');
    } finally {
      await w.close();
    }
  });
});

describe('move space', () => {
  const order = async (collectionId: string) =>
    (
      await t
        .client(TOKENS.ada)
        .collections.listSpacesInCollectionById(collectionId, { limit: 1000 })
    ).data.items.map((space) => space.title);

  it('reorders within a collection with before/after pointers', async () => {
    const { data: collection } = await t
      .client(TOKENS.ada)
      .orgs.createCollection('o-acme', { title: 'Order' });
    const a = await createSpace('A', collection.id);
    const b = await createSpace('B', collection.id);
    const c = await createSpace('C', collection.id);
    expect(await order(collection.id)).toEqual(['A', 'B', 'C']);
    const bob = t.client(TOKENS.bob);

    const moved = await bob.spaces.moveSpace(c.id, {
      position: { before: { type: 'space', space: a.id } },
    });
    expectSpaceShape(moved.data);
    expect(moved.data.parent).toBe(collection.id);
    expect(await order(collection.id)).toEqual(['C', 'A', 'B']);
    await bob.spaces.moveSpace(a.id, { position: { after: { type: 'space', space: b.id } } });
    expect(await order(collection.id)).toEqual(['C', 'B', 'A']);
    await bob.spaces.moveSpace(a.id, {
      position: { after: { type: 'space', space: c.id }, before: { type: 'space', space: b.id } },
    });
    expect(await order(collection.id)).toEqual(['C', 'A', 'B']);
    // Repeated moves into the same gap keep halving it, and stay ordered.
    for (let i = 0; i < 60; i++) {
      const mover = i % 2 === 0 ? b : a;
      const anchor = i % 2 === 0 ? a : b;
      await bob.spaces.moveSpace(mover.id, {
        position: { before: { type: 'space', space: anchor.id } },
      });
    }
    expect(await order(collection.id)).toEqual(['C', 'A', 'B']);
  });

  it('moves between collections and to the root, where in-collection becomes private', async () => {
    const space = await createSpace('Traveller', 'c-guides');
    const ada = t.client(TOKENS.ada);
    const inAdvanced = await ada.spaces.moveSpace(space.id, { parent: 'c-advanced' });
    expect(inAdvanced.data.parent).toBe('c-advanced');
    expect(inAdvanced.data.visibility).toBe('in-collection');
    const positioned = await ada.spaces.moveSpace(space.id, {
      parent: 'c-guides',
      position: { after: { type: 'collection', collection: 'c-advanced' } },
    });
    expect(positioned.data.parent).toBe('c-guides');
    const root = await ada.spaces.moveSpace(space.id, { parent: null });
    expect(root.data.parent).toBeUndefined();
    expect(root.data.visibility).toBe('private');
  });

  it('rejects bad parents and pointers with 400', async () => {
    const space = await createSpace('Stay', 'c-guides');
    const cases: [unknown, RegExp][] = [
      [{ parent: 'c-nope' }, /body\.parent/],
      [{ parent: 'c-other' }, /body\.parent/],
      [{ position: { before: { type: 'space', space: 's-nope' } } }, /position\.before/],
      [{ position: { after: { type: 'space', space: 's-handbook' } } }, /position\.after/],
      [{ position: { after: { type: 'collection', collection: 'c-guides' } } }, /position\.after/],
      [{ position: { before: { type: 'space', space: space.id } } }, /position\.before/],
      [{ position: { before: { type: 'page', page: 'x' } } }, /position/],
      [
        {
          position: {
            after: { type: 'space', space: 's-api' },
            before: { type: 'space', space: 's-api' },
          },
        },
        /adjacent|itself|position/,
      ],
      [{}, /body/],
    ];
    for (const [body, pattern] of cases) {
      const message = await expectError(
        await t.request('POST', `/v1/spaces/${space.id}/move`, TOKENS.ada, body),
        400,
      );
      expect(message).toMatch(pattern);
    }
  });

  it('needs a token, and create in the organization', async () => {
    await expectError(
      await t.request('POST', '/v1/spaces/s-api/move', null, { parent: null }),
      401,
    );
    expect(
      await clientFailure(t.client(TOKENS.eve).spaces.moveSpace('s-api', { parent: null })),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.ada).spaces.moveSpace('s-nope', { parent: null })),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.cara).spaces.moveSpace('s-api', { parent: null })),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.gus).spaces.moveSpace('s-handbook', { parent: null })),
    ).toBe(403);
  });
});

describe('transfer space', () => {
  let x: TestServer;
  beforeAll(async () => {
    const fixture = testFixture();
    // Max administers Acme but only reads in Partner; Ada administers both.
    fixture.users.push({
      id: 'u-max',
      displayName: 'Max',
      email: 'max@acme.test',
      tokens: ['tok-max'],
    });
    fixture.organizations[0]!.members!.push({ user: 'u-max', role: 'admin' });
    fixture.organizations.push({
      id: 'o-partner',
      title: 'Partner',
      members: [
        { user: 'u-ada', role: 'admin' },
        { user: 'u-max', role: 'read' },
      ],
      collections: [{ id: 'c-partner', title: 'Partner docs' }],
    });
    x = await startTestServer({ fixture });
  });
  afterAll(async () => {
    await x.close();
  });

  it('moves a space to another organization, dropping grants and custom-field values', async () => {
    x.db
      .prepare(
        `INSERT INTO space_custom_field_values (space_id, organization_id, field_name, value)
         VALUES ('s-handbook', 'o-acme', 'owner', '"Ada"')`,
      )
      .run();
    const response = await x.request('POST', '/v1/spaces/s-handbook/transfer', TOKENS.ada, {
      organization: 'o-partner',
      collection: 'c-partner',
    });
    expect(response.status).toBe(200);
    const space = (await response.json()) as Space;
    expect(space).toMatchObject({
      object: 'space',
      id: 's-handbook',
      organization: 'o-partner',
      parent: 'c-partner',
    });
    expect(space.permissions.admin).toBe(true);
    expect(
      x.db.prepare("SELECT count(*) AS n FROM space_grants WHERE space_id = 's-handbook'").get(),
    ).toEqual({ n: 0 });
    expect(
      x.db
        .prepare(
          "SELECT count(*) AS n FROM space_custom_field_values WHERE space_id = 's-handbook'",
        )
        .get(),
    ).toEqual({ n: 0 });
    expect(await clientFailure(x.client(TOKENS.gus).spaces.getSpaceById('s-handbook'))).toBe(404);
    const acme = await x.client(TOKENS.ada).orgs.listSpacesInOrganizationById('o-acme');
    expect(acme.data.items.map((s) => s.id)).not.toContain('s-handbook');
    const partner = await x.client(TOKENS.ada).orgs.listSpacesInOrganizationById('o-partner');
    expect(partner.data.items.map((s) => s.id)).toEqual(['s-handbook']);
  });

  it('moves to the target root without a collection (in-collection becomes private)', async () => {
    const response = await x.request('POST', '/v1/spaces/s-api/transfer', TOKENS.ada, {
      organization: 'o-partner',
    });
    const space = (await response.json()) as Space;
    expect(response.status).toBe(200);
    expect(space.parent).toBeUndefined();
    expect(space.visibility).toBe('private');
  });

  it('checks the body and both organizations', async () => {
    const missing = await expectError(
      await x.request('POST', '/v1/spaces/s-secret/transfer', TOKENS.ada, {}),
      400,
    );
    expect(missing).toMatch(/organization/);
    const long = await expectError(
      await x.request('POST', '/v1/spaces/s-secret/transfer', TOKENS.ada, {
        organization: 'o'.repeat(101),
      }),
      400,
    );
    expect(long).toMatch(/body\.organization/);
    const foreign = await expectError(
      await x.request('POST', '/v1/spaces/s-secret/transfer', TOKENS.ada, {
        organization: 'o-partner',
        collection: 'c-guides',
      }),
      400,
    );
    expect(foreign).toMatch(/body\.collection/);
    await expectError(
      await x.request('POST', '/v1/spaces/s-secret/transfer', null, { organization: 'o-partner' }),
      401,
    );
    // Eve cannot see the space; Ada does not belong to Other Corp.
    await expectError(
      await x.request('POST', '/v1/spaces/s-secret/transfer', TOKENS.eve, {
        organization: 'o-other',
      }),
      404,
    );
    await expectError(
      await x.request('POST', '/v1/spaces/s-secret/transfer', TOKENS.ada, {
        organization: 'o-other',
      }),
      404,
    );
    // Bob creates in Acme but is no admin; Max is admin in Acme but only reads in Partner.
    await expectError(
      await x.request('POST', '/v1/spaces/s-secret/transfer', TOKENS.bob, {
        organization: 'o-partner',
      }),
      403,
    );
    await expectError(
      await x.request('POST', '/v1/spaces/s-secret/transfer', TOKENS.cara, {
        organization: 'o-acme',
      }),
      403,
    );
    await expectError(
      await x.request('POST', '/v1/spaces/s-secret/transfer', 'tok-max', {
        organization: 'o-partner',
      }),
      403,
    );
  });
});
