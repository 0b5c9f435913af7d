import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemberRole, type Collection } from '@gitbook/api';
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

async function createCollection(title: string, parent?: string): Promise<Collection> {
  const { data } = await t
    .client(TOKENS.ada)
    .orgs.createCollection('o-acme', { title, ...(parent ? { parent } : {}) });
  return data;
}

function expectCollectionShape(collection: Collection, base = t.url): void {
  expect(collection.object).toBe('collection');
  expect(typeof collection.id).toBe('string');
  expect(typeof collection.title).toBe('string');
  expect(typeof collection.organization).toBe('string');
  expect(collection.defaultLevel === null || typeof collection.defaultLevel === 'string').toBe(
    true,
  );
  expect(collection.urls.location).toBe(`${base}/v1/collections/${collection.id}`);
  expect(collection.urls.app.startsWith(base)).toBe(true);
  expect(Object.keys(collection.permissions).sort()).toEqual([
    'admin',
    'create',
    'view',
    'viewInviteLinks',
  ]);
}

describe('get collection', () => {
  it('returns the collection with permissions for the caller', async () => {
    const { data } = await t.client(TOKENS.ada).collections.getCollectionById('c-guides');
    expectCollectionShape(data);
    expect(data).toMatchObject({
      id: 'c-guides',
      title: 'Guides',
      description: 'How-to guides',
      organization: 'o-acme',
      defaultLevel: null,
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    expect(data.parent).toBeUndefined();
    const nested = await t.client(TOKENS.bob).collections.getCollectionById('c-advanced');
    expect(nested.data.parent).toBe('c-guides');
    expect(nested.data.description).toBeUndefined();
    expect(nested.data.permissions).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: true,
    });
    const cara = await t.client(TOKENS.cara).collections.getCollectionById('c-guides');
    expect(cara.data.permissions).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: false,
    });
  });

  it('answers 401, 404 outside the organization and 403 for guests', async () => {
    await expectError(await t.request('GET', '/v1/collections/c-guides', null), 401);
    expect(
      await clientFailure(t.client(TOKENS.eve).collections.getCollectionById('c-guides')),
    ).toBe(404);
    expect(await clientFailure(t.client(TOKENS.ada).collections.getCollectionById('c-other'))).toBe(
      404,
    );
    expect(await clientFailure(t.client(TOKENS.ada).collections.getCollectionById('c-nope'))).toBe(
      404,
    );
    expect(
      await clientFailure(t.client(TOKENS.gus).collections.getCollectionById('c-guides')),
    ).toBe(403);
  });
});

describe('create collection', () => {
  it('creates a collection (201 + Location), at the root or in a parent', async () => {
    const response = await t
      .client(TOKENS.bob)
      .orgs.createCollection('o-acme', { title: 'Runbooks' });
    expect(response.status).toBe(201);
    expectCollectionShape(response.data);
    expect(response.headers.get('location')).toBe(`${t.url}/v1/collections/${response.data.id}`);
    expect(response.data).toMatchObject({
      title: 'Runbooks',
      organization: 'o-acme',
      defaultLevel: null,
    });
    const child = await t
      .client(TOKENS.bob)
      .orgs.createCollection('o-acme', { title: 'Child', parent: response.data.id });
    expect(child.data.parent).toBe(response.data.id);
    const untitled = await t.client(TOKENS.ada).orgs.createCollection('o-acme', {});
    expect(untitled.data.title).toBe('Untitled collection');
  });

  it('checks the title limit and the parent', async () => {
    const ok = await t.request('POST', '/v1/orgs/o-acme/collections', TOKENS.ada, {
      title: 'x'.repeat(50),
    });
    expect(ok.status).toBe(201);
    const title = await expectError(
      await t.request('POST', '/v1/orgs/o-acme/collections', TOKENS.ada, { title: 'x'.repeat(51) }),
      400,
    );
    expect(title).toMatch(/body\.title.*50/);
    for (const parent of ['c-nope', 'c-other']) {
      const message = await expectError(
        await t.request('POST', '/v1/orgs/o-acme/collections', TOKENS.ada, { parent }),
        400,
      );
      expect(message).toMatch(/body\.parent/);
    }
  });

  it('needs a token, membership and the create role', async () => {
    await expectError(await t.request('POST', '/v1/orgs/o-acme/collections', null, {}), 401);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.createCollection('o-acme', { title: 'x' })),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.cleo).orgs.createCollection('o-acme', { title: 'x' })),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.cara).orgs.createCollection('o-acme', { title: 'x' })),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.gus).orgs.createCollection('o-acme', { title: 'x' })),
    ).toBe(403);
  });
});

describe('update collection', () => {
  it('patches title, description and defaultLevel as an admin', async () => {
    const collection = await createCollection('Old');
    const { data } = await t.client(TOKENS.ada).collections.updateCollectionById(collection.id, {
      title: 'New',
      description: 'Fresh',
      defaultLevel: MemberRole.Create,
    });
    expectCollectionShape(data);
    expect(data).toMatchObject({ title: 'New', description: 'Fresh', defaultLevel: 'create' });
    // Permissions follow the organization role: Cara (read) still may not create in it.
    const cara = await t.client(TOKENS.cara).collections.getCollectionById(collection.id);
    expect(cara.data.permissions).toMatchObject({ view: true, create: false, admin: false });
    const cleared = await t.client(TOKENS.ada).collections.updateCollectionById(collection.id, {
      description: '',
      defaultLevel: null,
    });
    expect(cleared.data.description).toBeUndefined();
    expect(cleared.data.defaultLevel).toBeNull();
  });

  it('names the field of invalid input', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ title: 'x'.repeat(51) }, /body\.title.*50/],
      [{ description: 'd'.repeat(101) }, /body\.description.*100/],
      [{ defaultLevel: 'owner' }, /body\.defaultLevel/],
    ];
    for (const [body, pattern] of cases) {
      const message = await expectError(
        await t.request('PATCH', '/v1/collections/c-advanced', TOKENS.ada, body),
        400,
      );
      expect(message).toMatch(pattern);
    }
    const ok = await t.request('PATCH', '/v1/collections/c-advanced', TOKENS.ada, {
      description: 'd'.repeat(100),
    });
    expect(ok.status).toBe(200);
  });

  it('needs a token and the admin role', async () => {
    await expectError(
      await t.request('PATCH', '/v1/collections/c-guides', null, { title: 'x' }),
      401,
    );
    expect(
      await clientFailure(
        t.client(TOKENS.eve).collections.updateCollectionById('c-guides', { title: 'x' }),
      ),
    ).toBe(404);
    expect(
      await clientFailure(
        t.client(TOKENS.bob).collections.updateCollectionById('c-guides', { title: 'x' }),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.cara).collections.updateCollectionById('c-guides', { title: 'x' }),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.gus).collections.updateCollectionById('c-guides', { title: 'x' }),
      ),
    ).toBe(403);
  });
});

describe('list collections of an organization', () => {
  it('lists nested collections by default and only top-level ones with nested=false', async () => {
    const ada = t.client(TOKENS.ada);
    const all = await ada.orgs.listCollectionsInOrganizationById('o-acme', { limit: 1000 });
    const ids = all.data.items.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['c-guides', 'c-advanced']));
    expect(all.data.count).toBe(all.data.items.length);
    for (const collection of all.data.items) expectCollectionShape(collection);
    const top = await ada.orgs.listCollectionsInOrganizationById('o-acme', {
      nested: false,
      limit: 1000,
    });
    expect(top.data.items.map((c) => c.id)).toContain('c-guides');
    expect(top.data.items.map((c) => c.id)).not.toContain('c-advanced');
    expect(top.data.items.every((c) => c.parent === undefined)).toBe(true);
    const bad = await expectError(
      await t.request('GET', '/v1/orgs/o-acme/collections?nested=maybe', TOKENS.ada),
      400,
    );
    expect(bad).toMatch(/nested/);
  });

  it('needs a token, membership and a role', async () => {
    await expectError(await t.request('GET', '/v1/orgs/o-acme/collections', null), 401);
    expect(
      await clientFailure(t.client(TOKENS.eve).orgs.listCollectionsInOrganizationById('o-acme')),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.gus).orgs.listCollectionsInOrganizationById('o-acme')),
    ).toBe(403);
    const limit = await expectError(
      await t.request('GET', '/v1/orgs/o-acme/collections?limit=1001', TOKENS.ada),
      400,
    );
    expect(limit).toMatch(/limit/);
  });

  it('walks pages without duplicates or gaps while collections are deleted', async () => {
    const w = await startTestServer();
    try {
      const ada = w.client(TOKENS.ada);
      for (let i = 0; i < 25; i++)
        await ada.orgs.createCollection('o-acme', { title: `Walk ${i}` });
      const all = (await ada.orgs.listCollectionsInOrganizationById('o-acme', { limit: 1000 }))
        .data;
      expect(all.count).toBe(27);
      const order = all.items.map((c) => c.id);
      const removed = [order[2]!, order[9]!, order[22]!];
      const seen: string[] = [];
      let page: string | undefined;
      let first = true;
      do {
        const { data } = await ada.orgs.listCollectionsInOrganizationById('o-acme', {
          limit: 4,
          ...(page ? { page } : {}),
        });
        expect(data.count).toBe(first ? 27 : 24);
        seen.push(...data.items.map((c) => c.id));
        page = data.next?.page;
        if (first) {
          first = false;
          for (const id of removed) await ada.collections.deleteCollectionById(id);
        }
      } while (page);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(order.filter((id, index) => index < 4 || !removed.includes(id)));
    } finally {
      await w.close();
    }
  });
});

describe('spaces of a collection', () => {
  it('lists the non-deleted spaces of the collection, paginated', async () => {
    const ada = t.client(TOKENS.ada);
    const collection = await createCollection('Shelf');
    const titles = Array.from({ length: 9 }, (_, i) => `Book ${i}`);
    const ids: string[] = [];
    for (const title of titles) {
      ids.push((await ada.orgs.createSpace('o-acme', { title, parent: collection.id })).data.id);
    }
    const seen: string[] = [];
    let page: string | undefined;
    let first = true;
    do {
      const { data } = await t
        .client(TOKENS.cara)
        .collections.listSpacesInCollectionById(collection.id, {
          limit: 4,
          ...(page ? { page } : {}),
        });
      expect(data.count).toBe(first ? 9 : 7);
      for (const space of data.items) {
        expect(space.object).toBe('space');
        expect(space.parent).toBe(collection.id);
        expect(space.permissions.view).toBe(true);
      }
      seen.push(...data.items.map((space) => space.id));
      page = data.next?.page;
      if (first) {
        first = false;
        await ada.spaces.deleteSpaceById(ids[0]!);
        await ada.spaces.deleteSpaceById(ids[6]!);
      }
    } while (page);
    expect(seen).toEqual(ids.filter((id, index) => index < 4 || index !== 6));
  });

  it('needs a token, membership and a role', async () => {
    await expectError(await t.request('GET', '/v1/collections/c-guides/spaces', null), 401);
    expect(
      await clientFailure(t.client(TOKENS.eve).collections.listSpacesInCollectionById('c-guides')),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.ada).collections.listSpacesInCollectionById('c-nope')),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.gus).collections.listSpacesInCollectionById('c-guides')),
    ).toBe(403);
    const limit = await expectError(
      await t.request('GET', '/v1/collections/c-guides/spaces?limit=1001', TOKENS.ada),
      400,
    );
    expect(limit).toMatch(/limit/);
  });
});

describe('move collection', () => {
  it('moves under another parent and back to the root', async () => {
    const ada = t.client(TOKENS.ada);
    const box = await createCollection('Box');
    const moved = await t
      .client(TOKENS.bob)
      .collections.moveCollection(box.id, { parent: 'c-advanced' });
    expect(moved.status).toBe(200);
    expectCollectionShape(moved.data);
    expect(moved.data.parent).toBe('c-advanced');
    const back = await ada.collections.moveCollection(box.id, {
      parent: null,
      position: { before: { type: 'collection', collection: 'c-guides' } },
    });
    expect(back.data.parent).toBeUndefined();
    const beside = await ada.collections.moveCollection(box.id, {
      position: { after: { type: 'space', space: 's-handbook' } },
    });
    expect(beside.data.parent).toBeUndefined();
  });

  it('refuses cycles, foreign parents and bad pointers with 400', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['c-guides', { parent: 'c-advanced' }, /body\.parent/],
      ['c-guides', { parent: 'c-guides' }, /body\.parent/],
      ['c-advanced', { parent: 'c-other' }, /body\.parent/],
      ['c-advanced', { parent: 'c-nope' }, /body\.parent/],
      [
        'c-advanced',
        { position: { after: { type: 'space', space: 's-handbook' } } },
        /position\.after/,
      ],
      [
        'c-advanced',
        { position: { before: { type: 'collection', collection: 'c-advanced' } } },
        /position\.before/,
      ],
      ['c-advanced', { parent: 5 }, /body\.parent/],
      ['c-advanced', {}, /body/],
    ];
    for (const [id, body, pattern] of cases) {
      const message = await expectError(
        await t.request('POST', `/v1/collections/${id}/move`, TOKENS.ada, body),
        400,
      );
      expect(message).toMatch(pattern);
    }
  });

  it('needs a token, membership and the create role', async () => {
    await expectError(
      await t.request('POST', '/v1/collections/c-advanced/move', null, { parent: null }),
      401,
    );
    expect(
      await clientFailure(
        t.client(TOKENS.eve).collections.moveCollection('c-advanced', { parent: null }),
      ),
    ).toBe(404);
    expect(
      await clientFailure(
        t.client(TOKENS.cara).collections.moveCollection('c-advanced', { parent: null }),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        t.client(TOKENS.gus).collections.moveCollection('c-advanced', { parent: null }),
      ),
    ).toBe(403);
  });
});

describe('delete collection', () => {
  it('deletes (205) and moves its spaces and sub-collections up to its parent', async () => {
    const ada = t.client(TOKENS.ada);
    const outer = await createCollection('Outer');
    const inner = await createCollection('Inner', outer.id);
    const innermost = await createCollection('Innermost', inner.id);
    const kept = (await ada.orgs.createSpace('o-acme', { title: 'Kept', parent: inner.id })).data;
    const trashed = (await ada.orgs.createSpace('o-acme', { title: 'Trashed', parent: inner.id }))
      .data;
    await ada.spaces.deleteSpaceById(trashed.id);

    const response = await ada.collections.deleteCollectionById(inner.id);
    expect(response.status).toBe(205);
    expect(await clientFailure(ada.collections.getCollectionById(inner.id))).toBe(404);
    expect((await ada.collections.getCollectionById(innermost.id)).data.parent).toBe(outer.id);
    expect((await ada.spaces.getSpaceById(kept.id)).data.parent).toBe(outer.id);
    expect((await ada.spaces.restoreSpace(trashed.id)).data.parent).toBe(outer.id);

    // At the root, a space shown in-collection becomes private.
    await ada.collections.deleteCollectionById(outer.id);
    await ada.collections.deleteCollectionById(innermost.id);
    const orphan = (await ada.spaces.getSpaceById(kept.id)).data;
    expect(orphan.parent).toBeUndefined();
    expect(orphan.visibility).toBe('private');
  });

  it('needs a token and the admin role', async () => {
    await expectError(await t.request('DELETE', '/v1/collections/c-guides', null), 401);
    expect(
      await clientFailure(t.client(TOKENS.eve).collections.deleteCollectionById('c-guides')),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.ada).collections.deleteCollectionById('c-nope')),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.bob).collections.deleteCollectionById('c-guides')),
    ).toBe(403);
    expect(
      await clientFailure(t.client(TOKENS.gus).collections.deleteCollectionById('c-guides')),
    ).toBe(403);
  });
});

describe('transfer collection', () => {
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
    });
    x = await startTestServer({ fixture });
  });
  afterAll(async () => {
    await x.close();
  });

  it('moves the collection, its nested collections and their spaces', async () => {
    const { data } = await x.client(TOKENS.ada).collections.transferCollection('c-guides', {
      organization: 'o-partner',
    });
    expectCollectionShape(data, x.url);
    expect(data).toMatchObject({ id: 'c-guides', organization: 'o-partner' });
    expect(data.parent).toBeUndefined();
    const ada = x.client(TOKENS.ada);
    expect((await ada.collections.getCollectionById('c-advanced')).data.organization).toBe(
      'o-partner',
    );
    const api = (await ada.spaces.getSpaceById('s-api')).data;
    expect(api).toMatchObject({ organization: 'o-partner', parent: 'c-guides' });
    const acme = await ada.orgs.listCollectionsInOrganizationById('o-acme');
    expect(acme.data.items).toEqual([]);
    const partner = await ada.orgs.listSpacesInOrganizationById('o-partner');
    expect(partner.data.items.map((s) => s.id)).toEqual(['s-api']);
    // Acme members lose sight of it.
    expect(
      await clientFailure(x.client(TOKENS.cara).collections.getCollectionById('c-guides')),
    ).toBe(404);
    expect(await clientFailure(x.client(TOKENS.cara).spaces.getSpaceById('s-api'))).toBe(404);
    // Back again, so it is not a no-op; the same organization answers 409.
    await ada.collections.transferCollection('c-guides', { organization: 'o-acme' });
    expect(
      await clientFailure(
        ada.collections.transferCollection('c-guides', { organization: 'o-acme' }),
      ),
    ).toBe(409);
  });

  it('checks the body and both organizations', async () => {
    const missing = await expectError(
      await x.request('POST', '/v1/collections/c-guides/transfer', TOKENS.ada, {}),
      400,
    );
    expect(missing).toMatch(/organization/);
    await expectError(
      await x.request('POST', '/v1/collections/c-guides/transfer', null, {
        organization: 'o-partner',
      }),
      401,
    );
    const client = (token: string) => x.client(token).collections;
    expect(
      await clientFailure(
        client(TOKENS.eve).transferCollection('c-guides', { organization: 'o-other' }),
      ),
    ).toBe(404);
    expect(
      await clientFailure(
        client(TOKENS.ada).transferCollection('c-guides', { organization: 'o-other' }),
      ),
    ).toBe(404);
    expect(
      await clientFailure(
        client(TOKENS.ada).transferCollection('c-nope', { organization: 'o-partner' }),
      ),
    ).toBe(404);
    expect(
      await clientFailure(
        client(TOKENS.bob).transferCollection('c-guides', { organization: 'o-partner' }),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        client('tok-max').transferCollection('c-guides', { organization: 'o-partner' }),
      ),
    ).toBe(403);
  });
});
