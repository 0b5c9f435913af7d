import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitBookAPI } from '@gitbook/api';
import { TRANSLATION_LANGUAGES } from '../../src/server/resources/translations/translation-schema';
import {
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

const ORG = 'o-acme';
const TRANSLATIONS = `/v1/orgs/${ORG}/translations`;

/**
 * The spec's TranslationSettings resource. @gitbook/api 0.202.0 types these same operations with
 * its newer `Translation` resource (source space, target language), so bodies and answers are
 * cast at this one boundary; the requests on the wire are the client's own.
 */
interface TranslationSettings {
  object: 'translation-settings';
  id: string;
  title: string;
  languages: string[];
  createdAt: string;
  updatedAt: string;
  permissions: { view: boolean; edit: boolean };
  urls: { location: string };
}
interface SettingsList {
  items: TranslationSettings[];
  next?: { page: string };
  count: number;
}
interface SettingsBody {
  title: string;
  languages?: string[];
}
type Orgs = GitBookAPI['orgs'];
type CreateBody = Parameters<Orgs['createTranslation']>[1];
type UpdateBody = Parameters<Orgs['updateTranslation']>[2];

let t: TestServer;
let now = Date.parse('2026-03-01T09:00:00.000Z');
beforeAll(async () => {
  // A clock that moves a second per reading, so created and updated times can be compared.
  t = await startTestServer({
    clock: {
      now: () => {
        now += 1000;
        return new Date(now);
      },
    },
  });
});
afterAll(async () => {
  await t.close();
});

const orgs = (token: string = TOKENS.ada) => t.client(token).orgs;

async function create(body: SettingsBody, token: string = TOKENS.ada) {
  const response = await orgs(token).createTranslation(ORG, body as unknown as CreateBody);
  return {
    status: response.status,
    location: response.headers.get('location'),
    data: response.data as unknown as TranslationSettings,
  };
}

async function get(id: string, token: string = TOKENS.ada): Promise<TranslationSettings> {
  return (await orgs(token).getTranslation(ORG, id)).data as unknown as TranslationSettings;
}

async function put(id: string, body: SettingsBody, token: string = TOKENS.ada) {
  const response = await orgs(token).updateTranslation(ORG, id, body as unknown as UpdateBody);
  return response.data as unknown as TranslationSettings;
}

async function list(query: { page?: string; limit?: number }, token: string = TOKENS.ada) {
  return (await orgs(token).listTranslations(ORG, query)).data as unknown as SettingsList;
}

describe('translation settings: create and read', () => {
  it('creates settings (201 + Location) with the spec’s shape, and reads them back', async () => {
    const created = await create({ title: 'Docs in Europe', languages: ['fr', 'de', 'pt-br'] });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      object: 'translation-settings',
      title: 'Docs in Europe',
      languages: ['fr', 'de', 'pt-br'],
      permissions: { view: true, edit: true },
      urls: { location: `${t.url}${TRANSLATIONS}/${created.data.id}` },
    });
    expect(created.location).toBe(created.data.urls.location);
    expect(Number.isNaN(Date.parse(created.data.createdAt))).toBe(false);
    expect(created.data.updatedAt).toBe(created.data.createdAt);
    expect(await get(created.data.id)).toEqual(created.data);
    const bare = await create({ title: 'No languages yet' });
    expect(bare.data.languages).toEqual([]);
  });

  it('shows each caller their own permissions; guests may not read', async () => {
    const { data } = await create({ title: 'Permissions' });
    expect((await get(data.id, TOKENS.cara)).permissions).toEqual({ view: true, edit: false });
    expect((await get(data.id, TOKENS.bob)).permissions).toEqual({ view: true, edit: false });
    expect(await clientFailure(orgs(TOKENS.gus).getTranslation(ORG, data.id))).toBe(403);
  });

  it('accepts every limit exactly and refuses each one exceeded by one, naming the field', async () => {
    const all = [...TRANSLATION_LANGUAGES];
    const atLimit = await create({ title: 't'.repeat(100), languages: all });
    expect(atLimit.data.languages).toEqual(all);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ title: 't'.repeat(101) }, /body\.title must NOT have more than 100 characters/],
      [{ title: '' }, /body\.title must NOT have fewer than 1 characters/],
      [{ title: 'tab\there' }, /body\.title must not contain control characters/],
      [{ title: 7 }, /body\.title must be string/],
      [{ title: 'ok', languages: ['fr', 'fr'] }, /body\.languages.*duplicate/],
      [
        { title: 'ok', languages: ['klingon'] },
        /body\.languages\.0 must be equal to one of the allowed values: en, fr/,
      ],
      [{ title: 'ok', languages: 'fr' }, /body\.languages must be array/],
      [{ languages: ['fr'] }, /body must have required property 'title'/],
    ];
    for (const [body, message] of cases) {
      expect(
        await expectError(await t.request('POST', TRANSLATIONS, TOKENS.ada, body), 400),
      ).toMatch(message);
    }
  });

  it('refuses a missing token (401), another organization (404) and non-admins (403)', async () => {
    const { data } = await create({ title: 'Guarded' });
    await expectError(await t.request('POST', TRANSLATIONS, null, { title: 'X' }), 401);
    await expectError(await t.request('GET', `${TRANSLATIONS}/${data.id}`, null), 401);
    expect(
      await clientFailure(
        orgs(TOKENS.eve).createTranslation(ORG, { title: 'X' } as unknown as CreateBody),
      ),
    ).toBe(404);
    expect(await clientFailure(orgs(TOKENS.eve).getTranslation(ORG, data.id))).toBe(404);
    // Eve's own settings are not reachable through Acme, nor Acme's through her organization.
    const eves = await orgs(TOKENS.eve).createTranslation('o-other', {
      title: 'Eve',
    } as unknown as CreateBody);
    expect(
      await clientFailure(
        orgs().getTranslation(ORG, (eves.data as unknown as TranslationSettings).id),
      ),
    ).toBe(404);
    expect(await clientFailure(orgs(TOKENS.eve).getTranslation('o-other', data.id))).toBe(404);
    expect(await clientFailure(orgs().getTranslation(ORG, 'nope'))).toBe(404);
    for (const token of [TOKENS.bob, TOKENS.cara, TOKENS.gus]) {
      expect(
        await clientFailure(
          orgs(token).createTranslation(ORG, { title: 'X' } as unknown as CreateBody),
        ),
      ).toBe(403);
    }
  });
});

describe('translation settings: replace and delete', () => {
  it('replaces the title, and the languages only when sent', async () => {
    const { data } = await create({ title: 'Before', languages: ['ja'] });
    const renamed = await put(data.id, { title: 'After' });
    expect(renamed).toMatchObject({
      id: data.id,
      title: 'After',
      languages: ['ja'],
      createdAt: data.createdAt,
    });
    expect(Date.parse(renamed.updatedAt)).toBeGreaterThan(Date.parse(data.updatedAt));
    const relanguaged = await put(data.id, { title: 'After', languages: [] });
    expect(relanguaged.languages).toEqual([]);
    expect(await get(data.id)).toEqual(relanguaged);
  });

  it('refuses bad bodies naming the field and guards the route', async () => {
    const { data } = await create({ title: 'Stays' });
    const path = `${TRANSLATIONS}/${data.id}`;
    for (const [body, message] of [
      [{ title: 'x'.repeat(101) }, /body\.title must NOT have more than 100/],
      [{}, /body must have required property 'title'/],
      [{ title: 'ok', languages: ['xx'] }, /body\.languages\.0/],
    ] as const) {
      expect(await expectError(await t.request('PUT', path, TOKENS.ada, body), 400)).toMatch(
        message,
      );
    }
    expect(await get(data.id)).toEqual(data);
    await expectError(await t.request('PUT', path, null, { title: 'X' }), 401);
    expect(
      await clientFailure(
        orgs(TOKENS.bob).updateTranslation(ORG, data.id, { title: 'X' } as unknown as UpdateBody),
      ),
    ).toBe(403);
    expect(
      await clientFailure(
        orgs(TOKENS.eve).updateTranslation(ORG, data.id, { title: 'X' } as unknown as UpdateBody),
      ),
    ).toBe(404);
    expect(
      await clientFailure(
        orgs().updateTranslation(ORG, 'nope', { title: 'X' } as unknown as UpdateBody),
      ),
    ).toBe(404);
  });

  it('deletes settings (205), after which they are gone', async () => {
    const { data } = await create({ title: 'Doomed' });
    await expectError(await t.request('DELETE', `${TRANSLATIONS}/${data.id}`, null), 401);
    expect(await clientFailure(orgs(TOKENS.cleo).deleteTranslation(ORG, data.id))).toBe(403);
    expect(await clientFailure(orgs(TOKENS.eve).deleteTranslation(ORG, data.id))).toBe(404);
    const deleted = await orgs().deleteTranslation(ORG, data.id);
    expect(deleted.status).toBe(205);
    expect(await clientFailure(orgs().getTranslation(ORG, data.id))).toBe(404);
    expect(await clientFailure(orgs().deleteTranslation(ORG, data.id))).toBe(404);
  });
});

describe('translation settings: list', () => {
  it('walks every setting page by page, oldest first, with a true count', async () => {
    for (let i = 0; i < 5; i++) await create({ title: `Walk ${i}` });
    const all = await list({ limit: 1000 });
    const stored = t.db
      .prepare('SELECT count(*) AS n FROM translation_settings WHERE organization_id = ?')
      .get(ORG) as { n: number };
    expect(all.count).toBe(stored.n);
    expect(all.items).toHaveLength(stored.n);
    expect(all.items.every((item) => item.object === 'translation-settings')).toBe(true);
    const walked: TranslationSettings[] = [];
    let page: string | undefined;
    do {
      const data = await list({ limit: 2, ...(page ? { page } : {}) });
      expect(data.items.length).toBeLessThanOrEqual(2);
      walked.push(...data.items);
      page = data.next?.page;
    } while (page);
    expect(walked.map((item) => item.id)).toEqual(all.items.map((item) => item.id));
    const created = walked.map((item) => item.createdAt);
    expect(created).toEqual([...created].sort());
  });

  it('lists for every member with a role and guards the rest', async () => {
    const reader = await list({ limit: 1000 }, TOKENS.cara);
    expect(reader.items.every((item) => item.permissions.edit === false)).toBe(true);
    await expectError(await t.request('GET', TRANSLATIONS, null), 401);
    expect(await clientFailure(orgs(TOKENS.gus).listTranslations(ORG))).toBe(403);
    expect(await clientFailure(orgs(TOKENS.eve).listTranslations(ORG))).toBe(404);
    expect(
      await expectError(await t.request('GET', `${TRANSLATIONS}?limit=1001`, TOKENS.ada), 400),
    ).toMatch(/limit/);
    expect(
      await expectError(await t.request('GET', `${TRANSLATIONS}?page=garbage`, TOKENS.ada), 400),
    ).toMatch(/page/);
  });
});
