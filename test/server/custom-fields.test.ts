import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

// Custom fields were removed from @gitbook/api before 0.202.0, so every call here is raw.

interface CustomField {
  id: string;
  name: string;
  title?: string;
  description?: string;
  type: string;
  placeholder?: string;
  options?: string[];
  createdAt: string;
  updatedAt: string;
  urls: { location: string };
  permissions: { view: boolean; edit: boolean };
  object?: unknown;
}
interface FieldList {
  items: CustomField[];
  next?: { page: string };
  count: number;
}
type SpaceValues = { customField: CustomField; value?: unknown }[];

const ORG = '/v1/orgs/o-acme/custom-fields';
const HANDBOOK = '/v1/spaces/s-handbook/custom-fields';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  // Fields of every type for the space value tests (o-acme already has owner:text, tier:select:single).
  for (const body of [
    { name: 'priority', type: 'number' },
    { name: 'public', type: 'boolean' },
    { name: 'labels', type: 'tags' },
    { name: 'areas', type: 'select:multi', options: ['api', 'ui', 'docs'] },
  ]) {
    expect((await t.request('POST', ORG, TOKENS.ada, body)).status).toBe(201);
  }
});
afterAll(async () => {
  await t.close();
});

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function spaceValues(token: string, path = HANDBOOK): Promise<Record<string, unknown>> {
  const entries = await json<SpaceValues>(await t.request('GET', path, token), 200);
  return Object.fromEntries(entries.map((entry) => [entry.customField.name, entry.value]));
}

describe('organization custom fields: read', () => {
  it('lists the organization’s fields with their shape and the caller’s permissions', async () => {
    const list = await json<FieldList>(await t.request('GET', ORG, TOKENS.ada), 200);
    expect(list.count).toBe(list.items.length);
    expect(list.items.slice(0, 2).map((field) => field.name)).toEqual(['owner', 'tier']);
    const tier = list.items[1]!;
    expect(tier).toEqual({
      id: 'tier',
      name: 'tier',
      title: 'Tier',
      type: 'select:single',
      options: ['gold', 'silver'],
      createdAt: expect.any(String) as string,
      updatedAt: expect.any(String) as string,
      urls: { location: `${t.url}/v1/orgs/o-acme/custom-fields/tier` },
      permissions: { view: true, edit: true },
    });
    expect(tier).not.toHaveProperty('object');

    const asReader = await json<FieldList>(await t.request('GET', ORG, TOKENS.cara), 200);
    expect(asReader.items[0]!.permissions).toEqual({ view: true, edit: false });
  });

  it('gets one field', async () => {
    const owner = await json<CustomField>(await t.request('GET', `${ORG}/owner`, TOKENS.cara), 200);
    expect(owner).toMatchObject({ id: 'owner', name: 'owner', type: 'text', title: 'Owner' });
    expect(owner).not.toHaveProperty('options');
    await expectError(await t.request('GET', `${ORG}/nope`, TOKENS.ada), 404);
  });

  it('requires a token, hides other organizations, and refuses guests', async () => {
    await expectError(await t.request('GET', ORG, null), 401);
    await expectError(await t.request('GET', `${ORG}/owner`, null), 401);
    await expectError(await t.request('GET', ORG, TOKENS.eve), 404);
    await expectError(await t.request('GET', `${ORG}/owner`, TOKENS.eve), 404);
    // Eve's own organization works for her, but not for Acme's admin.
    const other = await json<FieldList>(
      await t.request('GET', '/v1/orgs/o-other/custom-fields', TOKENS.eve),
      200,
    );
    expect(other.items.map((field) => field.name)).toEqual(['region']);
    await expectError(await t.request('GET', '/v1/orgs/o-other/custom-fields', TOKENS.ada), 404);
    await expectError(
      await t.request('GET', '/v1/orgs/o-other/custom-fields/region', TOKENS.ada),
      404,
    );
    // Another organization's field name is not reachable through Acme either.
    await expectError(await t.request('GET', `${ORG}/region`, TOKENS.ada), 404);
    await expectError(await t.request('GET', ORG, TOKENS.gus), 403);
    await expectError(await t.request('GET', `${ORG}/owner`, TOKENS.gus), 403);
  });

  it('walks every page with no duplicate or gap, count being the total', async () => {
    for (let i = 0; i < 7; i++) {
      expect(
        (await t.request('POST', ORG, TOKENS.ada, { name: `walk-${i}`, type: 'text' })).status,
      ).toBe(201);
    }
    const all = await json<FieldList>(await t.request('GET', `${ORG}?limit=1000`, TOKENS.ada), 200);
    expect(all.next).toBeUndefined();
    expect(all.count).toBeGreaterThanOrEqual(13);

    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const query = `?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`;
      const list = await json<FieldList>(
        await t.request('GET', `${ORG}${query}`, TOKENS.cara),
        200,
      );
      expect(list.count).toBe(all.count);
      expect(list.items.length).toBeLessThanOrEqual(2);
      seen.push(...list.items.map((field) => field.name));
      page = list.next?.page;
      pages++;
    } while (page);
    expect(pages).toBe(Math.ceil(all.count / 2));
    expect(seen).toEqual(all.items.map((field) => field.name));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('rejects bad paging input', async () => {
    expect(await expectError(await t.request('GET', `${ORG}?limit=1001`, TOKENS.ada), 400)).toMatch(
      /limit/,
    );
    expect(
      await expectError(await t.request('GET', `${ORG}?page=garbage`, TOKENS.ada), 400),
    ).toMatch(/page/);
  });
});

describe('organization custom fields: create', () => {
  it('creates a field with every attribute (201)', async () => {
    const created = await json<CustomField>(
      await t.request('POST', ORG, TOKENS.ada, {
        name: 'audience_2-x',
        type: 'select:multi',
        title: 'Audience',
        description: 'Who reads this',
        placeholder: 'Pick some',
        options: ['devs', 'ops'],
      }),
      201,
    );
    expect(created).toMatchObject({
      id: 'audience_2-x',
      name: 'audience_2-x',
      type: 'select:multi',
      title: 'Audience',
      description: 'Who reads this',
      placeholder: 'Pick some',
      options: ['devs', 'ops'],
      urls: { location: `${t.url}/v1/orgs/o-acme/custom-fields/audience_2-x` },
      permissions: { view: true, edit: true },
    });
    expect(created.createdAt).toBe(created.updatedAt);
    expect(created).not.toHaveProperty('object');
    const fetched = await json<CustomField>(
      await t.request('GET', `${ORG}/audience_2-x`, TOKENS.ada),
      200,
    );
    expect(fetched).toEqual(created);
  });

  it('accepts every limit exactly and rejects each one exceeded by one, naming the field', async () => {
    const atLimit = {
      name: 'n'.repeat(50),
      type: 'select:single',
      title: 't'.repeat(100),
      description: 'd'.repeat(200),
      placeholder: 'p'.repeat(100),
      options: Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(256, 'o')),
    };
    expect((await t.request('POST', ORG, TOKENS.ada, atLimit)).status).toBe(201);

    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'n'.repeat(51) }, /body\.name.*50/],
      [{ name: '' }, /body\.name/],
      [{ name: 'Bad Name' }, /body\.name.*pattern/],
      [{ title: 't'.repeat(101) }, /body\.title.*100/],
      [{ description: 'd'.repeat(201) }, /body\.description.*200/],
      [{ placeholder: 'p'.repeat(101) }, /body\.placeholder.*100/],
      [{ options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, /body\.options.*50/],
      [{ options: [] }, /body\.options.*1/],
      [{ options: ['x'.repeat(257)] }, /body\.options\.0.*256/],
      [{ options: ['a', 'a'] }, /body\.options.*duplicate/],
      [{ type: 'date' }, /body\.type.*text, number, boolean, tags, select:multi, select:single/],
    ];
    for (const [change, message] of cases) {
      const body = { ...atLimit, name: 'fresh', ...change };
      expect(await expectError(await t.request('POST', ORG, TOKENS.ada, body), 400)).toMatch(
        message,
      );
    }
    const { name: _name, ...withoutName } = atLimit;
    expect(await expectError(await t.request('POST', ORG, TOKENS.ada, withoutName), 400)).toMatch(
      /name/,
    );
    expect(
      await expectError(await t.request('POST', ORG, TOKENS.ada, { name: 'no-type' }), 400),
    ).toMatch(/type/);
  });

  it('requires options for select types and refuses them on other types', async () => {
    for (const type of ['select:single', 'select:multi']) {
      const message = await expectError(
        await t.request('POST', ORG, TOKENS.ada, { name: 'sel', type }),
        400,
      );
      expect(message).toMatch(/body\.options is required/);
    }
    for (const type of ['text', 'number', 'boolean', 'tags']) {
      const message = await expectError(
        await t.request('POST', ORG, TOKENS.ada, { name: 'plain', type, options: ['a'] }),
        400,
      );
      expect(message).toMatch(/body\.options is only allowed/);
    }
  });

  it('answers 409 for a name already used in the organization, but not in another one', async () => {
    const message = await expectError(
      await t.request('POST', ORG, TOKENS.ada, { name: 'owner', type: 'number' }),
      409,
    );
    expect(message).toMatch(/owner/);
    // o-other has `region`; Acme may use the same name.
    expect(
      (await t.request('POST', ORG, TOKENS.ada, { name: 'region', type: 'text' })).status,
    ).toBe(201);
  });

  it('needs the admin role, a token, and membership', async () => {
    const body = { name: 'denied', type: 'text' };
    await expectError(await t.request('POST', ORG, TOKENS.bob, body), 403);
    await expectError(await t.request('POST', ORG, TOKENS.cara, body), 403);
    await expectError(await t.request('POST', ORG, null, body), 401);
    await expectError(await t.request('POST', ORG, TOKENS.eve, body), 404);
    await expectError(
      await t.request('POST', '/v1/orgs/o-other/custom-fields', TOKENS.ada, body),
      404,
    );
    await expectError(await t.request('GET', `${ORG}/denied`, TOKENS.ada), 404);
  });
});

describe('organization custom fields: update', () => {
  it('patches the text attributes and clears them with null', async () => {
    const before = await json<CustomField>(await t.request('GET', `${ORG}/owner`, TOKENS.ada), 200);
    const patched = await json<CustomField>(
      await t.request('PATCH', `${ORG}/owner`, TOKENS.ada, {
        title: 'Page owner',
        description: 'Who keeps it current',
        placeholder: 'someone@acme.test',
      }),
      200,
    );
    expect(patched).toMatchObject({
      name: 'owner',
      type: 'text',
      title: 'Page owner',
      description: 'Who keeps it current',
      placeholder: 'someone@acme.test',
      createdAt: before.createdAt,
    });
    expect(patched.updatedAt >= before.updatedAt).toBe(true);

    const cleared = await json<CustomField>(
      await t.request('PATCH', `${ORG}/owner`, TOKENS.ada, { description: null, placeholder: '' }),
      200,
    );
    expect(cleared.title).toBe('Page owner');
    expect(cleared).not.toHaveProperty('description');
    expect(cleared).not.toHaveProperty('placeholder');
  });

  it('replaces options of a select field and drops stored choices no longer offered', async () => {
    expect(
      (
        await t.request('PATCH', HANDBOOK, TOKENS.ada, {
          values: { tier: { value: 'silver' }, areas: { value: ['api', 'ui'] } },
        })
      ).status,
    ).toBe(204);
    const tier = await json<CustomField>(
      await t.request('PATCH', `${ORG}/tier`, TOKENS.ada, { options: ['gold', 'platinum'] }),
      200,
    );
    expect(tier.options).toEqual(['gold', 'platinum']);
    await json(
      await t.request('PATCH', `${ORG}/areas`, TOKENS.ada, { options: ['api', 'docs'] }),
      200,
    );
    const values = await spaceValues(TOKENS.ada);
    expect(values['tier']).toBeUndefined();
    expect(values['areas']).toEqual(['api']);
  });

  it('rejects options on a non-select field and every limit exceeded by one', async () => {
    expect(
      await expectError(
        await t.request('PATCH', `${ORG}/owner`, TOKENS.ada, { options: ['a'] }),
        400,
      ),
    ).toMatch(/body\.options is only allowed/);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ title: 't'.repeat(101) }, /body\.title/],
      [{ description: 'd'.repeat(201) }, /body\.description/],
      [{ placeholder: 'p'.repeat(101) }, /body\.placeholder/],
      [{ options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, /body\.options/],
      [{ options: [] }, /body\.options/],
      [{}, /body/],
    ];
    for (const [body, message] of cases) {
      expect(
        await expectError(await t.request('PATCH', `${ORG}/tier`, TOKENS.ada, body), 400),
      ).toMatch(message);
    }
  });

  it('needs the admin role, a token, membership and an existing field', async () => {
    const body = { title: 'Nope' };
    await expectError(await t.request('PATCH', `${ORG}/owner`, TOKENS.cara, body), 403);
    await expectError(await t.request('PATCH', `${ORG}/owner`, TOKENS.bob, body), 403);
    await expectError(await t.request('PATCH', `${ORG}/owner`, null, body), 401);
    await expectError(await t.request('PATCH', `${ORG}/owner`, TOKENS.eve, body), 404);
    await expectError(
      await t.request('PATCH', '/v1/orgs/o-other/custom-fields/region', TOKENS.ada, body),
      404,
    );
    await expectError(await t.request('PATCH', `${ORG}/missing`, TOKENS.ada, body), 404);
  });
});

describe('organization custom fields: delete', () => {
  it('deletes a field (204) and the values spaces held for it', async () => {
    await json(await t.request('POST', ORG, TOKENS.ada, { name: 'doomed', type: 'text' }), 201);
    expect(
      (await t.request('PATCH', HANDBOOK, TOKENS.dora, { values: { doomed: { value: 'x' } } }))
        .status,
    ).toBe(204);
    expect((await spaceValues(TOKENS.ada))['doomed']).toBe('x');

    await expectError(await t.request('DELETE', `${ORG}/doomed`, TOKENS.cara), 403);
    await expectError(await t.request('DELETE', `${ORG}/doomed`, TOKENS.bob), 403);
    await expectError(await t.request('DELETE', `${ORG}/doomed`, null), 401);
    await expectError(await t.request('DELETE', `${ORG}/doomed`, TOKENS.eve), 404);
    await expectError(
      await t.request('DELETE', '/v1/orgs/o-other/custom-fields/region', TOKENS.ada),
      404,
    );

    const response = await t.request('DELETE', `${ORG}/doomed`, TOKENS.ada);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await expectError(await t.request('GET', `${ORG}/doomed`, TOKENS.ada), 404);
    await expectError(await t.request('DELETE', `${ORG}/doomed`, TOKENS.ada), 404);
    expect(Object.keys(await spaceValues(TOKENS.ada))).not.toContain('doomed');
    const stored = t.db
      .prepare("SELECT count(*) AS n FROM space_custom_field_values WHERE field_name = 'doomed'")
      .get() as { n: number };
    expect(stored.n).toBe(0);
  });
});

describe('space custom field values', () => {
  it('lists every field of the organization, with values only where set', async () => {
    const entries = await json<SpaceValues>(
      await t.request('GET', '/v1/spaces/s-api/custom-fields', TOKENS.cara),
      200,
    );
    const fields = await json<FieldList>(
      await t.request('GET', `${ORG}?limit=1000`, TOKENS.ada),
      200,
    );
    expect(entries.map((entry) => entry.customField.name)).toEqual(
      fields.items.map((field) => field.name),
    );
    for (const entry of entries) expect(entry).not.toHaveProperty('value');
    expect(entries[0]!.customField).toMatchObject({
      id: 'owner',
      urls: { location: `${t.url}/v1/orgs/o-acme/custom-fields/owner` },
      permissions: { view: true, edit: false },
    });
  });

  it('sets a value of every type (204) and reads them back', async () => {
    const values = {
      owner: 'Dora',
      priority: 2.5,
      public: false,
      labels: ['alpha', 'beta'],
      tier: 'gold',
      areas: ['api', 'docs'],
    };
    const response = await t.request('PATCH', '/v1/spaces/s-api/custom-fields', TOKENS.dora, {
      values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])),
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(await spaceValues(TOKENS.cara, '/v1/spaces/s-api/custom-fields')).toMatchObject(values);
    // A partial update leaves the other values alone.
    expect(
      (
        await t.request('PATCH', '/v1/spaces/s-api/custom-fields', TOKENS.dora, {
          values: { priority: { value: 0 } },
        })
      ).status,
    ).toBe(204);
    expect(await spaceValues(TOKENS.cara, '/v1/spaces/s-api/custom-fields')).toMatchObject({
      ...values,
      priority: 0,
    });
  });

  it('removes a value with null', async () => {
    const path = '/v1/spaces/s-api/custom-fields';
    expect(
      (await t.request('PATCH', path, TOKENS.dora, { values: { owner: { value: null } } })).status,
    ).toBe(204);
    const entries = await json<SpaceValues>(await t.request('GET', path, TOKENS.ada), 200);
    const owner = entries.find((entry) => entry.customField.name === 'owner');
    expect(owner).toBeDefined();
    expect(owner).not.toHaveProperty('value');
    // Removing a value that is not set is harmless.
    expect(
      (await t.request('PATCH', path, TOKENS.dora, { values: { owner: { value: null } } })).status,
    ).toBe(204);
  });

  it('rejects a value that does not fit its field, naming the field, and changes nothing', async () => {
    const path = '/v1/spaces/s-api/custom-fields';
    const before = await spaceValues(TOKENS.ada, path);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ owner: { value: 5 } }, /owner.*string/],
      [{ priority: { value: '5' } }, /priority.*number/],
      [{ public: { value: 'true' } }, /public.*boolean/],
      [{ labels: { value: 'alpha' } }, /labels.*array of strings/],
      [{ labels: { value: [1, 2] } }, /labels.*array of strings/],
      [{ areas: { value: 'api' } }, /areas.*array of strings/],
      [{ tier: { value: ['gold'] } }, /tier.*string/],
      [{ tier: { value: 'bronze' } }, /tier.*"bronze" is not an option/],
      [{ areas: { value: ['api', 'mobile'] } }, /areas.*"mobile" is not an option/],
      [{ owner: { value: 'x'.repeat(257) } }, /owner.*256/],
      [{ labels: { value: ['x'.repeat(257)] } }, /labels.*256/],
      [{ unknown_field: { value: 'x' } }, /unknown_field/],
      [{ owner: {} }, /value/],
      [{ owner: { value: { nested: true } } }, /owner/],
      // A good entry next to a bad one is not applied either.
      [{ priority: { value: 99 }, tier: { value: 'bronze' } }, /tier/],
    ];
    for (const [values, message] of cases) {
      const error = await expectError(await t.request('PATCH', path, TOKENS.ada, { values }), 400);
      expect(error).toMatch(message);
    }
    expect(await expectError(await t.request('PATCH', path, TOKENS.ada, {}), 400)).toMatch(
      /values/,
    );
    expect(await spaceValues(TOKENS.ada, path)).toEqual(before);
    // At the limit is fine.
    expect(
      (
        await t.request('PATCH', path, TOKENS.ada, {
          values: { owner: { value: 'x'.repeat(256) } },
        })
      ).status,
    ).toBe(204);
  });

  it('needs read to list and edit to change, and hides other organizations’ spaces', async () => {
    const body = { values: { owner: { value: 'x' } } };
    await expectError(await t.request('GET', HANDBOOK, null), 401);
    await expectError(await t.request('PATCH', HANDBOOK, null, body), 401);
    await expectError(await t.request('PATCH', HANDBOOK, TOKENS.cara, body), 403);
    await expectError(await t.request('PATCH', HANDBOOK, TOKENS.finn, body), 403);
    await expectError(await t.request('GET', HANDBOOK, TOKENS.eve), 404);
    await expectError(await t.request('PATCH', HANDBOOK, TOKENS.eve, body), 404);
    await expectError(await t.request('GET', '/v1/spaces/s-other/custom-fields', TOKENS.ada), 404);
    await expectError(
      await t.request('PATCH', '/v1/spaces/s-other/custom-fields', TOKENS.ada, {
        values: { region: { value: 'x' } },
      }),
      404,
    );
    await expectError(await t.request('GET', '/v1/spaces/s-nope/custom-fields', TOKENS.ada), 404);
    // Gus is a guest with a comment grant on the handbook: he may read values but not change them.
    expect((await t.request('GET', HANDBOOK, TOKENS.gus)).status).toBe(200);
    await expectError(await t.request('PATCH', HANDBOOK, TOKENS.gus, body), 403);
    await expectError(await t.request('GET', '/v1/spaces/s-secret/custom-fields', TOKENS.gus), 404);
    // Eve sees her own space's fields, which are not Acme's.
    const other = await json<SpaceValues>(
      await t.request('GET', '/v1/spaces/s-other/custom-fields', TOKENS.eve),
      200,
    );
    expect(other.map((entry) => entry.customField.name)).toEqual(['region']);
    expect(
      (
        await t.request('PATCH', '/v1/spaces/s-other/custom-fields', TOKENS.eve, {
          values: { region: { value: 'eu' } },
        })
      ).status,
    ).toBe(204);
    expect(await spaceValues(TOKENS.eve, '/v1/spaces/s-other/custom-fields')).toEqual({
      region: 'eu',
    });
    // Acme's fields are unknown in Eve's organization.
    const message = await expectError(
      await t.request('PATCH', '/v1/spaces/s-other/custom-fields', TOKENS.eve, {
        values: { owner: { value: 'x' } },
      }),
      400,
    );
    expect(message).toMatch(/owner/);
  });
});
