import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPISpec, OpenAPISpecVersion } from '@gitbook/api';
import { openApiProcessorFor } from '../../src/server/resources/openapi/openapi-routes';
import { OPENAPI_LIMITS } from '../../src/server/resources/openapi/openapi-schema';
import { PETS_30, PROCESSING_CONFIG } from '../support/openapi-spec-server';
import {
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

// The OpenAPI operations' rules through @gitbook/api: shapes, limits, access and pagination.
// Processing against a spec server over HTTP is in openapi-processing.test.ts.

const ORG = 'o-acme';
const SPECS = `/v1/orgs/${ORG}/openapi`;
const TEXT = JSON.stringify(PETS_30);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ config: PROCESSING_CONFIG });
  // URL sources here are never really fetched: a stand-in resolver and network answer 404.
  const processor = openApiProcessorFor(t.server.ctx);
  processor.lookup = async () => [{ address: '93.184.216.34', family: 4 }];
  processor.transport = async () => ({ status: 404, headers: {}, body: Readable.from([]) });
});
afterAll(async () => {
  await t.close();
});

const orgs = (token: string = TOKENS.ada) => t.client(token).orgs;

/** Waits (by reading it through the API) until the specification has been processed. */
async function processed(slug: string): Promise<OpenAPISpec> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const { data } = await orgs().getOpenApiSpecBySlug(ORG, slug);
    if (data.processingState === 'complete') return data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${slug} was never processed`);
}

describe('OpenAPI specifications', () => {
  it('creates a specification from text, pending first, then complete with a version', async () => {
    const { data, status } = await orgs(TOKENS.bob).createOpenApiSpec(ORG, {
      slug: 'pets',
      source: { text: TEXT },
    });
    expect(status).toBe(201);
    expect(data).toMatchObject({
      object: 'openapi-spec',
      slug: 'pets',
      processingState: 'pending',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: { location: `${t.url}/v1/orgs/${ORG}/openapi/pets` },
    });
    expect(data.sourceURL).toBeUndefined();
    expect(data.lastVersion).toBeUndefined();
    expect(typeof data.id).toBe('string');
    expect(Date.parse(data.createdAt)).not.toBeNaN();

    const done = await processed('pets');
    expect(done.lastVersion).toEqual(expect.any(String));
    expect(done.lastProcessErrorCode).toBeUndefined();
    expect(Date.parse(done.lastProcessedAt!)).not.toBeNaN();

    const { data: latest } = await orgs(TOKENS.cara).getLatestOpenApiSpecVersion(ORG, 'pets');
    expect(latest).toMatchObject({
      object: 'openapi-spec-version',
      id: done.lastVersion,
      url: `${t.url}/v1/orgs/${ORG}/openapi/pets/versions/${done.lastVersion}/content/raw`,
      urls: { location: `${t.url}/v1/orgs/${ORG}/openapi/pets/versions/${done.lastVersion}` },
    });
    const { data: byId } = await orgs().getOpenApiSpecVersionById(ORG, 'pets', latest.id);
    expect(byId).toEqual(latest);

    const { data: content } = await orgs(TOKENS.cara).getLatestOpenApiSpecVersionContent(
      ORG,
      'pets',
    );
    expect(content).toEqual({
      filesystem: { 'openapi.json': PETS_30 },
      url: latest.url,
      urls: { source: latest.url, public: null },
    });
    const { data: again } = await orgs().getOpenApiSpecVersionContentById(ORG, 'pets', latest.id);
    expect(again).toEqual(content);
    const { data: raw } = await orgs().getLatestOpenApiSpecVersionContentRaw(ORG, 'pets');
    expect(raw).toEqual({ text: TEXT, format: 'json' });
  });

  it('gets, lists, replaces and deletes by slug', async () => {
    await orgs().createOpenApiSpec(ORG, { slug: 'crud', source: { text: TEXT } });
    const first = await processed('crud');
    const { data: got } = await orgs(TOKENS.cara).getOpenApiSpecBySlug(ORG, 'crud');
    expect(got).toMatchObject({ id: first.id, permissions: { view: true, edit: false } });

    const { data: list } = await orgs(TOKENS.cara).listOpenApiSpecs(ORG);
    expect(list.items.map((spec) => spec.slug)).toContain('crud');
    expect(list.count).toBe(list.items.length);

    // PUT on an existing slug replaces its source (200); on a new one it creates it (200).
    const replaced = await orgs().createOrUpdateOpenApiSpecBySlug(ORG, 'crud', {
      source: { url: 'https://example.com/openapi.json' },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.data).toMatchObject({
      id: first.id,
      sourceURL: 'https://example.com/openapi.json',
      processingState: 'pending',
    });
    const created = await orgs().createOrUpdateOpenApiSpecBySlug(ORG, 'made-by-put', {
      source: { text: TEXT },
    });
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({ slug: 'made-by-put', processingState: 'pending' });

    const deleted = await orgs().deleteOpenApiSpecBySlug(ORG, 'made-by-put');
    expect(deleted.status).toBe(205);
    expect(await clientFailure(orgs().getOpenApiSpecBySlug(ORG, 'made-by-put'))).toBe(404);
    expect(await clientFailure(orgs().deleteOpenApiSpecBySlug(ORG, 'made-by-put'))).toBe(404);
    expect(await clientFailure(orgs().listOpenApiSpecVersions(ORG, 'made-by-put'))).toBe(404);
    await openApiProcessorFor(t.server.ctx).idle();
  });

  it('refuses a second specification with the same slug (409)', async () => {
    await orgs().createOpenApiSpec(ORG, { slug: 'twice', source: { text: TEXT } });
    const response = await t.request('POST', SPECS, TOKENS.ada, {
      slug: 'twice',
      source: { text: TEXT },
    });
    expect(await expectError(response, 409)).toMatch(/twice already exists/);
  });

  it('accepts every limit exactly and refuses each one exceeded by one, naming the field', async () => {
    const post = (body: unknown) => t.request('POST', SPECS, TOKENS.ada, body);
    const slug = 'a'.repeat(OPENAPI_LIMITS.slug);
    const url = `https://example.com/${'u'.repeat(OPENAPI_LIMITS.url - 20)}`;
    expect(url).toHaveLength(OPENAPI_LIMITS.url);
    expect((await post({ slug, source: { url } })).status).toBe(201);
    expect(await expectError(await post({ slug: `${slug}b`, source: { url } }), 400)).toMatch(
      /^body\.slug .*100/,
    );
    expect(
      await expectError(await post({ slug: 'long-url', source: { url: `${url}x` } }), 400),
    ).toMatch(/^body\.source\.url .*2048/);
    const text = ' '.repeat(OPENAPI_LIMITS.document - TEXT.length) + TEXT;
    expect((await post({ slug: 'big-text', source: { text } })).status).toBe(201);
    expect(
      await expectError(await post({ slug: 'too-big', source: { text: `${text} ` } }), 400),
    ).toMatch(/^body\.source\.text .*5242880/);
    expect(await expectError(await post({ slug: '', source: { text } }), 400)).toMatch(
      /^body\.slug/,
    );
    expect(await expectError(await post({ slug: 'x', source: { text: '' } }), 400)).toMatch(
      /^body\.source\.text/,
    );
    const list = await t.request('GET', `${SPECS}?limit=1001`, TOKENS.ada);
    expect(await expectError(list, 400)).toMatch(/^query\.limit .*1000/);
    expect((await t.request('GET', `${SPECS}?limit=1000`, TOKENS.ada)).status).toBe(200);
    await openApiProcessorFor(t.server.ctx).idle();
  });

  it('refuses bad slugs, sources and properties with 400 naming the field', async () => {
    const post = (body: unknown) => t.request('POST', SPECS, TOKENS.ada, body);
    for (const slug of ['Pets', 'pets api', '-pets', 'pets--api', 'pets-', 'pets_api']) {
      expect(await expectError(await post({ slug, source: { text: TEXT } }), 400), slug).toMatch(
        /^body\.slug/,
      );
    }
    expect(await expectError(await post({ slug: 'no-source' }), 400)).toMatch(/source/);
    expect(await expectError(await post({ source: { text: TEXT } }), 400)).toMatch(/slug/);
    for (const url of ['not a url', 'ftp://example.com/a.json', '/relative.json']) {
      expect(await expectError(await post({ slug: 'bad-url', source: { url } }), 400), url).toMatch(
        /^body\.source/,
      );
    }
    const both = await post({ slug: 'both', source: { url: 'https://example.com/', text: TEXT } });
    expect(await expectError(both, 400)).toMatch(/^body\.source/);
    const extra = await post({ slug: 'extra', source: { text: TEXT }, visibility: 'public' });
    expect(await expectError(extra, 400)).toBe(
      'body.visibility is not a property of this operation',
    );
    const put = await t.request('PUT', `${SPECS}/Not-Valid`, TOKENS.ada, {
      source: { text: TEXT },
    });
    expect(await expectError(put, 400)).toMatch(/^params\.specSlug/);
    expect(await clientFailure(orgs().getOpenApiSpecBySlug(ORG, 'no-source'))).toBe(404);
  });

  it('answers 401 without a token, 404 outside the organization, 403 below the create role', async () => {
    await orgs().createOpenApiSpec(ORG, { slug: 'guarded', source: { text: TEXT } });
    const spec = await processed('guarded');
    const paths = [
      `${SPECS}`,
      `${SPECS}/guarded`,
      `${SPECS}/guarded/versions`,
      `${SPECS}/guarded/versions/latest`,
      `${SPECS}/guarded/versions/latest/content`,
      `${SPECS}/guarded/versions/${spec.lastVersion}`,
      `${SPECS}/guarded/versions/${spec.lastVersion}/content`,
      `${SPECS}/guarded/versions/${spec.lastVersion}/content/raw`,
    ];
    for (const path of paths) {
      await expectError(await t.request('GET', path, null), 401);
      await expectError(await t.request('GET', path, TOKENS.eve), 404);
      // Guests see no organization-wide definitions (as for teams and translations).
      await expectError(await t.request('GET', path, TOKENS.gus), 403);
      expect((await t.request('GET', path, TOKENS.cara)).status, path).toBe(200);
    }
    const body = { source: { text: TEXT } };
    await expectError(await t.request('POST', SPECS, null, { slug: 'x', ...body }), 401);
    await expectError(await t.request('POST', SPECS, TOKENS.eve, { slug: 'x', ...body }), 404);
    await expectError(await t.request('PUT', `${SPECS}/guarded`, TOKENS.eve, body), 404);
    await expectError(await t.request('DELETE', `${SPECS}/guarded`, TOKENS.eve), 404);
    for (const token of [TOKENS.cleo, TOKENS.dora, TOKENS.finn, TOKENS.cara, TOKENS.gus]) {
      await expectError(await t.request('POST', SPECS, token, { slug: 'x', ...body }), 403);
      await expectError(await t.request('PUT', `${SPECS}/guarded`, token, body), 403);
      await expectError(await t.request('DELETE', `${SPECS}/guarded`, token), 403);
    }
    // Eve's own organization cannot see Acme's specification under its id either.
    await expectError(await t.request('GET', '/v1/orgs/o-other/openapi/guarded', TOKENS.eve), 404);
    await expectError(await t.request('GET', `${SPECS}/guarded/versions/nope`, TOKENS.ada), 404);
    const { data } = await orgs().getOpenApiSpecBySlug(ORG, 'guarded');
    expect(data.lastVersion).toBe(spec.lastVersion);
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'openapi-create-1' };
    const body = { slug: 'idem', source: { text: TEXT } };
    const first = await t.request('POST', SPECS, TOKENS.ada, body, headers);
    const second = await t.request('POST', SPECS, TOKENS.ada, body, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(((await second.json()) as OpenAPISpec).id).toBe(
      ((await first.json()) as OpenAPISpec).id,
    );
  });
});

describe('OpenAPI pagination', () => {
  it('walks specifications and versions page by page, each exactly once', async () => {
    const org = 'o-other';
    const eve = t.client(TOKENS.eve).orgs;
    const slugs = ['p-1', 'p-2', 'p-3', 'p-4', 'p-5'];
    for (const slug of slugs) await eve.createOpenApiSpec(org, { slug, source: { text: TEXT } });
    await openApiProcessorFor(t.server.ctx).idle();
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await eve.listOpenApiSpecs(org, { limit: 2, ...(page ? { page } : {}) });
      expect(data.count).toBe(5);
      seen.push(...data.items.map((spec) => spec.slug));
      page = data.next?.page;
    } while (page);
    expect(seen).toEqual(slugs);

    // Three distinct contents make three versions, listed newest first.
    const made: string[] = [];
    for (const title of ['One', 'Two', 'Three']) {
      const text = JSON.stringify({ ...PETS_30, info: { title, version: '1' } });
      await eve.createOrUpdateOpenApiSpecBySlug(org, 'p-1', { source: { text } });
      await openApiProcessorFor(t.server.ctx).idle();
      made.unshift((await eve.getOpenApiSpecBySlug(org, 'p-1')).data.lastVersion!);
    }
    const versions: OpenAPISpecVersion[] = [];
    page = undefined;
    do {
      const { data } = await eve.listOpenApiSpecVersions(org, 'p-1', {
        limit: 1,
        ...(page ? { page } : {}),
      });
      expect(data.count).toBe(4);
      versions.push(...data.items);
      page = data.next?.page;
    } while (page);
    expect(versions.map((version) => version.id).slice(0, 3)).toEqual(made);
    const { data: latest } = await eve.getLatestOpenApiSpecVersion(org, 'p-1');
    expect(latest.id).toBe(made[0]);
    const foreign = await t.request(
      'GET',
      `/v1/orgs/${org}/openapi/p-1/versions?page=${page ?? 'bad'}`,
      TOKENS.eve,
    );
    expect(await expectError(foreign, 400)).toMatch(/query\.page/);
  });
});
