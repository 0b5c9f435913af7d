import { readFileSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { GitBookAPIError } from '@gitbook/api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/auth/token-hash';
import { ManualClock } from '../../src/server/clock';
import { OrganizationSchema } from '../../src/server/resources/organizations/organization-schema';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

function rateHeaders(response: Response) {
  return Object.fromEntries(RATE_HEADERS.map((name) => [name, response.headers.get(name)]));
}

function expectRateHeaders(response: Response) {
  for (const name of RATE_HEADERS) {
    expect(response.headers.get(name), `${name} on ${response.status}`).toMatch(/^\d+$/);
  }
}

/** Sends bytes Fetch would refuse to send, and returns the raw HTTP answer. */
function rawHttp(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parseRaw(answer: string): { status: number; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) as unknown };
}

const orgTitle = (t: TestServer, id: string) =>
  (t.db.prepare('SELECT title FROM organizations WHERE id = ?').get(id) as { title: string }).title;

describe('rate limiting', () => {
  let t: TestServer;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = new ManualClock('2026-01-01T00:00:10.000Z');
    t = await startTestServer({ clock, config: { rateLimitMax: 3 } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses the request after the limit with 429, Retry-After and the envelope', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await t.request('GET', '/v1/orgs/o-acme', TOKENS.ada));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual([
      '2',
      '1',
      '0',
      '0',
    ]);
    const reset = String(Date.parse('2026-01-01T00:01:00.000Z') / 1000);
    for (const answer of answers) {
      expect(rateHeaders(answer)).toMatchObject({
        'x-ratelimit-limit': '3',
        'x-ratelimit-reset': reset,
      });
    }
    const refused = answers[3]!;
    expect(refused.headers.get('retry-after')).toBe('50');
    const message = await expectError(refused, 429);
    expect(message).toMatch(/rate limit/i);
    expect(message).toMatch(/50 seconds/);
    // The published client surfaces it as a GitBookAPIError with code 429.
    const error = await t
      .client(TOKENS.ada)
      .orgs.getOrganizationById('o-acme')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitBookAPIError);
    expect((error as GitBookAPIError).code).toBe(429);
    expect((error as GitBookAPIError).response.headers.get('retry-after')).toBe('50');
  });

  it('counts per token: another token of another user is unaffected', async () => {
    const bob = await t.request('GET', '/v1/orgs/o-acme', TOKENS.bob);
    expect(bob.status).toBe(200);
    expect(bob.headers.get('x-ratelimit-remaining')).toBe('2');
    // A second token of Ada has its own budget too.
    t.db
      .prepare("INSERT INTO tokens (hash, user_id, created_at) VALUES (?, 'u-ada', '2026-01-01')")
      .run(hashToken('tok-ada-second'));
    expect((await t.request('GET', '/v1/orgs/o-acme', 'tok-ada-second')).status).toBe(200);
  });

  it('puts the headers on 401 and 404 answers too', async () => {
    const missing = await t.request('GET', '/v1/orgs/o-nope', TOKENS.cleo);
    await expectError(missing.clone(), 404);
    expectRateHeaders(missing);
    const unknownRoute = await t.request('GET', '/v1/nowhere', TOKENS.cleo);
    await expectError(unknownRoute.clone(), 404);
    expectRateHeaders(unknownRoute);
    // Without a valid token the budget is the caller's address (shared by unknown tokens).
    const anonymous = await t.request('GET', '/v1/orgs', null);
    await expectError(anonymous.clone(), 401);
    expect(rateHeaders(anonymous)['x-ratelimit-remaining']).toBe('2');
    const unknown = await t.request('GET', '/v1/orgs', 'tok-unknown');
    await expectError(unknown.clone(), 401);
    expect(rateHeaders(unknown)['x-ratelimit-remaining']).toBe('1');
    await t.request('GET', '/v1/orgs', null);
    const refused = await t.request('GET', '/v1/orgs', null);
    await expectError(refused.clone(), 429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expectRateHeaders(refused);
  });

  it('starts a fresh window when the clock moves past the reset', async () => {
    expect((await t.request('GET', '/v1/orgs/o-acme', TOKENS.ada)).status).toBe(429);
    clock.advance(49_999);
    expect((await t.request('GET', '/v1/orgs/o-acme', TOKENS.ada)).status).toBe(429);
    clock.advance(1);
    const fresh = await t.request('GET', '/v1/orgs/o-acme', TOKENS.ada);
    expect(fresh.status).toBe(200);
    expect(rateHeaders(fresh)).toEqual({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '2',
      'x-ratelimit-reset': String(Date.parse('2026-01-01T00:02:00.000Z') / 1000),
    });
    expect((await t.request('GET', '/v1/orgs', null)).status).toBe(401);
  });
});

describe('idempotency', () => {
  let t: TestServer;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = new ManualClock('2026-01-01T00:00:00.000Z');
    t = await startTestServer({ clock });
  });
  afterAll(async () => {
    await t.close();
  });

  const patch = (token: string, body: unknown, key?: string, orgId = 'o-acme') =>
    t.request('PATCH', `/v1/orgs/${orgId}`, token, body, key ? { 'idempotency-key': key } : {});

  it('replays the stored response for the same key and body, applying the change once', async () => {
    const first = await patch(TOKENS.ada, { title: 'Acme One', sso: false }, 'key-1');
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as { title: string };
    expect(firstBody.title).toBe('Acme One');

    // Someone changes the title without a key; the replay must not patch it back.
    expect((await patch(TOKENS.ada, { title: 'Acme Changed' })).status).toBe(200);
    const replay = await patch(TOKENS.ada, { title: 'Acme One', sso: false }, 'key-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('content-type')).toMatch(/application\/json/);
    expectRateHeaders(replay);
    expect(await replay.json()).toEqual(firstBody);
    expect(orgTitle(t, 'o-acme')).toBe('Acme Changed');

    // The same body with its keys in another order is the same request.
    const reordered = await patch(TOKENS.ada, { sso: false, title: 'Acme One' }, 'key-1');
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(orgTitle(t, 'o-acme')).toBe('Acme Changed');
  });

  it('answers 422 for the same key with another body or another operation', async () => {
    const message = await expectError(await patch(TOKENS.ada, { title: 'Other' }, 'key-1'), 422);
    expect(message).toMatch(/Idempotency-Key/);
    await expectError(
      await t.request(
        'PATCH',
        '/v1/orgs/o-acme/link-invites/inv-1',
        TOKENS.ada,
        { role: 'edit' },
        {
          'idempotency-key': 'key-1',
        },
      ),
      422,
    );
    expect(orgTitle(t, 'o-acme')).toBe('Acme Changed');
  });

  it('keeps keys per user', async () => {
    const eve = await patch(TOKENS.eve, { title: 'Other Two' }, 'key-1', 'o-other');
    expect(eve.status).toBe(200);
    expect(eve.headers.get('idempotent-replayed')).toBeNull();
    expect(orgTitle(t, 'o-other')).toBe('Other Two');
  });

  it('replays 4xx answers too', async () => {
    await expectError(await patch(TOKENS.bob, { title: 'Bob Was Here' }, 'key-bob'), 403);
    t.db.prepare("UPDATE members SET role = 'admin' WHERE user_id = 'u-bob'").run();
    try {
      const replay = await patch(TOKENS.bob, { title: 'Bob Was Here' }, 'key-bob');
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      await expectError(replay, 403);
      expect(orgTitle(t, 'o-acme')).toBe('Acme Changed');
      // A fresh key runs the request again.
      expect((await patch(TOKENS.bob, { title: 'Bob Was Here' }, 'key-bob-2')).status).toBe(200);
    } finally {
      t.db.prepare("UPDATE members SET role = 'create' WHERE user_id = 'u-bob'").run();
    }
  });

  it('does not store 5xx answers: the retry runs again', async () => {
    t.db.exec(`CREATE TRIGGER refuse_boom BEFORE UPDATE ON organizations WHEN NEW.title = 'Boom'
               BEGIN SELECT RAISE(ABORT, 'simulated failure'); END`);
    try {
      const failed = await patch(TOKENS.ada, { title: 'Boom' }, 'key-boom');
      expect(await expectError(failed, 500)).toBe('Internal server error');
      expect(
        t.db.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE key = 'key-boom'").get(),
      ).toEqual({ n: 0 });
    } finally {
      t.db.exec('DROP TRIGGER refuse_boom');
    }
    const retried = await patch(TOKENS.ada, { title: 'Boom' }, 'key-boom');
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(orgTitle(t, 'o-acme')).toBe('Boom');
  });

  it('does not reserve a key on invalid input', async () => {
    await expectError(await patch(TOKENS.ada, { title: 'x' }, 'key-invalid'), 400);
    expect((await patch(TOKENS.ada, { title: 'Valid Now' }, 'key-invalid')).status).toBe(200);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    expect((await patch(TOKENS.ada, { title: 'In Flight' }, 'key-flight')).status).toBe(200);
    t.db.prepare("UPDATE idempotency_keys SET status = NULL WHERE key = 'key-flight'").run();
    const message = await expectError(
      await patch(TOKENS.ada, { title: 'In Flight' }, 'key-flight'),
      409,
    );
    expect(message).toMatch(/still being processed/);
  });

  it('limits the key to 255 characters', async () => {
    const message = await expectError(
      await patch(TOKENS.ada, { title: 'Long Key' }, 'k'.repeat(256)),
      400,
    );
    expect(message).toMatch(/Idempotency-Key.*255/);
    expect((await patch(TOKENS.ada, { title: 'Long Key' }, 'k'.repeat(255))).status).toBe(200);
  });

  it('ignores the header on GET and forgets keys after 24 hours', async () => {
    const get = await t.request('GET', '/v1/orgs/o-acme', TOKENS.ada, undefined, {
      'idempotency-key': 'key-1',
    });
    expect(get.status).toBe(200);
    clock.advance(24 * 60 * 60 * 1000 + 1);
    const reused = await patch(TOKENS.ada, { title: 'A Day Later' }, 'key-1');
    expect(reused.status).toBe(200);
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
    expect(orgTitle(t, 'o-acme')).toBe('A Day Later');
  });
});

describe('errors', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ config: { bodyLimit: 1024 } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers malformed or empty JSON with 400', async () => {
    expect(
      await expectError(await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, '{"title":'), 400),
    ).toMatch(/JSON/);
    await expectError(await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, ''), 400);
    // Prototype poisoning is refused, not merged.
    await expectError(
      await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, '{"__proto__":{"title":"x"}}'),
      400,
    );
  });

  it('answers a body of another content type with the envelope', async () => {
    const text = await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, 'title=Hello', {
      'content-type': 'text/plain',
    });
    expect([400, 415]).toContain(text.status);
    expect(await expectError(text, text.status)).toMatch(/body/i);
    const form = await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, 'title=Hello', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(await expectError(form, 415)).toMatch(/Unsupported Media Type/);
  });

  it('answers a body over the configured limit with 413', async () => {
    const big = await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, {
      title: 'x'.repeat(2000),
    });
    expectRateHeaders(big);
    expect(await expectError(big, 413)).toMatch(/1024 bytes/);
    // Streamed without a Content-Length, it is cut off at the limit as well.
    const chunk = new TextEncoder().encode(`{"title":"${'y'.repeat(600)}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const streamed = await fetch(`${t.url}/v1/orgs/o-acme`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${TOKENS.ada}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectError(streamed, 413);
  });

  it('answers unknown routes with a 404 envelope', async () => {
    expect(await expectError(await t.request('GET', '/v1/nope', TOKENS.ada), 404)).toBe(
      'No operation at GET /v1/nope',
    );
    await expectError(await t.request('DELETE', '/v1/orgs', TOKENS.ada), 404);
  });

  it('checks page limits, naming query.limit', async () => {
    const over = await expectError(await t.request('GET', '/v1/orgs?limit=1001', TOKENS.ada), 400);
    expect(over).toBe('query.limit must be <= 1000');
    expect(await expectError(await t.request('GET', '/v1/orgs?limit=0', TOKENS.ada), 400)).toBe(
      'query.limit must be >= 1',
    );
    expect(await expectError(await t.request('GET', '/v1/orgs?limit=abc', TOKENS.ada), 400)).toBe(
      'query.limit must be integer',
    );
    await expectError(await t.request('GET', '/v1/orgs?limit=2.5', TOKENS.ada), 400);
    expect((await t.request('GET', '/v1/orgs?limit=1000', TOKENS.ada)).status).toBe(200);
    expect(
      await expectError(await t.request('GET', '/v1/orgs?page=not-a-cursor', TOKENS.ada), 400),
    ).toMatch(/query\.page/);
    expect(
      await expectError(
        await t.request('GET', `/v1/orgs?page=${'a'.repeat(2049)}`, TOKENS.ada),
        400,
      ),
    ).toMatch(/query\.page/);
  });

  it('checks JSON types exactly, naming the field and the rule', async () => {
    const bad = async (body: unknown) =>
      expectError(await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, body), 400);
    expect(await bad({ title: 123 })).toBe('body.title must be string');
    expect(await bad({ sso: 'true' })).toBe('body.sso must be boolean');
    expect(await bad({ emailDomains: 'acme.test' })).toBe('body.emailDomains must be array');
    expect(await bad({ defaultRole: '' })).toBe(
      'body.defaultRole must be one of: read, comment, edit, review, create, admin, null',
    );
    expect(await bad({ logo: '' })).toMatch(/^body\.logo must/);
    expect(await bad({ title: 'x'.repeat(256) })).toBe(
      'body.title must NOT have more than 255 characters',
    );
    expect(await bad([])).toBe('body must be object');
    expect(orgTitle(t, 'o-acme')).toBe('Acme');
  });

  it('checks path parameters: bad percent-encoding, too long, odd characters', async () => {
    const encoding = await t.request('GET', '/v1/orgs/%E0%A4%A', TOKENS.ada);
    expectRateHeaders(encoding);
    expect(await expectError(encoding, 400)).toMatch(/percent-encoding/);
    expect(
      await expectError(await t.request('GET', `/v1/orgs/${'o'.repeat(101)}`, TOKENS.ada), 400),
    ).toBe('params.organizationId must NOT have more than 100 characters');
    const huge = await t.request('GET', `/v1/orgs/${'o'.repeat(3000)}`, TOKENS.ada);
    expectRateHeaders(huge);
    expect(await expectError(huge, 400)).toMatch(/longer than/);
    expect(await expectError(await t.request('GET', '/v1/orgs/%00', TOKENS.ada), 404)).toBe(
      'Organization \u0000 not found',
    );
    await expectError(
      await t.request('GET', `/v1/orgs/${encodeURIComponent('名前😀')}`, TOKENS.ada),
      404,
    );
  });

  it('answers requests Node cannot parse with the envelope', async () => {
    const method = parseRaw(await rawHttp(t.url, 'FOO /v1/orgs HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(method).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'Malformed HTTP request' } },
    });
    const headers = parseRaw(
      await rawHttp(
        t.url,
        `GET /v1/orgs HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      ),
    );
    expect(headers.status).toBe(431);
    expect(headers.body).toEqual({
      error: { code: 431, message: 'Request headers are larger than the server accepts' },
    });
  });

  it('answers 404 alike for an unknown organization and one the caller is not in', async () => {
    const foreign = await t.request('GET', '/v1/orgs/o-acme', TOKENS.eve);
    const unknown = await t.request('GET', '/v1/orgs/o-nope', TOKENS.eve);
    expect(await expectError(foreign, 404)).toBe('Organization o-acme not found');
    expect(await expectError(unknown, 404)).toBe('Organization o-nope not found');
    // Also for what lives inside it, and for writes.
    await expectError(
      await t.request('GET', '/v1/orgs/o-acme/link-invites/inv-1', TOKENS.eve),
      404,
    );
    await expectError(
      await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.eve, { title: 'Mine' }),
      404,
    );
    expect(orgTitle(t, 'o-acme')).toBe('Acme');
  });

  it('answers 403 to a member whose role is too low, 409 on a conflict', async () => {
    expect(
      await expectError(
        await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.dora, { title: 'Dora' }),
        403,
      ),
    ).toMatch(/admin/);
    expect(
      (await t.request('PATCH', '/v1/orgs/o-other', TOKENS.eve, { hostname: 'other-docs' })).status,
    ).toBe(200);
    expect(
      await expectError(
        await t.request('PATCH', '/v1/orgs/o-acme', TOKENS.ada, { hostname: 'other-docs' }),
        409,
      ),
    ).toMatch(/other-docs/);
  });

  it('never answers 500 to random malformed requests, and always with the envelope', async () => {
    const routes = routesOf(t);
    expect(routes.length).toBeGreaterThan(5);
    const oddIds = [
      'o-acme',
      's-handbook',
      'c-guides',
      'u-ada',
      't-writers',
      'inv-2',
      'owner',
      '%00',
      '%2F',
      '..',
      '%25',
      '%E0%A4%A',
      encodeURIComponent('ünïcödé'),
      encodeURIComponent('😀'.repeat(30)),
      encodeURIComponent("'; DROP TABLE users; --"),
      'a'.repeat(150),
      'b'.repeat(3000),
      ' ',
      '%20',
      'null',
      '-1',
      '1e999',
    ];
    const requestArb = fc.record({
      route: fc.constantFrom(...routes),
      method: fc.oneof(
        { weight: 4, arbitrary: fc.constant<string | null>(null) },
        {
          weight: 1,
          arbitrary: fc.constantFrom<string | null>(
            'GET',
            'HEAD',
            'POST',
            'PUT',
            'PATCH',
            'DELETE',
            'OPTIONS',
            'PROPFIND',
          ),
        },
      ),
      ids: fc.array(
        fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...oddIds) },
          { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent) },
        ),
        { minLength: 4, maxLength: 4 },
      ),
      query: fc.oneof(
        fc.constant(''),
        fc.constantFrom(
          '?limit=0',
          '?limit=1001',
          '?limit=-5',
          '?limit=abc',
          '?limit=1&limit=2',
          '?page=%00',
          '?page=eyJrIjpbXSwicyI6IiJ9',
          `?page=${'z'.repeat(3000)}`,
          '?nested=true&includeDeleted=maybe',
        ),
        fc
          .dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 30 }), { maxKeys: 3 })
          .map((params) => `?${new URLSearchParams(params).toString()}`),
      ),
      body: fc.oneof(
        fc.constant<string | undefined>(undefined),
        fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
        fc
          .dictionary(
            fc.constantFrom(
              'title',
              'role',
              'organization',
              'position',
              'parent',
              'emoji',
              'visibility',
              'name',
              'type',
              'value',
              'hostname',
              'logo',
              'defaultRole',
              'emailDomains',
              'user',
              'team',
            ),
            fc.jsonValue({ maxDepth: 2 }),
            { maxKeys: 4 },
          )
          .map((value) => JSON.stringify(value)),
        fc.constantFrom(
          '{',
          '{"title":}',
          'null',
          '[]',
          '"x"',
          '{"__proto__":{}}',
          '{"a":1}{"b":2}',
          '\u0000',
          'x'.repeat(2000),
        ),
      ),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'text/plain',
        'application/xml',
        'application/json; charset=latin1',
      ),
      token: fc.constantFrom<string | null>(
        TOKENS.ada,
        TOKENS.ada,
        TOKENS.cara,
        TOKENS.eve,
        TOKENS.gus,
        null,
        'garbage token',
        '',
      ),
      idempotencyKey: fc.option(fc.constantFrom('k1', 'k2', 'x'.repeat(300)), { nil: undefined }),
    });

    const samples = fc.sample(requestArb, { numRuns: 200, seed: 20260101 });
    for (const sample of samples) {
      let segment = 0;
      const path = sample.route.path.replace(/:[A-Za-z]+/g, () => sample.ids[segment++ % 4]!);
      const method = sample.method ?? sample.route.method;
      const withBody = sample.body !== undefined && !['GET', 'HEAD'].includes(method);
      const headers: Record<string, string> = {};
      if (sample.token !== null) headers['authorization'] = `Bearer ${sample.token}`;
      if (withBody) headers['content-type'] = sample.contentType;
      if (sample.idempotencyKey) headers['idempotency-key'] = sample.idempotencyKey;
      const description = `${method} ${path.slice(0, 200)}${sample.query.slice(0, 100)} ${
        withBody ? sample.body!.slice(0, 200) : ''
      }`;
      const response = await fetch(`${t.url}${path}${sample.query}`, {
        method,
        headers,
        ...(withBody ? { body: sample.body } : {}),
      });
      const text = await response.text();
      expect(response.status, description).toBeLessThan(500);
      expectRateHeaders(response);
      if (response.status >= 400 && method !== 'HEAD') {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw new Error(`Not JSON for ${description}: ${text.slice(0, 200)}`);
        }
        expect(body, description).toEqual({
          error: { code: response.status, message: expect.any(String) },
        });
      }
    }
  });
});

/** Every route the server registered, as `{ method, path }`, read from Fastify's route tree. */
function routesOf(t: TestServer): { method: string; path: string }[] {
  const tree = t.server.app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: { method: string; path: string }[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push({ method, path: stack.join('') });
    }
  }
  return routes;
}

describe('authentication', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  const withAuthorization = (value: string | null) =>
    fetch(`${t.url}/v1/orgs/o-acme`, value === null ? {} : { headers: { authorization: value } });

  it('accepts the Bearer scheme in any case and with extra spaces', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      expect((await withAuthorization(`${scheme} ${TOKENS.ada}`)).status).toBe(200);
    }
    expect((await withAuthorization(`Bearer    ${TOKENS.ada}  `)).status).toBe(200);
  });

  it('answers 401 with a specific message for each way a token can be wrong', async () => {
    expect(await expectError(await withAuthorization(null), 401)).toMatch(
      /Missing Authorization header/,
    );
    for (const malformed of [
      'Basic dXNlcjpwYXNz',
      'Bearer',
      'Bearer ',
      `Token ${TOKENS.ada}`,
      `Bearer ${TOKENS.ada} extra`,
      TOKENS.ada,
    ]) {
      expect(await expectError(await withAuthorization(malformed), 401), malformed).toBe(
        'Authorization header must be "Bearer <token>"',
      );
    }
    expect(await expectError(await withAuthorization('Bearer tok-nobody'), 401)).toBe(
      'Unknown or revoked token',
    );
    // Tokens are compared exactly: another case is another token.
    expect(
      await expectError(await withAuthorization(`Bearer ${TOKENS.ada.toUpperCase()}`), 401),
    ).toBe('Unknown or revoked token');
  });

  it('refuses a revoked token', async () => {
    expect((await withAuthorization(`Bearer ${TOKENS.finn}`)).status).toBe(200);
    t.db
      .prepare("UPDATE tokens SET revoked_at = '2026-01-01T00:00:00.000Z' WHERE hash = ?")
      .run(hashToken(TOKENS.finn));
    expect(await expectError(await withAuthorization(`Bearer ${TOKENS.finn}`), 401)).toBe(
      'Unknown or revoked token',
    );
  });

  it('stores tokens only as hashes: no fixture token appears anywhere in the database files', async () => {
    // Some traffic first, so idempotency records exist too.
    await t.request(
      'PATCH',
      '/v1/orgs/o-acme',
      TOKENS.ada,
      { title: 'Hashed' },
      { 'idempotency-key': 'h' },
    );
    t.db.pragma('wal_checkpoint(PASSIVE)');
    const dir = dirname(t.db.name);
    const bytes = Buffer.concat(
      readdirSync(dir)
        .filter((name) => name.startsWith('server.db'))
        .map((name) => readFileSync(join(dir, name))),
    );
    for (const token of Object.values(TOKENS)) {
      expect(bytes.includes(Buffer.from(token)), token).toBe(false);
    }
    // The hashes are there: the files read are the right ones.
    expect(bytes.includes(Buffer.from(hashToken(TOKENS.ada)))).toBe(true);
    const columns = t.db.prepare('SELECT * FROM tokens').all() as Record<string, unknown>[];
    for (const row of columns) {
      for (const value of Object.values(row)) {
        for (const token of Object.values(TOKENS)) expect(String(value)).not.toContain(token);
      }
    }
  });
});

describe('response schemas', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  function expectExactly(
    value: Record<string, unknown>,
    schema: { properties: object; required?: string[] },
  ) {
    const allowed = Object.keys(schema.properties);
    expect(Object.keys(value).filter((key) => !allowed.includes(key))).toEqual([]);
    for (const key of schema.required ?? []) expect(value, key).toHaveProperty(key);
  }

  it('sends an organization with exactly the documented keys', async () => {
    // A column the API does not know about must not leak.
    t.db.exec("ALTER TABLE organizations ADD COLUMN secret_note TEXT DEFAULT 'never-sent-xyz'");
    const { data } = await t.client(TOKENS.ada).orgs.getOrganizationById('o-acme');
    const org = data as unknown as Record<string, unknown>;
    expectExactly(org, OrganizationSchema);
    expectExactly(org['urls'] as Record<string, unknown>, OrganizationSchema.properties.urls);
    expectExactly(
      org['permissions'] as Record<string, unknown>,
      OrganizationSchema.properties.permissions,
    );
    expect(JSON.stringify(org)).not.toContain('never-sent-xyz');
    const list = await t.request('GET', '/v1/orgs', TOKENS.ada);
    const body = (await list.json()) as { items: Record<string, unknown>[] };
    expect(Object.keys(body).sort()).toEqual(['count', 'items']);
    for (const item of body.items) expectExactly(item, OrganizationSchema);
  });

  it('sends a request id with every answer', async () => {
    const ok = await t.request('GET', '/v1/orgs', TOKENS.ada);
    const refused = await t.request('GET', '/v1/orgs', null);
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers.get('x-request-id')).not.toBe(refused.headers.get('x-request-id'));
  });
});
