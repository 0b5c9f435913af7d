import { describe, expect, it } from 'vitest';
import {
  RemoteAuthError,
  RemoteHttpError,
  RemoteNotFoundError,
  RemoteProtocolError,
  RemoteRedirectError,
  RemoteUnavailableError,
} from './errors';
import { WorkspaceClient } from './workspace-client';

const ENDPOINT = 'https://api.example.test';

interface Seen {
  url: URL;
  headers: Headers;
}

type Route = (url: URL, headers: Headers) => Response | undefined;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A client over a fake transport that answers like GitBook's API: revisions come without
 * Markdown (so pages are read one by one) and without `files`.
 */
function clientWith(route: Route, options: { pageSize?: number; endpoint?: string } = {}) {
  const seen: Seen[] = [];
  const transport = async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    seen.push({ url, headers });
    return route(url, headers) ?? json({ error: { code: 404, message: 'Not found' } }, 404);
  };
  let now = 1_700_000_000_000;
  const client = new WorkspaceClient({
    endpoint: options.endpoint ?? ENDPOINT,
    token: 'tok-secret',
    fetch: transport as typeof fetch,
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    http: {
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
      random: () => 0.5,
      maxAttempts: 3,
    },
  });
  return { client, seen };
}

const revision = {
  object: 'revision',
  id: 'r1',
  type: 'edits',
  parents: [],
  git: { oid: 'abc' },
  pages: [
    { id: 'p-a', type: 'document', title: 'A', slug: 'a', path: 'a', updatedAt: 't1', pages: [] },
    {
      id: 'p-g',
      type: 'group',
      title: 'G',
      slug: 'g',
      path: 'g',
      pages: [
        {
          id: 'p-b',
          type: 'document',
          title: 'B',
          slug: 'b',
          path: 'b',
          updatedAt: 't2',
          pages: [],
        },
      ],
    },
    { id: 'p-l', type: 'link', title: 'L', target: { kind: 'url', url: 'https://l.test/' } },
  ],
};

function gitbookLike(url: URL): Response | undefined {
  const path = url.pathname;
  if (path === '/v1/spaces/s1/revisions/r1') return json(revision);
  const page = /^\/v1\/spaces\/s1\/revisions\/r1\/page\/([^/]+)$/.exec(path);
  if (page && url.searchParams.get('format') === 'markdown') {
    return json({ id: page[1], type: 'document', title: 'x', markdown: `# ${page[1]}\n` });
  }
  if (path === '/v1/spaces/s1/revisions/r1/files') {
    const second = url.searchParams.get('page') === '2';
    return json({
      items: [
        {
          id: second ? 'f2' : 'f1',
          name: 'x.png',
          contentType: 'image/png',
          size: 1,
          downloadURL: `https://files.example.test/${second ? 'f2' : 'f1'}`,
        },
      ],
      ...(second ? {} : { next: { page: '2' } }),
    });
  }
  return undefined;
}

describe('WorkspaceClient', () => {
  it('sends the token and the user agent to the API, under /v1 once', async () => {
    const { client, seen } = clientWith(
      (url) => (url.pathname === '/v1/user' ? json({ id: 'u1', displayName: 'Ada' }) : undefined),
      { endpoint: `${ENDPOINT}/v1/` },
    );
    expect(await client.whoAmI()).toEqual({ id: 'u1', displayName: 'Ada' });
    expect(seen[0]!.url.href).toBe(`${ENDPOINT}/v1/user`);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok-secret');
  });

  it('maps 401/403 to RemoteAuthError, 404 to RemoteNotFoundError, others to RemoteHttpError', async () => {
    for (const [code, type] of [
      [401, RemoteAuthError],
      [403, RemoteAuthError],
      [404, RemoteNotFoundError],
      [409, RemoteHttpError],
    ] as const) {
      const { client, seen } = clientWith(() =>
        json({ error: { code, message: `nope ${code}` } }, code),
      );
      const error = await client.whoAmI().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect((error as Error).message).toContain(`nope ${code}`);
      expect((error as RemoteHttpError).status).toBe(code);
      expect(seen).toHaveLength(1);
    }
  });

  it('reports a server that keeps failing as RemoteUnavailableError', async () => {
    const { client, seen } = clientWith(() => json({ error: { code: 503, message: 'down' } }, 503));
    await expect(client.listOrganizations()).rejects.toBeInstanceOf(RemoteUnavailableError);
    expect(seen).toHaveLength(3);
  });

  it('follows list pages and leaves out spaces in the trash', async () => {
    const { client, seen } = clientWith(
      (url) => {
        if (url.pathname !== '/v1/orgs/o1/spaces') return undefined;
        const page = url.searchParams.get('page');
        if (!page) {
          return json({
            items: [{ id: 's1', title: 'One', revision: 'r1', organization: 'o1', extra: 1 }],
            next: { page: 'c2' },
            count: 3,
          });
        }
        return json({
          items: [
            { id: 's2', title: 'Two', revision: 'r2', deletedAt: '2025-01-01T00:00:00Z' },
            { id: 's3', title: 'Three', revision: 'r3', parent: 'c1', emoji: '📘' },
          ],
        });
      },
      { pageSize: 1 },
    );
    expect(await client.listSpaces('o1')).toEqual([
      { id: 's1', organization: 'o1', title: 'One', revision: 'r1' },
      { id: 's3', organization: 'o1', title: 'Three', revision: 'r3', parent: 'c1', emoji: '📘' },
    ]);
    expect(seen.map((s) => s.url.search)).toEqual(['?limit=1', '?page=c2&limit=1']);
  });

  it('reads a revision without Markdown page by page, skipping pages it already has', async () => {
    const { client, seen } = clientWith(gitbookLike);
    const result = await client.getRevision('s1', 'r1', new Map([['p-a', 't1']]));
    expect(result.id).toBe('r1');
    const [a, g, l] = result.pages;
    expect(a).toMatchObject({ id: 'p-a', type: 'document' });
    expect(a!.markdown).toBeUndefined();
    expect(g!.type).toBe('group');
    expect(g!.pages[0]).toMatchObject({ id: 'p-b', markdown: '# p-b\n' });
    expect(l).toMatchObject({ id: 'p-l', type: 'link', href: 'https://l.test/', pages: [] });
    expect(result.files.map((file) => file.id)).toEqual(['f1', 'f2']);
    const paths = seen.map((s) => `${s.url.pathname}${s.url.search}`);
    expect(paths[0]).toBe('/v1/spaces/s1/revisions/r1?format=markdown');
    expect(paths).toContain('/v1/spaces/s1/revisions/r1/page/p-b?format=markdown');
    expect(paths.some((p) => p.includes('/page/p-a'))).toBe(false);
    expect(seen).toHaveLength(4);
  });

  it('reads a page again when its updatedAt moved', async () => {
    const { client, seen } = clientWith(gitbookLike);
    const result = await client.getRevision('s1', 'r1', new Map([['p-a', 'older']]));
    expect(result.pages[0]!.markdown).toBe('# p-a\n');
    expect(seen.filter((s) => s.url.pathname.includes('/page/'))).toHaveLength(2);
  });

  it('takes everything from one response when the revision carries Markdown and files', async () => {
    const { client, seen } = clientWith((url) =>
      url.pathname === '/v1/spaces/s1/revisions/r1'
        ? json({
            id: 'r1',
            pages: [{ id: 'p', type: 'document', title: 'P', markdown: '', pages: [] }],
            files: [],
          })
        : undefined,
    );
    const result = await client.getRevision('s1', 'r1');
    expect(result).toEqual({
      id: 'r1',
      pages: [{ id: 'p', type: 'document', title: 'P', markdown: '', pages: [] }],
      files: [],
    });
    expect(seen).toHaveLength(1);
  });

  it('asks again without format when a server rejects it', async () => {
    const { client, seen } = clientWith((url) => {
      if (url.pathname !== '/v1/spaces/s1/revisions/r1') return gitbookLike(url);
      if (url.searchParams.has('format')) {
        return json({ error: { code: 400, message: 'unknown query' } }, 400);
      }
      return json({ ...revision, pages: [revision.pages[0]], files: [] });
    });
    const result = await client.getRevision('s1', 'r1');
    expect(result.pages[0]!.markdown).toBe('# p-a\n');
    expect(seen.map((s) => s.url.search).slice(0, 2)).toEqual(['?format=markdown', '']);
  });

  it('refuses a page read that comes back without Markdown rather than guessing it empty', async () => {
    const { client } = clientWith((url) =>
      url.pathname.includes('/page/')
        ? json({ id: 'p-a', type: 'document', title: 'A' })
        : gitbookLike(url),
    );
    await expect(client.getRevision('s1', 'r1')).rejects.toBeInstanceOf(RemoteProtocolError);
  });

  it('escapes ids in paths', async () => {
    const { client, seen } = clientWith(() => json({ items: [] }));
    await client.listSpaces('a/b?c#d');
    expect(seen[0]!.url.pathname).toBe('/v1/orgs/a%2Fb%3Fc%23d/spaces');
  });

  describe('downloadFile', () => {
    const file = (downloadURL: string, size = 3) => ({
      id: 'f1',
      name: 'x.png',
      contentType: 'image/png',
      size,
      downloadURL,
    });
    const bytes = () => new Response(new Uint8Array([1, 2, 3]), { status: 200 });

    it('sends the token to the endpoint origin only', async () => {
      const { client, seen } = clientWith(() => bytes());
      expect(await client.downloadFile(file(`${ENDPOINT}/v1/files/f1?sig=x`))).toEqual(
        new Uint8Array([1, 2, 3]),
      );
      expect(await client.downloadFile(file('https://files.example.test/f1'))).toEqual(
        new Uint8Array([1, 2, 3]),
      );
      expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok-secret');
      expect(seen[1]!.headers.has('authorization')).toBe(false);
    });

    it('follows redirects of a token-free download, never with the token', async () => {
      const { client, seen } = clientWith((url) => {
        if (url.hostname === 'files.example.test') {
          return new Response(null, {
            status: 302,
            headers: { location: `${ENDPOINT}/v1/other` },
          });
        }
        return bytes();
      });
      expect(await client.downloadFile(file('https://files.example.test/f1'))).toHaveLength(3);
      expect(seen).toHaveLength(2);
      expect(seen[1]!.url.href).toBe(`${ENDPOINT}/v1/other`);
      expect(seen[1]!.headers.has('authorization')).toBe(false);
    });

    it('never follows a redirect of a request that carried the token', async () => {
      const { client, seen } = clientWith(
        () => new Response(null, { status: 307, headers: { location: 'https://evil.test/' } }),
      );
      await expect(client.downloadFile(file(`${ENDPOINT}/v1/files/f1`))).rejects.toBeInstanceOf(
        RemoteRedirectError,
      );
      expect(seen).toHaveLength(1);
    });

    it('caps the size and refuses other schemes', async () => {
      const { client, seen } = clientWith(() => bytes());
      await expect(
        client.downloadFile(file('https://files.example.test/big', 200 * 1024 * 1024)),
      ).rejects.toBeInstanceOf(RemoteProtocolError);
      await expect(client.downloadFile(file('file:///etc/passwd'))).rejects.toBeInstanceOf(
        RemoteProtocolError,
      );
      expect(seen).toHaveLength(0);
    });

    it('refuses a download URL whose dot segments would make it resolve elsewhere', async () => {
      const { client, seen } = clientWith(() => bytes());
      // What a server building `/files/<id>/<blob>/<name>` makes of the names `..` and `.`.
      for (const url of [
        `${ENDPOINT}/v1/files/s1/f1/b1/..?type=image%2Fpng&sig=x`,
        `${ENDPOINT}/v1/files/s1/f1/b1/.?sig=x`,
        `${ENDPOINT}/v1/files/s1/f1/b1/%2E%2e`,
        `${ENDPOINT}/v1/files/s1/f1/.%2E/b1`,
        `${ENDPOINT}/v1/files\\..\\f1`,
        '/v1/files/s1/../f1',
      ]) {
        const refused = client.downloadFile(file(url));
        await expect(refused, url).rejects.toBeInstanceOf(RemoteProtocolError);
        await expect(refused).rejects.toThrow(/resolve elsewhere/);
        await expect(refused).rejects.not.toThrow(/sig=/);
        // The URL as the server sent it (parsed, it would show where it resolves instead).
        await expect(refused).rejects.toThrow(url.split('?')[0]!);
      }
      expect(seen).toHaveLength(0);
      // Dots inside a segment are an ordinary name.
      for (const url of [
        `${ENDPOINT}/v1/files/s1/f1/b1/...`,
        `${ENDPOINT}/v1/files/s1/f1/b1/..png`,
        `${ENDPOINT}/v1/files/s1/f1/b1/x.png?next=../..`,
      ]) {
        expect(await client.downloadFile(file(url)), url).toHaveLength(3);
      }
    });

    it('refuses a redirect to a URL with dot segments', async () => {
      const { client, seen } = clientWith((url) =>
        url.hostname === 'files.example.test'
          ? new Response(null, { status: 302, headers: { location: '/a/../v1/secret' } })
          : bytes(),
      );
      await expect(
        client.downloadFile(file('https://files.example.test/f1')),
      ).rejects.toBeInstanceOf(RemoteProtocolError);
      expect(seen).toHaveLength(1);
    });

    it('maps a failed download to a typed error', async () => {
      const { client } = clientWith(() => new Response('gone', { status: 404 }));
      await expect(
        client.downloadFile(file('https://files.example.test/f1')),
      ).rejects.toBeInstanceOf(RemoteNotFoundError);
    });
  });
});
