import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type QuireServer } from '../../src/server/build-server';
import { openDatabase } from '../../src/server/db/open-database';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

// GET /v1/orgs/{id}/members is answered before Fastify's pipeline when it succeeds, its pages
// built once and reused until anything changes (FastReads); these tests hold it to exactly the
// bytes the Fastify route answers, and show that no write leaves a stale page behind.

const MEMBERS = '/v1/orgs/o-acme/members';

/** Headers whose values differ per request or per connection. */
const VARYING = new Set(['date', 'x-request-id', 'x-ratelimit-remaining', 'keep-alive']);

function stableHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!VARYING.has(name)) headers[name] = value;
  });
  return headers;
}

/** Calls FastReads directly: true when it answered, false when Fastify would have to. */
function answersFast(t: TestServer, url: string, token: string): boolean {
  return t.server.ctx.fastReads.handle(
    { method: 'GET', url, headers: { authorization: `Bearer ${token}` } } as IncomingMessage,
    { writeHead: () => undefined, end: () => undefined } as unknown as ServerResponse,
  );
}

describe('fast reads of GET /v1/orgs/{id}/members', () => {
  let fast: TestServer;
  let reference: QuireServer;
  let referenceUrl: string;

  beforeAll(async () => {
    fast = await startTestServer();
    // A second server on the same database, Fastify only.
    reference = buildServer({
      db: fast.db,
      fastReads: false,
      config: { sweepIntervalMs: 0, cpuWarmThreads: 0 },
    });
    referenceUrl = await reference.app.listen({ port: 0, host: '127.0.0.1' });
    // Absolute urls in bodies must not differ only by the port.
    reference.ctx.urls.rebase(fast.url);
  });
  afterAll(async () => {
    await reference.close();
    await fast.close();
  });

  const both = async (path: string, token: string | null) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const a = await fetch(`${fast.url}${path}`, { headers });
    const b = await fetch(`${referenceUrl}${path}`, { headers });
    return { a, b, aText: await a.text(), bText: await b.text() };
  };

  it('answers exactly the bytes the Fastify route answers, for every query and error', async () => {
    const firstPage = (await (
      await fast.request('GET', `${MEMBERS}?limit=2`, TOKENS.ada)
    ).json()) as { next: { page: string } };
    const cases: [string, string | null][] = [
      [MEMBERS, TOKENS.ada],
      [`${MEMBERS}?limit=1000`, TOKENS.ada],
      [`${MEMBERS}?limit=1000`, TOKENS.cara],
      [`${MEMBERS}?limit=2`, TOKENS.bob],
      [`${MEMBERS}?limit=2&page=${firstPage.next.page}`, TOKENS.ada],
      [`${MEMBERS}?order=asc&sort=joinedAt`, TOKENS.ada],
      [`${MEMBERS}?sort=lastSeenAt`, TOKENS.ada],
      [`${MEMBERS}?role=admin`, TOKENS.ada],
      [`${MEMBERS}?role=guest&limit=5`, TOKENS.ada],
      [`${MEMBERS}?search=ada`, TOKENS.ada],
      [`${MEMBERS}?search=Ada%20L`, TOKENS.ada],
      [`${MEMBERS}?search=Ada+L`, TOKENS.ada],
      [`${MEMBERS}?unknown=1`, TOKENS.ada],
      // Errors, all from Fastify: bad limits, enums and cursors, repeats, no access, no token.
      [`${MEMBERS}?limit=1001`, TOKENS.ada],
      [`${MEMBERS}?limit=0`, TOKENS.ada],
      [`${MEMBERS}?limit=ten`, TOKENS.ada],
      [`${MEMBERS}?order=sideways`, TOKENS.ada],
      [`${MEMBERS}?role=owner`, TOKENS.ada],
      [`${MEMBERS}?page=not-a-cursor`, TOKENS.ada],
      [`${MEMBERS}?limit=1&limit=2`, TOKENS.ada],
      [`${MEMBERS}?search=${'x'.repeat(257)}`, TOKENS.ada],
      [MEMBERS, TOKENS.gus],
      [MEMBERS, TOKENS.eve],
      ['/v1/orgs/o-nope/members', TOKENS.ada],
      [MEMBERS, null],
      [MEMBERS, 'tok-unknown'],
    ];
    const statuses: number[] = [];
    for (const [path, token] of cases) {
      const { a, b, aText, bText } = await both(path, token);
      expect(a.status, path).toBe(b.status);
      expect(stableHeaders(a), path).toEqual(stableHeaders(b));
      expect(aText, path).toBe(bText);
      statuses.push(a.status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(13);
    expect(new Set(statuses)).toEqual(new Set([200, 400, 401, 403, 404]));
  });

  it('answers plain successful requests itself and leaves the rest to Fastify', () => {
    expect(answersFast(fast, MEMBERS, TOKENS.ada)).toBe(true);
    expect(answersFast(fast, `${MEMBERS}?limit=1000&order=asc`, TOKENS.ada)).toBe(true);
    expect(answersFast(fast, `${MEMBERS}?limit=1001`, TOKENS.ada)).toBe(false);
    expect(answersFast(fast, `${MEMBERS}?search=Ada%20L`, TOKENS.ada)).toBe(false);
    expect(answersFast(fast, `${MEMBERS}?limit=1&limit=2`, TOKENS.ada)).toBe(false);
    expect(answersFast(fast, `${MEMBERS}?page=not-a-cursor`, TOKENS.ada)).toBe(false);
    expect(answersFast(fast, MEMBERS, TOKENS.gus)).toBe(false);
    expect(answersFast(fast, `${MEMBERS}/u-ada`, TOKENS.ada)).toBe(false);
    expect(answersFast(fast, '/v1/orgs/o-acme/teams/t-docs/members', TOKENS.ada)).toBe(false);
  });

  it('works with the published client', async () => {
    const { data } = await fast
      .client(TOKENS.cara)
      .orgs.listMembersInOrganizationById('o-acme', { limit: 1000 });
    expect(data.items.map((member) => member.id)).toContain('u-ada');
    expect(data.items[0]).toMatchObject({ object: 'member' });
  });
});

describe('fast member pages after writes', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  const roleOf = async (userId: string, query = '?limit=1000') => {
    const response = await t.request('GET', `${MEMBERS}${query}`, TOKENS.ada);
    const { items } = (await response.json()) as { items: { id: string; role: string | null }[] };
    return items.find((member) => member.id === userId)?.role;
  };

  it('never serves a page from before a write, through the API or from another process', async () => {
    expect(await roleOf('u-cara')).toBe('read');
    expect(answersFast(t, `${MEMBERS}?limit=1000`, TOKENS.ada)).toBe(true);
    // A write through the API.
    await t
      .client(TOKENS.ada)
      .orgs.updateMemberInOrganizationById('o-acme', 'u-cara', { role: 'comment' as never });
    expect(await roleOf('u-cara')).toBe('comment');
    // A write by another process sharing the SQLite file (the admin CLI, say).
    const other = openDatabase(t.server.ctx.db.name);
    try {
      other
        .prepare('UPDATE members SET role = ? WHERE organization_id = ? AND user_id = ?')
        .run('edit', 'o-acme', 'u-cara');
      expect(await roleOf('u-cara')).toBe('edit');
      // A member who leaves is gone from the very next page.
      other
        .prepare('DELETE FROM members WHERE organization_id = ? AND user_id = ?')
        .run('o-acme', 'u-cara');
      expect(await roleOf('u-cara')).toBeUndefined();
    } finally {
      other.close();
    }
    // A ping moves its member to the top of sort=lastSeenAt.
    await t.client(TOKENS.finn).orgs.updateOrganizationMemberLastSeenAt('o-acme');
    const active = await t.request('GET', `${MEMBERS}?sort=lastSeenAt&limit=1`, TOKENS.ada);
    expect(((await active.json()) as { items: { id: string }[] }).items[0]!.id).toBe('u-finn');
    // Access taken away: the reader's cached page goes with it.
    expect((await t.request('GET', MEMBERS, TOKENS.dora)).status).toBe(200);
    await t
      .client(TOKENS.ada)
      .orgs.updateMemberInOrganizationById('o-acme', 'u-dora', { role: null });
    await expectError(await t.request('GET', MEMBERS, TOKENS.dora), 403);
  });
});
