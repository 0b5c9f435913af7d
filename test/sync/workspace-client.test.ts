import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteAuthError, RemoteNotFoundError } from '../../src/main/remote/errors';
import {
  WorkspaceClient,
  type WorkspaceClientOptions,
} from '../../src/main/remote/workspace-client';
import { ManualClock } from '../../src/server/clock';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { PNG_BASE64, TOKENS, contentFixture } from '../support/test-fixture';

/** Every request the client put on the wire, and the status it got. */
interface Wire {
  method: string;
  url: URL;
  headers: Headers;
  status: number;
}

/** The real fetch, recording each request; `rewrite` may change the URL before it goes out. */
function recordingFetch(wire: Wire[], rewrite: (url: URL) => URL = (url) => url): typeof fetch {
  return async (input, init = {}) => {
    const url = rewrite(new URL(String(input instanceof Request ? input.url : input)));
    const response = await fetch(url, init);
    wire.push({
      method: init.method ?? 'GET',
      url,
      headers: new Headers(init.headers),
      status: response.status,
    });
    return response;
  };
}

describe('WorkspaceClient against the real server', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ fixture: contentFixture() });
  });
  afterAll(async () => {
    await t.close();
  });

  function client(
    token: string = TOKENS.ada,
    extra: Partial<WorkspaceClientOptions> = {},
    rewrite?: (url: URL) => URL,
  ) {
    const wire: Wire[] = [];
    const remote = new WorkspaceClient({
      endpoint: t.url,
      token,
      fetch: recordingFetch(wire, rewrite),
      ...extra,
    });
    return { remote, wire };
  }

  it('whoAmI names the token’s user', async () => {
    const { remote, wire } = client();
    expect(await remote.whoAmI()).toEqual({
      id: 'u-ada',
      displayName: 'Ada Lovelace',
      email: 'ada@acme.test',
    });
    expect(wire[0]!.url.pathname).toBe('/v1/user');
    expect(wire[0]!.headers.get('authorization')).toBe(`Bearer ${TOKENS.ada}`);
  });

  it('a wrong token is a RemoteAuthError, not retried', async () => {
    const { remote, wire } = client('tok-wrong');
    await expect(remote.whoAmI()).rejects.toBeInstanceOf(RemoteAuthError);
    expect(wire).toHaveLength(1);
  });

  it('lists organizations', async () => {
    const { remote } = client();
    expect(await remote.listOrganizations()).toEqual([{ id: 'o-acme', title: 'Acme' }]);
    const eve = client(TOKENS.eve).remote;
    expect(await eve.listOrganizations()).toEqual([{ id: 'o-other', title: 'Other Corp' }]);
  });

  it('lists an organization’s spaces in one request, each with its revision', async () => {
    const { remote, wire } = client();
    const spaces = await remote.listSpaces('o-acme');
    expect(spaces.map((space) => space.id).sort()).toEqual([
      's-api',
      's-handbook',
      's-media',
      's-secret',
    ]);
    for (const space of spaces) {
      expect(space.organization).toBe('o-acme');
      expect(space.revision).toMatch(/\S/);
    }
    expect(spaces.find((space) => space.id === 's-handbook')).toMatchObject({
      title: 'Handbook',
      emoji: '📘',
    });
    expect(wire).toHaveLength(1);
    expect(wire[0]!.url.searchParams.get('limit')).toBe('1000');
  });

  it('follows next.page across several pages', async () => {
    const { remote, wire } = client(TOKENS.ada, { pageSize: 1 });
    const paged = await remote.listSpaces('o-acme');
    const whole = await client().remote.listSpaces('o-acme');
    expect(paged).toEqual(whole);
    expect(wire).toHaveLength(4);
    expect(wire[0]!.url.searchParams.has('page')).toBe(false);
    for (const request of wire.slice(1)) expect(request.url.searchParams.get('page')).toBeTruthy();
  });

  it('an organization the token cannot see is a typed error', async () => {
    const { remote } = client(TOKENS.eve);
    const error = await remote.listSpaces('o-acme').catch((e: unknown) => e);
    expect(error instanceof RemoteAuthError || error instanceof RemoteNotFoundError).toBe(true);
  });

  async function revisionOf(spaceId: string): Promise<string> {
    const spaces = await client().remote.listSpaces('o-acme');
    return spaces.find((space) => space.id === spaceId)!.revision;
  }

  it('reads a revision with every page’s Markdown in one request', async () => {
    const revision = await revisionOf('s-handbook');
    const { remote, wire } = client();
    const result = await remote.getRevision('s-handbook', revision);
    expect(result.id).toBe(revision);
    const [welcome, guides] = result.pages;
    expect(welcome).toMatchObject({ id: 'p-welcome', type: 'document', title: 'Welcome' });
    expect(welcome!.markdown).toBe('# Welcome\n\nHello.\n');
    expect(guides!.pages[0]).toMatchObject({ id: 'p-setup', markdown: '# Setup\n\nInstall it.\n' });
    expect(wire).toHaveLength(1);
    expect(wire[0]!.url.searchParams.get('format')).toBe('markdown');
  });

  it('falls back to per-page reads of changed pages on a server without the one-request read', async () => {
    const revision = await revisionOf('s-handbook');
    // Drop `format` from revision reads: the server then answers as GitBook does, without Markdown.
    const { remote, wire } = client(TOKENS.ada, {}, (url) => {
      if (/\/revisions\/[^/]+$/.test(url.pathname)) url.searchParams.delete('format');
      return url;
    });
    const first = await remote.getRevision('s-handbook', revision);
    const welcome = first.pages[0]!;
    expect(welcome.markdown).toBe('# Welcome\n\nHello.\n');
    expect(wire).toHaveLength(4);

    wire.length = 0;
    const known = new Map([[welcome.id, welcome.updatedAt!]]);
    const second = await remote.getRevision('s-handbook', revision, known);
    expect(second.pages[0]!.markdown).toBeUndefined();
    expect(second.pages[1]!.markdown).toBe('# Guides\n');
    expect(wire).toHaveLength(3);
    expect(wire.some((request) => request.url.pathname.endsWith('/p-welcome'))).toBe(false);
  });

  it('normalises every page type and lists files with their download URLs', async () => {
    const revision = await revisionOf('s-media');
    const { remote } = client();
    const result = await remote.getRevision('s-media', revision);
    expect(result.pages.map((page) => [page.id, page.type])).toEqual([
      ['p-media-home', 'document'],
      ['p-media-group', 'group'],
      ['p-media-link', 'link'],
    ]);
    expect(result.pages[1]!.markdown).toBeUndefined();
    expect(result.pages[1]!.pages[0]!.markdown).toContain('See [home]');
    expect(result.pages[2]!.href).toBe('https://example.com/');
    expect(result.files.map((file) => file.id).sort()).toEqual(['f-diagram', 'f-report']);
    const diagram = result.files.find((file) => file.id === 'f-diagram')!;
    expect(diagram).toMatchObject({
      name: 'diagram.png',
      contentType: 'image/png',
      dimensions: { width: 1, height: 1 },
    });
  });

  it('downloads a file’s bytes', async () => {
    const revision = await revisionOf('s-media');
    const { remote, wire } = client();
    const { files } = await remote.getRevision('s-media', revision);
    wire.length = 0;
    const png = await remote.downloadFile(files.find((file) => file.id === 'f-diagram')!);
    expect(Buffer.from(png).toString('base64')).toBe(PNG_BASE64);
    const report = files.find((file) => file.id === 'f-report')!;
    expect(new TextDecoder().decode(await remote.downloadFile(report))).toBe(
      '%PDF-1.4\n% not really\n',
    );
    expect(wire).toHaveLength(2);
    expect(wire.every((request) => request.status === 200)).toBe(true);
  });

  it('an unknown space or revision is RemoteNotFoundError', async () => {
    const { remote } = client();
    await expect(remote.getRevision('s-nope', 'r-nope')).rejects.toBeInstanceOf(
      RemoteNotFoundError,
    );
  });

  it('sends per-call headers, so the same Idempotency-Key replays the same write', async () => {
    const { remote, wire } = client();
    const create = () =>
      remote.call((api) =>
        api.orgs.createSpace(
          'o-acme',
          { title: 'Idempotent' },
          { headers: { 'Idempotency-Key': 'key-space-1' } },
        ),
      );
    const first = await create();
    const second = await create();
    expect(second.id).toBe(first.id);
    expect(wire.map((request) => request.headers.get('idempotency-key'))).toEqual([
      'key-space-1',
      'key-space-1',
    ]);
  });
});

describe('WorkspaceClient pacing against a rate-limited server', () => {
  it('completes 10 calls against a 3-per-minute limit without surfacing a 429', async () => {
    const clock = new ManualClock();
    const t = await startTestServer({ clock, config: { rateLimitMax: 3 } });
    try {
      const wire: Wire[] = [];
      const slept: number[] = [];
      const remote = new WorkspaceClient({
        endpoint: t.url,
        token: TOKENS.ada,
        fetch: recordingFetch(wire),
        http: {
          now: () => clock.now().getTime(),
          // Waiting moves the server's clock: the 60 s window passes without a real wait.
          sleep: async (ms) => {
            slept.push(ms);
            clock.advance(ms);
          },
        },
      });
      for (let i = 0; i < 10; i++) expect((await remote.whoAmI()).id).toBe('u-ada');
      expect(wire).toHaveLength(10);
      expect(wire.every((request) => request.status === 200)).toBe(true);
      expect(slept.length).toBeGreaterThanOrEqual(3);

      // Concurrent callers: a few may meet a 429 in flight, but every call completes.
      wire.length = 0;
      const results = await Promise.all(Array.from({ length: 10 }, () => remote.whoAmI()));
      expect(results.every((user) => user.id === 'u-ada')).toBe(true);
      expect(wire.filter((request) => request.status === 200)).toHaveLength(10);
    } finally {
      await t.close();
    }
  });
});
