import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequest, RevisionPage } from '@gitbook/api';
import { nodeTransport, type Transport } from '../../src/server/content/safe-url-fetch';
import { urlFetcherFor } from '../../src/server/resources/change-requests/url-fetcher';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

/** A local site on 127.0.0.1 (the only address these tests ever connect to). */
let site: Server;
let siteUrl: string;
const hits: string[] = [];

const MARKDOWN =
  '# Release notes\n\nWhat changed:\n\n- faster\n- [docs](https://example.com/docs)\n';
const HTML = `<!doctype html><html><head><title>Install guide</title>
<style>body { color: red }</style><script>alert(1)</script></head>
<body><h1>Install &amp; run</h1><p>Run <code>npm i</code> then <a href="/start">start</a>.</p>
<ul><li>one</li><li>two <strong>bold</strong></li></ul>
<pre><code class="language-sh">npm test
</code></pre></body></html>`;
const WEBSITE = `<html><head><title>Site page</title></head><body>
<nav><a href="/">Home</a><a href="/about">About</a></nav>
<header><p>Site header</p></header>
<main><h1>Main title</h1><p>Main text.</p></main>
<footer>Copyright</footer></body></html>`;

beforeAll(async () => {
  site = createServer((request, response) => {
    hits.push(request.url ?? '');
    const send = (type: string, body: string | Buffer, status = 200) => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    };
    switch (request.url) {
      case '/notes.md':
        return send('text/markdown; charset=utf-8', MARKDOWN);
      case '/plain':
        return send('text/plain', 'Just text, no heading.\n');
      case '/guide.html':
        return send('text/html; charset=utf-8', HTML);
      case '/site.html':
        return send('text/html', WEBSITE);
      case '/redirect':
        response.writeHead(302, { location: '/notes.md' });
        return response.end();
      case '/huge':
        return send('text/plain', Buffer.alloc(6 * 1024 * 1024, 0x61));
      case '/binary':
        return send('application/octet-stream', Buffer.from([0x89, 0x00, 0x01]));
      default:
        return send('text/plain', 'not found', 404);
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

async function newChangeRequest(t: TestServer): Promise<ChangeRequest> {
  return (await t.client(TOKENS.dora).spaces.createChangeRequest('s-handbook', { subject: 'Imp' }))
    .data;
}

const importPath = (cr: ChangeRequest) =>
  `/v1/spaces/s-handbook/change-requests/${cr.id}/content/import`;

describe('content import without --allow-private-urls', () => {
  let t: TestServer;
  const connections: string[] = [];
  beforeAll(async () => {
    t = await startTestServer();
    // Every connection the server would make is recorded; the real transport is still used.
    urlFetcherFor(t.server.ctx).transport = (request) => {
      connections.push(`${request.url.href} -> ${request.addresses.map((a) => a.address).join()}`);
      return nodeTransport(request);
    };
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses loopback, private, link-local and disguised addresses without connecting', async () => {
    const cr = await newChangeRequest(t);
    const port = siteUrl.split(':').pop();
    const corpus: [string, RegExp][] = [
      ['http://127.0.0.1/', /loopback/],
      [`http://127.0.0.1:${port}/notes.md`, /loopback/],
      ['http://[::1]/', /loopback/],
      ['http://10.0.0.1/', /private/],
      ['http://192.168.1.1/', /private/],
      ['http://172.16.0.1/', /private/],
      ['http://169.254.169.254/latest/meta-data/', /link-local/],
      ['http://2130706433/', /loopback/], // 127.0.0.1 as one decimal number
      ['http://0177.0.0.1/', /loopback/], // octal
      ['http://0x7f.0.0.1/', /loopback/], // hexadecimal
      ['http://127.1/', /loopback/], // shorthand
      ['http://[::ffff:127.0.0.1]/', /loopback/], // IPv4-mapped IPv6
      ['http://0.0.0.0/', /unspecified/],
      [`http://localhost:${port}/notes.md`, /loopback/],
    ];
    for (const [url, reason] of corpus) {
      const response = await t.request('POST', importPath(cr), TOKENS.dora, {
        url,
        source: 'markdown',
      });
      const message = await expectError(response, 400);
      expect(message, url).toMatch(/body\.url/);
      expect(message, url).toMatch(reason);
    }
    expect(connections).toEqual([]);
    expect(hits).toEqual([]);
    const { data } = await t.client(TOKENS.dora).spaces.getChangeRequestById('s-handbook', cr.id);
    expect(data.revision).toBe(cr.revision);
  });

  it('refuses a redirect to loopback, re-vetting every hop', async () => {
    const cr = await newChangeRequest(t);
    const fetcher = urlFetcherFor(t.server.ctx);
    const previous = { lookup: fetcher.lookup, transport: fetcher.transport };
    const seen: string[] = [];
    // A public host (resolved by a stand-in resolver) that redirects to the local site; the
    // stand-in transport answers the first hop, so nothing leaves this machine.
    fetcher.lookup = async () => [{ address: '93.184.216.34', family: 4 }];
    const redirector: Transport = async (request) => {
      seen.push(`${request.url.href} -> ${request.addresses.map((a) => a.address).join()}`);
      return {
        status: 302,
        headers: { location: `${siteUrl}/notes.md` },
        body: Readable.from([]),
      };
    };
    fetcher.transport = redirector;
    try {
      const response = await t.request('POST', importPath(cr), TOKENS.dora, {
        url: 'http://docs.example.com/start',
        source: 'markdown',
      });
      expect(await expectError(response, 400)).toMatch(/loopback address \(127\.0\.0\.1\)/);
      expect(seen).toEqual(['http://docs.example.com/start -> 93.184.216.34']);
      expect(hits).toEqual([]);
    } finally {
      fetcher.lookup = previous.lookup;
      fetcher.transport = previous.transport;
    }
  });

  it('refuses unsupported sources and invalid URLs with 400 naming the field', async () => {
    const cr = await newChangeRequest(t);
    const post = (body: unknown) => t.request('POST', importPath(cr), TOKENS.dora, body);
    expect(
      await expectError(await post({ url: 'https://example.com/a.docx', source: 'docx' }), 400),
    ).toMatch(/body\.source .*docx.*markdown, html, website/);
    expect(await expectError(await post({ url: 'not a url', source: 'markdown' }), 400)).toMatch(
      /body\.url/,
    );
    expect(await expectError(await post({ source: 'markdown' }), 400)).toMatch(/url/);
    expect(await expectError(await post({ url: 'https://example.com/' }), 400)).toMatch(/source/);
    expect(
      await expectError(
        await post({ url: `https://example.com/${'a'.repeat(2048)}`, source: 'html' }),
        400,
      ),
    ).toMatch(/body\.url.*2048/);
    expect(
      await expectError(await post({ url: 'ftp://example.com/a.md', source: 'markdown' }), 400),
    ).toMatch(/body\.url must use http or https/);
  });

  it('answers 401, 404, 403 and 409', async () => {
    const cr = await newChangeRequest(t);
    const body = { url: 'https://example.com/', source: 'website' };
    await expectError(await t.request('POST', importPath(cr), null, body), 401);
    await expectError(await t.request('POST', importPath(cr), TOKENS.eve, body), 404);
    await expectError(
      await t.request(
        'POST',
        '/v1/spaces/s-handbook/change-requests/nope/content/import',
        TOKENS.dora,
        body,
      ),
      404,
    );
    await expectError(await t.request('POST', importPath(cr), TOKENS.cara, body), 403);
    await t
      .client(TOKENS.dora)
      .spaces.updateChangeRequestById('s-handbook', cr.id, { status: 'archived' });
    await expectError(await t.request('POST', importPath(cr), TOKENS.dora, body), 409);
    expect(connections).toEqual([]);
  });
});

describe('content import with --allow-private-urls', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ config: { allowPrivateUrls: true } });
  });
  afterAll(async () => {
    await t.close();
  });

  const importFrom = async (cr: ChangeRequest, path: string, source: string) =>
    t.request('POST', importPath(cr), TOKENS.dora, { url: `${siteUrl}${path}`, source });

  const pageNamed = async (cr: ChangeRequest, title: string) => {
    const { data } = await t
      .client(TOKENS.dora)
      .spaces.listPagesInChangeRequest('s-handbook', cr.id);
    const page = data.pages.find((candidate) => candidate.title === title);
    if (!page) throw new Error(`no page ${title} in ${data.pages.map((p) => p.title).join()}`);
    const full = await t
      .client(TOKENS.dora)
      .spaces.getPageInChangeRequestById('s-handbook', cr.id, page.id, { format: 'markdown' });
    return full.data as RevisionPage & { markdown: string; path?: string };
  };

  it('imports a Markdown page exactly, as a new revision of the change request', async () => {
    const cr = await newChangeRequest(t);
    const response = await importFrom(cr, '/notes.md', 'markdown');
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      revision: expect.any(String),
      importedResources: 1,
      totalResources: 1,
    });
    const { data } = await t.client(TOKENS.dora).spaces.getChangeRequestById('s-handbook', cr.id);
    expect(data.revision).toBe(body['revision']);
    const page = await pageNamed(cr, 'Release notes');
    expect(page.markdown).toBe(MARKDOWN);
    expect(page.path).toBe('release-notes');

    // The same page again gets a slug of its own; redirects are followed.
    expect((await importFrom(cr, '/redirect', 'markdown')).status).toBe(201);
    const { data: pages } = await t
      .client(TOKENS.dora)
      .spaces.listPagesInChangeRequest('s-handbook', cr.id);
    expect(
      pages.pages
        .filter((p) => p.title === 'Release notes')
        .map((p) => ('path' in p ? p.path : undefined)),
    ).toEqual(['release-notes', 'release-notes-2']);
    // Without a heading, the title comes from the URL.
    expect((await importFrom(cr, '/plain', 'markdown')).status).toBe(201);
    expect((await pageNamed(cr, 'plain')).markdown).toBe('Just text, no heading.\n');
  });

  it('converts HTML to Markdown (html: the whole body; website: the main content)', async () => {
    const cr = await newChangeRequest(t);
    expect((await importFrom(cr, '/guide.html', 'html')).status).toBe(201);
    const guide = await pageNamed(cr, 'Install & run');
    expect(guide.markdown).toBe(
      [
        '# Install & run',
        '',
        `Run \`npm i\` then [start](${siteUrl}/start).`,
        '',
        '- one',
        '- two **bold**',
        '',
        '```sh',
        'npm test',
        '```',
        '',
      ].join('\n'),
    );
    expect((await importFrom(cr, '/site.html', 'website')).status).toBe(201);
    const page = await pageNamed(cr, 'Main title');
    expect(page.markdown).toBe('# Main title\n\nMain text.\n');
  });

  it('reports the remote status, the size limit and non-text answers as 400', async () => {
    const cr = await newChangeRequest(t);
    expect(await expectError(await importFrom(cr, '/missing', 'markdown'), 400)).toMatch(
      /body\.url answered HTTP 404/,
    );
    expect(await expectError(await importFrom(cr, '/huge', 'markdown'), 400)).toMatch(
      /body\.url.*5242880-byte limit/,
    );
    expect(await expectError(await importFrom(cr, '/binary', 'markdown'), 400)).toMatch(
      /body\.url did not answer with text/,
    );
  });

  it('fetches insert_files URLs from a private address when allowed', async () => {
    const cr = await newChangeRequest(t);
    const { data } = await t.client(TOKENS.dora).spaces.updateChangeRequestContent(
      's-handbook',
      cr.id,
      {
        changes: [
          {
            operation: 'insert_files',
            files: [{ name: 'notes.md', url: `${siteUrl}/notes.md` }],
          },
        ],
      },
      { compat: false },
    );
    const files = (data as { insertedFiles?: { contentType: string; size: number }[] })
      .insertedFiles;
    expect(files).toEqual([
      expect.objectContaining({ contentType: 'text/markdown', size: Buffer.byteLength(MARKDOWN) }),
    ]);
  });
});
