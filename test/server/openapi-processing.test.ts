import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI, type OpenAPISpec } from '@gitbook/api';
import { buildServer } from '../../src/server/build-server';
import { openDatabase } from '../../src/server/db/open-database';
import { loadFixture } from '../../src/server/fixture/load-fixture';
import { openApiProcessorFor } from '../../src/server/resources/openapi/openapi-routes';
import {
  INVALID_30,
  PETS_30,
  PROCESSING_CONFIG,
  startSpecServer,
  STORE_31_YAML,
  type SpecServer,
} from '../support/openapi-spec-server';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { testFixture, TOKENS } from '../support/test-fixture';

// Processing against a loopback spec server: valid, invalid, slow, changed and unchanged
// documents, refused addresses, and a server stopped mid-processing.

const ORG = 'o-acme';

let spec: SpecServer;
let t: TestServer;
beforeAll(async () => {
  spec = await startSpecServer();
  // Private addresses stay refused; only the spec server's exact address is let through.
  t = await startTestServer({ config: PROCESSING_CONFIG });
  openApiProcessorFor(t.server.ctx).settings.allowedAddresses = ['127.0.0.1'];
});
afterAll(async () => {
  await t.close();
  await spec.close();
});

const orgs = (client: GitBookAPI = t.client(TOKENS.ada)) => client.orgs;

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the condition never held');
}

/** Creates or replaces the specification, then waits (through the API) until it is processed. */
async function process(
  slug: string,
  source: { url: string } | { text: string },
  client?: GitBookAPI,
): Promise<OpenAPISpec> {
  const { data } = await orgs(client).createOrUpdateOpenApiSpecBySlug(ORG, slug, { source });
  expect(data.processingState).toBe('pending');
  return until(
    async () => (await orgs(client).getOpenApiSpecBySlug(ORG, slug)).data,
    (current) => current.processingState === 'complete',
  );
}

const versionCount = async (slug: string) =>
  (await orgs().listOpenApiSpecVersions(ORG, slug)).data.count;

describe('processing OpenAPI specifications from URLs', () => {
  it('fetches and validates a 3.0 JSON document', async () => {
    const url = `${spec.url}/pets.json`;
    const done = await process('pets', { url });
    expect(done).toMatchObject({ sourceURL: url, lastProcessedErrorCount: 0 });
    expect(done.lastProcessErrorCode).toBeUndefined();
    const { data: version } = await orgs().getLatestOpenApiSpecVersion(ORG, 'pets');
    expect(version).toMatchObject({ id: done.lastVersion, url });
    const { data: content } = await orgs().getLatestOpenApiSpecVersionContent(ORG, 'pets');
    expect(content).toEqual({
      filesystem: { 'pets.json': PETS_30 },
      url,
      urls: { source: url, public: null },
    });
  });

  it('fetches a 3.1 YAML document with $refs, keeping them as references', async () => {
    const done = await process('store', { url: `${spec.url}/store.yaml` });
    expect(done.lastProcessErrorCode).toBeUndefined();
    const { data: content } = await orgs().getOpenApiSpecVersionContentById(
      ORG,
      'store',
      done.lastVersion!,
    );
    const filesystem = content.filesystem as Record<string, Record<string, unknown>>;
    expect(Object.keys(filesystem)).toEqual(['store.yaml']);
    expect(filesystem['store.yaml']).toMatchObject({
      openapi: '3.1.0',
      info: { version: '2.1' },
      components: {
        schemas: { Order: { properties: { replaces: { $ref: '#/components/schemas/Order' } } } },
      },
    });
    const { data: raw } = await orgs().getLatestOpenApiSpecVersionContentRaw(ORG, 'store');
    expect(raw).toEqual({ text: STORE_31_YAML, format: 'yaml' });
  });

  it('makes a new version only when the content changed, and keeps the last good one on errors', async () => {
    const url = `${spec.url}/mutable.json`;
    spec.mutable = JSON.stringify(PETS_30);
    const first = await process('mutable', { url });
    expect(await versionCount('mutable')).toBe(1);

    // Unchanged: processed again (a new processing time), no new version.
    const unchanged = await process('mutable', { url });
    expect(unchanged.lastVersion).toBe(first.lastVersion);
    expect(unchanged.lastProcessedAt! >= first.lastProcessedAt!).toBe(true);
    expect(await versionCount('mutable')).toBe(1);

    // Invalid: PARSE_ERROR with what is wrong, and the last good version stays the latest.
    spec.mutable = INVALID_30;
    const invalid = await process('mutable', { url });
    expect(invalid).toMatchObject({
      lastVersion: first.lastVersion,
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedErrorCount: 2,
    });
    expect(invalid.lastProcessedErrors!.map((error) => error.message).join('\n')).toMatch(
      /version/,
    );
    expect(await versionCount('mutable')).toBe(1);
    expect((await orgs().getLatestOpenApiSpecVersion(ORG, 'mutable')).data.id).toBe(
      first.lastVersion,
    );

    // Changed: a new version, and the error is cleared.
    const changed = { ...PETS_30, info: { title: 'Pets', version: '1.1.0' } };
    spec.mutable = JSON.stringify(changed);
    const updated = await process('mutable', { url });
    expect(updated.lastVersion).not.toBe(first.lastVersion);
    expect(updated.lastProcessErrorCode).toBeUndefined();
    expect(updated.lastProcessedErrors).toBeUndefined();
    expect(await versionCount('mutable')).toBe(2);
    const { data: content } = await orgs().getLatestOpenApiSpecVersionContent(ORG, 'mutable');
    expect(content.filesystem).toEqual({ 'mutable.json': changed });
    const { data: old } = await orgs().getOpenApiSpecVersionContentById(
      ORG,
      'mutable',
      first.lastVersion!,
    );
    expect(old.filesystem).toEqual({ 'mutable.json': PETS_30 });
  });

  it('records FETCH_TIMEOUT for a source slower than the configured timeout', async () => {
    const good = await process('slow', { url: `${spec.url}/pets.json` });
    const processor = openApiProcessorFor(t.server.ctx);
    processor.settings.fetchTimeoutMs = 300;
    try {
      const slow = await process('slow', { url: `${spec.url}/slow.json` });
      expect(slow).toMatchObject({
        sourceURL: `${spec.url}/slow.json`,
        lastVersion: good.lastVersion,
        lastProcessErrorCode: 'FETCH_TIMEOUT',
        lastProcessedErrors: [{ message: 'url did not respond within 300 ms' }],
      });
    } finally {
      processor.settings.fetchTimeoutMs = 10_000;
    }
  });

  it('processes other specifications while one source is slow', async () => {
    const processor = openApiProcessorFor(t.server.ctx);
    processor.settings.fetchTimeoutMs = 8_000;
    const slowHits = () => spec.hits.filter((hit) => hit === '/slow.json').length;
    const before = slowHits();
    try {
      await orgs().createOpenApiSpec(ORG, {
        slug: 'stalled',
        source: { url: `${spec.url}/slow.json` },
      });
      await until(slowHits, (count) => count > before);
      const quick = await process('beside-stalled', { url: `${spec.url}/pets.json` });
      expect(quick.lastProcessErrorCode).toBeUndefined();
      // The slow one was still being fetched meanwhile: it ends (timed out) after the quick one.
      await processor.idle();
      const { data: stalled } = await orgs().getOpenApiSpecBySlug(ORG, 'stalled');
      expect(stalled.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
      expect(stalled.lastProcessedAt! > quick.lastProcessedAt!).toBe(true);
    } finally {
      processor.settings.fetchTimeoutMs = 10_000;
    }
  });

  it('records FETCH_ERROR for missing, oversized and refused sources, PARSE_ERROR for non-UTF-8', async () => {
    const missing = await process('missing', { url: `${spec.url}/missing.json` });
    expect(missing).toMatchObject({
      lastProcessErrorCode: 'FETCH_ERROR',
      lastProcessedErrors: [{ message: `${spec.url}/missing.json answered 404` }],
    });
    expect(missing.lastVersion).toBeUndefined();
    await expect(orgs().getLatestOpenApiSpecVersion(ORG, 'missing')).rejects.toMatchObject({
      code: 404,
    });

    const latin1 = await process('latin1', { url: `${spec.url}/latin1.yaml` });
    expect(latin1.lastProcessErrorCode).toBe('PARSE_ERROR');

    const processor = openApiProcessorFor(t.server.ctx);
    processor.settings.maxBytes = 100;
    try {
      const big = await process('big', { url: `${spec.url}/pets.json` });
      expect(big.lastProcessErrorCode).toBe('FETCH_ERROR');
      expect(big.lastProcessedErrors![0]!.message).toMatch(/larger than the 100-byte limit/);
    } finally {
      processor.settings.maxBytes = 5 * 1024 * 1024;
    }
  });

  it('refuses redirects to private and link-local addresses, and follows one to an allowed host', async () => {
    const before = spec.hits.length;
    const toPrivate = await process('to-private', { url: `${spec.url}/to-private` });
    expect(toPrivate).toMatchObject({
      lastProcessErrorCode: 'FETCH_ERROR',
      lastProcessedErrors: [{ message: 'url resolves to a private address (10.0.0.1)' }],
    });
    const toMetadata = await process('to-metadata', { url: `${spec.url}/to-metadata` });
    expect(toMetadata.lastProcessedErrors![0]!.message).toMatch(
      /link-local address \(169\.254\.169\.254\)/,
    );
    expect(spec.hits.slice(before)).toEqual(['/to-private', '/to-metadata']);

    const followed = await process('followed', { url: `${spec.url}/to-pets` });
    expect(followed.lastProcessErrorCode).toBeUndefined();
    const { data: content } = await orgs().getLatestOpenApiSpecVersionContent(ORG, 'followed');
    expect(content.filesystem).toEqual({ 'openapi.json': PETS_30 });
  });

  it('refuses loopback and private sources unless the address is allowed, without connecting', async () => {
    const processor = openApiProcessorFor(t.server.ctx);
    processor.settings.allowedAddresses = [];
    const before = spec.hits.length;
    const port = new URL(spec.url).port;
    try {
      // Refused at once when the host is an address or a localhost name (400 naming the field)…
      const refused: [string, RegExp][] = [
        [`${spec.url}/pets.json`, /loopback address \(127\.0\.0\.1\)/],
        [`http://localhost:${port}/pets.json`, /loopback address \(localhost\)/],
        ['http://[::1]/openapi.json', /loopback address \(::1\)/],
        ['http://10.0.0.1/openapi.json', /private address \(10\.0\.0\.1\)/],
        ['http://169.254.169.254/latest/', /link-local address/],
        ['http://2130706433/openapi.json', /loopback address \(127\.0\.0\.1\)/],
      ];
      for (const [url, reason] of refused) {
        const response = await t.request('PUT', `/v1/orgs/${ORG}/openapi/refused`, TOKENS.ada, {
          source: { url },
        });
        const message = await expectError(response, 400);
        expect(message, url).toMatch(/^body\.source\.url resolves to/);
        expect(message, url).toMatch(reason);
      }
      await expect(orgs().getOpenApiSpecBySlug(ORG, 'refused')).rejects.toMatchObject({
        code: 404,
      });
      // …and when processing, for a name that resolves to one.
      processor.lookup = async () => [{ address: '127.0.0.1', family: 4 }];
      const named = await process('named', { url: `http://specs.example.test:${port}/pets.json` });
      expect(named).toMatchObject({
        lastProcessErrorCode: 'FETCH_ERROR',
        lastProcessedErrors: [{ message: 'url resolves to a loopback address (127.0.0.1)' }],
      });
      expect(spec.hits.length).toBe(before);
    } finally {
      processor.lookup = undefined;
      processor.settings.allowedAddresses = ['127.0.0.1'];
    }
  });

  it('records nothing for a specification deleted while it was being processed', async () => {
    const processor = openApiProcessorFor(t.server.ctx);
    processor.settings.fetchTimeoutMs = 500;
    try {
      await orgs().createOpenApiSpec(ORG, {
        slug: 'deleted',
        source: { url: `${spec.url}/slow.json` },
      });
      const { status } = await orgs().deleteOpenApiSpecBySlug(ORG, 'deleted');
      expect(status).toBe(205);
      await processor.idle();
      await expect(orgs().getOpenApiSpecBySlug(ORG, 'deleted')).rejects.toMatchObject({
        code: 404,
      });
      const left = t.db
        .prepare(
          `SELECT (SELECT count(*) FROM openapi_jobs j LEFT JOIN openapi_specs s ON s.id = j.spec_id
             WHERE s.id IS NULL) + (SELECT count(*) FROM openapi_spec_versions v
             LEFT JOIN openapi_specs s ON s.id = v.spec_id WHERE s.id IS NULL)`,
        )
        .pluck()
        .get();
      expect(left).toBe(0);
      // The processor goes on with the next specification.
      const next = await process('after-deleted', { url: `${spec.url}/pets.json` });
      expect(next.lastProcessErrorCode).toBeUndefined();
    } finally {
      processor.settings.fetchTimeoutMs = 10_000;
    }
  });

  it('refuses a YAML alias bomb as PARSE_ERROR without writing it out', async () => {
    const lines = ['openapi: 3.0.3', 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 40; i++) {
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    }
    const done = await process('alias-bomb', { text: lines.join('\n') });
    expect(done.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(done.lastProcessedErrors![0]!.message).toMatch(/expands to more than/);
    expect(done.lastVersion).toBeUndefined();
  });

  it('never fetches external $refs of a specification', async () => {
    const ref = `${spec.url}/pets.json#/components/schemas/Pet`;
    const text = JSON.stringify({
      ...PETS_30,
      components: { schemas: { Pet: { $ref: ref } } },
    });
    const before = spec.hits.length;
    const done = await process('external-ref', { text });
    expect(done).toMatchObject({
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedErrors: [
        { message: `External $ref "${ref}" is not supported: only "#/…" references` },
      ],
    });
    expect(spec.hits.length).toBe(before);
  });
});

describe('processing across a restart', () => {
  it('resumes a specification a stopped server was processing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-openapi-restart-'));
    const file = join(dir, 'server.db');
    const start = async () => {
      const db = openDatabase(file);
      const server = buildServer({ db, config: { sweepIntervalMs: 0, ...PROCESSING_CONFIG } });
      openApiProcessorFor(server.ctx).settings.allowedAddresses = ['127.0.0.1'];
      const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
      server.ctx.urls.rebase(url);
      const client = new GitBookAPI({ endpoint: url, authToken: TOKENS.ada });
      return { db, server, client };
    };
    try {
      const seed = openDatabase(file);
      loadFixture(seed, testFixture(), { now: () => new Date() });
      seed.close();

      const first = await start();
      const gated = `${spec.url}/gated.json`;
      await orgs(first.client).createOpenApiSpec(ORG, { slug: 'resumed', source: { url: gated } });
      // The first server is fetching (the spec server holds the response) when it stops.
      await until(
        () => spec.hits,
        (hits) => hits.includes('/gated.json'),
      );
      const { data: midway } = await orgs(first.client).getOpenApiSpecBySlug(ORG, 'resumed');
      expect(midway.processingState).toBe('progress');
      await first.server.close();
      // What was asked for is still queued, with nothing recorded.
      const left = first.db.prepare('SELECT count(*) FROM openapi_jobs').pluck().get();
      expect(left).toBe(1);
      expect(first.db.prepare('SELECT count(*) FROM openapi_spec_versions').pluck().get()).toBe(0);
      first.db.close();

      spec.openGate();
      const second = await start();
      try {
        const done = await until(
          async () => (await orgs(second.client).getOpenApiSpecBySlug(ORG, 'resumed')).data,
          (current) => current.processingState === 'complete',
        );
        expect(done.lastProcessErrorCode).toBeUndefined();
        expect(done.lastVersion).toEqual(expect.any(String));
        const { data } = await orgs(second.client).getLatestOpenApiSpecVersionContent(
          ORG,
          'resumed',
        );
        expect(data.filesystem).toEqual({ 'gated.json': PETS_30 });
        const jobs = second.db.prepare('SELECT count(*) FROM openapi_jobs').pluck().get();
        expect(jobs).toBe(0);
      } finally {
        await second.server.close();
        second.db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
