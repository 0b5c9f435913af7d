import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/build-server';
import { hashToken } from '../../src/server/auth/token-hash';
import { openDatabase } from '../../src/server/db/open-database';
import { loadFixture } from '../../src/server/fixture/load-fixture';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { testFixture, TOKENS } from '../support/test-fixture';

// GET /v1/spaces/{id} is answered before Fastify's pipeline when it succeeds (FastReads); these
// tests hold it to exactly what the Fastify route answers, and check that every other case still
// gets Fastify's answer.

/** Headers whose values differ per request or per connection. */
const VARYING = new Set(['date', 'x-request-id', 'x-ratelimit-remaining', 'keep-alive']);

function stableHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!VARYING.has(name)) headers[name] = value;
  });
  return headers;
}

describe('fast reads of GET /v1/spaces/{id}', () => {
  let fast: TestServer;

  beforeAll(async () => {
    fast = await startTestServer();
  });
  afterAll(async () => {
    await fast.close();
  });

  it('answers exactly what the Fastify route answers, for every role and space', async () => {
    // A second server on the same database, Fastify only.
    const reference = buildServer({
      db: fast.db,
      fastReads: false,
      config: { sweepIntervalMs: 0, cpuWarmThreads: 0 },
    });
    const url = await reference.app.listen({ port: 0, host: '127.0.0.1' });
    // Absolute urls in bodies must not differ only by the port.
    reference.ctx.urls.rebase(fast.url);
    try {
      const cases: [string, string][] = [];
      for (const token of Object.values(TOKENS)) {
        for (const space of ['s-handbook', 's-api', 's-secret', 's-other', 's-missing']) {
          cases.push([token, space]);
        }
      }
      let answeredFast = 0;
      for (const [token, space] of cases) {
        const headers = { authorization: `Bearer ${token}` };
        const a = await fetch(`${fast.url}/v1/spaces/${space}`, { headers });
        const b = await fetch(`${url}/v1/spaces/${space}`, { headers });
        expect(a.status, `${token} ${space}`).toBe(b.status);
        expect(stableHeaders(a)).toEqual(stableHeaders(b));
        expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
        expect(await a.json()).toEqual(await b.json());
        if (a.status === 200) answeredFast++;
      }
      expect(answeredFast).toBeGreaterThan(5);
    } finally {
      await reference.close();
    }
  });

  it('works with the published client', async () => {
    const { data } = await fast.client(TOKENS.cara).spaces.getSpaceById('s-handbook');
    expect(data).toMatchObject({ object: 'space', id: 's-handbook', title: 'Handbook' });
  });

  it('refuses a token revoked a moment ago, through another connection to the database', async () => {
    const t = await startTestServer();
    try {
      expect((await t.request('GET', '/v1/spaces/s-handbook', TOKENS.dora)).status).toBe(200);
      // Another process (the admin CLI) revokes it in the shared SQLite file.
      const other = openDatabase(t.server.ctx.db.name);
      other
        .prepare('UPDATE tokens SET revoked_at = ? WHERE hash = ?')
        .run(new Date().toISOString(), hashToken(TOKENS.dora));
      other.close();
      const refused = await t.request('GET', '/v1/spaces/s-handbook', TOKENS.dora);
      expect(await expectError(refused, 401)).toMatch(/revoked/);
    } finally {
      await t.close();
    }
  });

  it('leaves every error to Fastify: no token, bad header, unknown id, long id, other org', async () => {
    expect(
      await expectError(await fast.request('GET', '/v1/spaces/s-handbook', null), 401),
    ).toMatch(/Authorization/);
    const basic = await fast.request('GET', '/v1/spaces/s-handbook', null, undefined, {
      authorization: 'Basic abc',
    });
    await expectError(basic, 401);
    await expectError(await fast.request('GET', '/v1/spaces/s-nope', TOKENS.ada), 404);
    await expectError(await fast.request('GET', '/v1/spaces/s-other', TOKENS.ada), 404);
    const long = await fast.request('GET', `/v1/spaces/${'x'.repeat(101)}`, TOKENS.ada);
    expect(await expectError(long, 400)).toMatch(/spaceId/);
    const encoded = await fast.request('GET', '/v1/spaces/s-hand%62ook', TOKENS.ada);
    expect(encoded.status).toBe(200);
  });

  it('still takes the query string through Fastify (share keys)', async () => {
    const response = await fast.request('GET', '/v1/spaces/s-handbook?shareKey=zzz', TOKENS.ada);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 's-handbook' });
  });

  it('charges each request once against the rate limit, and refuses past it', async () => {
    const t = await startTestServer({ config: { rateLimitMax: 4, rateLimitWindowMs: 60_000 } });
    try {
      const remaining: (string | null)[] = [];
      for (const space of ['s-handbook', 's-nope', 's-api', 's-handbook']) {
        const response = await t.request('GET', `/v1/spaces/${space}`, TOKENS.ada);
        remaining.push(response.headers.get('x-ratelimit-remaining'));
        expect(response.headers.get('x-ratelimit-limit')).toBe('4');
      }
      expect(remaining).toEqual(['3', '2', '1', '0']);
      const refused = await t.request('GET', '/v1/spaces/s-handbook', TOKENS.ada);
      expect(await expectError(refused, 429)).toMatch(/rate limit/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });

  it('logs the request line Fastify logs', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const db = openDatabase(':memory:');
    loadFixture(db, testFixture(), { now: () => new Date() });
    const server = buildServer({
      db,
      logger: { level: 'info', stream },
      config: { sweepIntervalMs: 0, cpuWarmThreads: 0 },
    });
    const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const response = await fetch(`${url}/v1/spaces/s-handbook`, {
        headers: { authorization: `Bearer ${TOKENS.ada}` },
      });
      expect(response.status).toBe(200);
      const line = lines.find((entry) => entry.msg === 'request');
      expect(line).toMatchObject({
        method: 'GET',
        path: '/v1/spaces/s-handbook',
        status: 200,
        user: 'u-ada',
        reqId: response.headers.get('x-request-id'),
      });
    } finally {
      await server.close();
      db.close();
    }
  });

  it('never serves a cached answer after a write, through the API or from another process', async () => {
    const t = await startTestServer();
    const title = async (token: string) => {
      const response = await t.request('GET', '/v1/spaces/s-handbook', token);
      return response.status === 200
        ? ((await response.json()) as { title: string }).title
        : response.status;
    };
    try {
      expect(await title(TOKENS.ada)).toBe('Handbook');
      expect(await title(TOKENS.ada)).toBe('Handbook');
      // A write through the API.
      await t.client(TOKENS.ada).spaces.updateSpaceById('s-handbook', { title: 'Manual' });
      expect(await title(TOKENS.ada)).toBe('Manual');
      // A write by another process sharing the SQLite file (the admin CLI, say).
      const other = openDatabase(t.server.ctx.db.name);
      other.prepare('UPDATE spaces SET title = ? WHERE id = ?').run('Guide', 's-handbook');
      expect(await title(TOKENS.ada)).toBe('Guide');
      // Access taken away: the cached answer for that user goes with it.
      expect(await title(TOKENS.gus)).toBe('Guide');
      other
        .prepare('DELETE FROM space_grants WHERE space_id = ? AND user_id = ?')
        .run('s-handbook', 'u-gus');
      other.close();
      expect(await title(TOKENS.gus)).toBe(404);
      // Counts shown on the space follow new change requests.
      const before = await (await t.request('GET', '/v1/spaces/s-handbook', TOKENS.ada)).json();
      await t.client(TOKENS.ada).spaces.createChangeRequest('s-handbook', { subject: 'More' });
      const after = await (await t.request('GET', '/v1/spaces/s-handbook', TOKENS.ada)).json();
      expect((after as { changeRequests: number }).changeRequests).toBe(
        (before as { changeRequests: number }).changeRequests + 1,
      );
    } finally {
      await t.close();
    }
  });

  it('hands everything but a plain GET to Fastify, and everything once closing', async () => {
    const t = await startTestServer();
    const answered: string[] = [];
    const respond = (method: string, url: string, authorization?: string) =>
      t.server.ctx.fastReads.handle(
        { method, url, headers: { authorization } } as IncomingMessage,
        {
          writeHead: () => answered.push(url),
          end: () => undefined,
        } as unknown as ServerResponse,
      );
    try {
      const bearer = `Bearer ${TOKENS.ada}`;
      expect(respond('GET', '/v1/spaces/s-handbook', bearer)).toBe(true);
      expect(respond('HEAD', '/v1/spaces/s-handbook', bearer)).toBe(false);
      expect(respond('DELETE', '/v1/spaces/s-handbook', bearer)).toBe(false);
      expect(respond('GET', '/v1/spaces/s-handbook/', bearer)).toBe(false);
      expect(respond('GET', '/v1/spaces/s-handbook?x=1', bearer)).toBe(false);
      expect(respond('GET', '/v1/spaces/s-handbook', `Bearer nope`)).toBe(false);
      expect(respond('GET', '/v1/spaces/s-secret', `Bearer ${TOKENS.gus}`)).toBe(false);
      t.server.ctx.fastReads.close();
      expect(respond('GET', '/v1/spaces/s-handbook', bearer)).toBe(false);
      expect(answered).toEqual(['/v1/spaces/s-handbook']);
    } finally {
      await t.close();
    }
  });
});
