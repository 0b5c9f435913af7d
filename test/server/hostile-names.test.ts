import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequest, ChangeRequestContentChange } from '@gitbook/api';
import { wellFormed } from '../../src/server/content/page-serializer';
import { RevisionStore } from '../../src/server/content/revision-store';
import type { RevisionTree } from '../../src/server/content/revision-tree';
import { validateFixture } from '../../src/server/fixture/load-fixture';
import { MAX_PAGE_TITLE_LENGTH } from '../../src/server/http/text-schemas';
import { expectError, startTestServer, type TestServer } from '../support/start-test-server';
import { PNG_BASE64, TOKENS, testFixture } from '../support/test-fixture';

let t: TestServer;
let site: Server;
let siteUrl: string;
/** What the local site answers for `/page.md`, set by each import test. */
let sitePage = '';

beforeAll(async () => {
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
    response.end(sitePage);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push(
    { id: 's-legacy', title: 'Legacy', pages: [] },
    { id: 's-legacy-pages', title: 'Legacy pages', pages: [] },
  );
  t = await startTestServer({ fixture, config: { allowPrivateUrls: true } });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

const CONTROLS = ['\u0000', '\u0007', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f'];

async function newChangeRequest(): Promise<ChangeRequest> {
  const { data } = await t
    .client(TOKENS.dora)
    .spaces.createChangeRequest('s-handbook', { subject: 'Hostile' });
  return data;
}

async function revisionOf(cr: ChangeRequest): Promise<string> {
  const { data } = await t.client(TOKENS.dora).spaces.getChangeRequestById(cr.space, cr.id);
  return data.revision;
}

/** Sends the changes raw (the client would refuse some bodies), expects 400, returns the message. */
async function refused(cr: ChangeRequest, changes: unknown[]): Promise<string> {
  const before = await revisionOf(cr);
  const response = await t.request(
    'POST',
    `/v1/spaces/${cr.space}/change-requests/${cr.id}/content`,
    TOKENS.dora,
    { changes },
  );
  const message = await expectError(response, 400);
  // Nothing was stored: the change request still points at the same revision.
  expect(await revisionOf(cr)).toBe(before);
  return message;
}

async function accepted(cr: ChangeRequest, changes: ChangeRequestContentChange[]): Promise<void> {
  await t
    .client(TOKENS.dora)
    .spaces.updateChangeRequestContent(cr.space, cr.id, { changes }, { compat: false });
}

const insertPage = (fields: Record<string, unknown>, markdown = 'Text.\n') => ({
  operation: 'insert_page',
  ...fields,
  document: { markdown },
});

const file = (name: string) => ({ name, contentType: 'image/png', base64: PNG_BASE64 });

describe('file names', () => {
  it('refuses ".", "..", separators and control characters, naming the file', async () => {
    const cr = await newChangeRequest();
    const cases: [string, RegExp][] = [
      ['.', /not "\." or "\.\."/],
      ['..', /not "\." or "\.\."/],
      ['a/b', /"\/"/],
      ['a\\b', /"\\"/],
      ['a\ud800b', /unpaired surrogates/],
      ...CONTROLS.map((c): [string, RegExp] => [`x${c}.png`, /control characters/]),
    ];
    for (const [name, rule] of cases) {
      const message = await refused(cr, [
        { operation: 'insert_files', files: [file('fine.png'), file(name)] },
      ]);
      expect(message).toMatch(/^body\.changes\.0\.files\.1\.name must be a file name: /);
      expect(message).toMatch(rule);
    }
    // Dots inside a name, or three of them, are ordinary names.
    await accepted(cr, [
      { operation: 'insert_files', files: [file('...'), file('.hidden'), file('a..b.png')] },
    ]);
  });

  it('refuses the same names in a fixture, naming the field and the rule', () => {
    const fixture = testFixture();
    fixture.organizations[0]!.spaces![0]!.files = [file('..')];
    expect(() => validateFixture(fixture)).toThrow(
      'Invalid fixture: /organizations/0/spaces/0/files/0/name must be a file name: not "." or ".."',
    );
    fixture.organizations[0]!.spaces![0]!.files = [];
    fixture.organizations[0]!.spaces![0]!.pages = [{ title: 'x', slug: '' }];
    expect(() => validateFixture(fixture)).toThrow(/pages\/0\/slug/);
  });
});

describe('download URLs of any stored name', () => {
  /** Names a database may hold from before names were checked, and hostile but valid ones. */
  const NAMES = [
    '.',
    '..',
    '%2e%2e',
    '.%2e',
    'a/b',
    '..\\..\\x',
    '?x',
    '#y',
    '  spaced  name .png',
    'ünïcødé 文件 😀.png',
    '%',
    '%%25',
    'a+b&c=d;e',
    'x\u0000y',
    'half \ud800 pair',
    'L'.repeat(1000),
    '😀'.repeat(256),
  ];

  it('each downloadURL and every listing of it fetches its own file, under its own name', async () => {
    // Written as an older server may have stored them: straight into a revision.
    const store = new RevisionStore(t.db);
    const now = new Date().toISOString();
    const files = NAMES.map((name, i) => {
      const bytes = Buffer.from(`file number ${i}`);
      return {
        id: `f-${i}`,
        name,
        contentType: 'text/plain',
        size: bytes.length,
        blob: store.putBlob(bytes),
        createdAt: now,
      };
    });
    const tree: RevisionTree = { pages: [], files };
    const revision = store.create('s-legacy', tree, [], 'edits', now);
    t.db.prepare('UPDATE spaces SET revision_id = ? WHERE id = ?').run(revision, 's-legacy');

    const { data } = await t.client(TOKENS.ada).spaces.listFiles('s-legacy', { limit: 100 });
    expect(data.items).toHaveLength(NAMES.length);
    const content = await t.request('GET', '/v1/spaces/s-legacy/content', TOKENS.ada);
    const revisionFiles = (
      (await content.json()) as { files: { id: string; downloadURL: string }[] }
    ).files;
    for (const [i, name] of NAMES.entries()) {
      const listed = data.items.find((item) => item.id === `f-${i}`)!;
      const inRevision = revisionFiles.find((item) => item.id === `f-${i}`)!;
      expect(inRevision.downloadURL).toBe(listed.downloadURL);
      // The URL a client builds from the string is the URL the server made.
      const url = new URL(listed.downloadURL);
      expect(url.href).toBe(listed.downloadURL);
      const response = await fetch(url);
      expect(response.status, `${JSON.stringify(name)} → ${url.href}`).toBe(200);
      expect(await response.text()).toBe(`file number ${i}`);
      const disposition = response.headers.get('content-disposition') ?? '';
      const encoded = /filename\*=UTF-8''(.*)$/.exec(disposition)?.[1] ?? '';
      expect(decodeURIComponent(encoded)).toBe(wellFormed(name));
    }
  });
});

describe('page URLs of any stored slug', () => {
  it('percent-encodes a slug stored before slugs were checked, so urls.app names its page', async () => {
    const store = new RevisionStore(t.db);
    const now = new Date().toISOString();
    const slugs = ['?x', '#y', 'a b', 'ünï', '%', 'fine-slug'];
    const tree: RevisionTree = {
      pages: slugs.map((slug, i) => ({
        id: `p-old-${i}`,
        type: 'document' as const,
        title: `Old ${i}`,
        slug,
        documentId: `d-old-${i}`,
        createdAt: now,
        updatedAt: now,
        pages: [],
      })),
      files: [],
    };
    const revision = store.create('s-legacy-pages', tree, [], 'edits', now);
    t.db.prepare('UPDATE spaces SET revision_id = ? WHERE id = ?').run(revision, 's-legacy-pages');
    const { data } = await t.client(TOKENS.ada).spaces.listPages('s-legacy-pages');
    for (const [i, slug] of slugs.entries()) {
      const page = data.pages.find((item) => item.id === `p-old-${i}`)!;
      const app = (page as { urls: { app: string } }).urls.app;
      const url = new URL(app);
      expect(url.search, app).toBe('');
      expect(url.hash, app).toBe('');
      expect(decodeURIComponent(url.pathname.split('/').pop()!)).toBe(slug);
    }
  });
});

describe('page titles', () => {
  it(`accepts ${MAX_PAGE_TITLE_LENGTH} characters and refuses one more, as a field or from the Markdown`, async () => {
    const cr = await newChangeRequest();
    const longest = 'é'.repeat(MAX_PAGE_TITLE_LENGTH);
    await accepted(cr, [{ operation: 'insert_page', title: longest, document: { markdown: '' } }]);
    expect(await refused(cr, [insertPage({ title: `${longest}x` })])).toBe(
      `body.changes.0.title must NOT have more than ${MAX_PAGE_TITLE_LENGTH} characters`,
    );
    const huge = 'T'.repeat(1_000_000);
    expect(await refused(cr, [insertPage({}, `# ${huge}\n\nBody.\n`)])).toBe(
      `body.changes.0.document.markdown: the page title it sets (frontmatter "title" or the leading "# Heading") must NOT have more than ${MAX_PAGE_TITLE_LENGTH} characters`,
    );
    expect(await refused(cr, [insertPage({}, `---\ntitle: ${huge}\n---\nBody.\n`)])).toMatch(
      /^body\.changes\.0\.document\.markdown: the page title it sets .* must NOT have more than/,
    );
  });

  it('refuses control characters in titles, on insert and on update', async () => {
    const cr = await newChangeRequest();
    for (const control of CONTROLS) {
      expect(await refused(cr, [insertPage({ title: `a${control}b` })])).toBe(
        'body.changes.0.title must not contain control characters (U+0000–U+001F, U+007F–U+009F) or unpaired surrogates',
      );
    }
    expect(
      await refused(cr, [{ operation: 'update_page', page: 'p-welcome', title: 'bell\u0007' }]),
    ).toMatch(/^body\.changes\.0\.title must not contain control characters/);
    // Through YAML, whose double-quoted strings can spell any character.
    expect(await refused(cr, [insertPage({}, '---\ntitle: "a\\u0000b"\n---\nBody.\n')])).toMatch(
      /^body\.changes\.0\.document\.markdown: the page title it sets .* must not contain control characters/,
    );
  });

  it('refuses a too-long title an import would set, naming body.url', async () => {
    const cr = await newChangeRequest();
    const path = `/v1/spaces/s-handbook/change-requests/${cr.id}/content/import`;
    sitePage = `# ${'T'.repeat(MAX_PAGE_TITLE_LENGTH + 1)}\n\nImported.\n`;
    const before = await revisionOf(cr);
    const message = await expectError(
      await t.request('POST', path, TOKENS.dora, {
        url: `${siteUrl}/page.md`,
        source: 'markdown',
      }),
      400,
    );
    expect(message).toMatch(/^body\.url: the imported page's title .* must NOT have more than/);
    expect(await revisionOf(cr)).toBe(before);
  });
});

describe('slugs', () => {
  it('refuses an empty slug and slugs no path can reach', async () => {
    const cr = await newChangeRequest();
    expect(await refused(cr, [insertPage({ title: 'Empty slug', slug: '' })])).toBe(
      'body.changes.0.slug must NOT have fewer than 1 characters',
    );
    for (const slug of ['.', '..', 'a/b', '-lead', 'sp ace']) {
      expect(await refused(cr, [insertPage({ title: 'Bad slug', slug })])).toBe(
        'body.changes.0.slug must start with a letter or digit and hold only letters, digits, ".", "_" and "-"',
      );
    }
    expect(await refused(cr, [{ operation: 'update_page', page: 'p-welcome', slug: '' }])).toMatch(
      /^body\.changes\.0\.slug /,
    );
  });
});

describe('other names and titles', () => {
  const controlled = 'nul\u0000 inside';

  it('refuses control characters in space, collection, team and organization titles', async () => {
    const cases: [string, string, unknown, RegExp][] = [
      ['PATCH', '/v1/spaces/s-handbook', { title: controlled }, /^body\.title /],
      ['POST', '/v1/orgs/o-acme/spaces', { title: 'ok', emoji: 'x\u0007' }, /^body\.emoji /],
      ['POST', '/v1/orgs/o-acme/collections', { title: controlled }, /^body\.title /],
      ['PUT', '/v1/orgs/o-acme/teams', { title: controlled }, /^body\.title /],
      ['PATCH', '/v1/orgs/o-acme', { title: controlled }, /^body\.title /],
    ];
    for (const [method, path, body, field] of cases) {
      const message = await expectError(await t.request(method, path, TOKENS.ada, body), 400);
      expect(message).toMatch(field);
      expect(message).toMatch(/must not contain control characters/);
    }
    expect((await t.client(TOKENS.ada).spaces.getSpaceById('s-handbook')).data.title).not.toMatch(
      /nul/,
    );
    expect((await t.client(TOKENS.ada).orgs.getOrganizationById('o-acme')).data.title).toBe('Acme');
  });

  it('refuses them in change-request subjects and custom field titles', async () => {
    const cr = await newChangeRequest();
    const message = await expectError(
      await t.request('PATCH', `/v1/spaces/s-handbook/change-requests/${cr.id}`, TOKENS.dora, {
        subject: controlled,
      }),
      400,
    );
    expect(message).toMatch(/^body\.subject must not contain control characters/);
    expect(
      (await t.client(TOKENS.dora).spaces.getChangeRequestById('s-handbook', cr.id)).data.subject,
    ).toBe('Hostile');

    const field = await expectError(
      await t.request('POST', '/v1/orgs/o-acme/custom-fields', TOKENS.ada, {
        name: 'hostile',
        type: 'text',
        title: controlled,
      }),
      400,
    );
    expect(field).toMatch(/^body\.title must not contain control characters/);
    const update = await expectError(
      await t.request('PATCH', '/v1/orgs/o-acme/custom-fields/nope', TOKENS.ada, {
        title: 'tab\tinside',
      }),
      400,
    );
    expect(update).toMatch(/^body\.title must not contain control characters/);
  });

  it('lets comments hold tabs and line breaks but not NUL', async () => {
    const path = '/v1/spaces/s-handbook/comments';
    const message = await expectError(
      await t.request('POST', path, TOKENS.dora, { body: { markdown: 'a\u0000b' } }),
      400,
    );
    expect(message).toBe('body.body.markdown must not contain NUL characters (U+0000)');
    const ok = await t.request('POST', path, TOKENS.dora, {
      body: { markdown: 'line one\n\tindented\r\nline three' },
    });
    expect(ok.status).toBe(200);
  });
});
