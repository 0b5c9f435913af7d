import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RevisionFile, type RevisionPage } from '@gitbook/api';
import { RevisionStore } from '../../src/server/content/revision-store';
import type { RevisionTree, StoredPage } from '../../src/server/content/revision-tree';
import {
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { PNG_BASE64, TOKENS, contentFixture } from '../support/test-fixture';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ fixture: contentFixture() });
});
afterAll(async () => {
  await t.close();
});

function liveRevision(spaceId: string): string {
  return (
    t.db.prepare('SELECT revision_id FROM spaces WHERE id = ?').get(spaceId) as {
      revision_id: string;
    }
  ).revision_id;
}

function storedTree(revisionId: string): RevisionTree {
  return new RevisionStore(t.db).tree(revisionId)!;
}

/** Every field a serialised page may have: anything else is a leak. */
const PAGE_FIELDS = new Set([
  'id',
  'title',
  'emoji',
  'icon',
  'createdAt',
  'updatedAt',
  'kind',
  'type',
  'slug',
  'path',
  'description',
  'documentId',
  'urls',
  'layout',
  'cover',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'pages',
  'markdown',
  'document',
  'href',
  'target',
]);

function flatten(pages: readonly RevisionPage[]): RevisionPage[] {
  return pages.flatMap((page) => [page, ...('pages' in page ? flatten(page.pages) : [])]);
}

function expectPageShape(page: RevisionPage): void {
  for (const key of Object.keys(page)) expect(PAGE_FIELDS, `page field ${key}`).toContain(key);
  expect(typeof page.id).toBe('string');
  expect(typeof page.title).toBe('string');
  if (page.type === 'document') {
    expect(page.kind).toBe('sheet');
    expect(typeof page.slug).toBe('string');
    expect(typeof page.path).toBe('string');
    expect(page.urls.app.startsWith(`${t.url}/app/`)).toBe(true);
    expect(typeof page.hidden).toBe('boolean');
    expect(Array.isArray(page.pages)).toBe(true);
  }
}

function expectFileShape(file: RevisionFile): void {
  expect(Object.keys(file).sort()).toEqual(
    [
      'contentType',
      'downloadURL',
      'id',
      'name',
      'size',
      ...(file.dimensions ? ['dimensions'] : []),
    ].sort(),
  );
  expect(file.downloadURL.startsWith(`${t.url}/v1/files/`)).toBe(true);
}

describe('current revision (GET /spaces/{spaceId}/content)', () => {
  it('returns the live revision with its page tree and no content by default', async () => {
    const response = await t.client(TOKENS.cara).spaces.getCurrentRevision('s-handbook');
    expect(response.status).toBe(200);
    const revision = response.data;
    expect(revision).toMatchObject({
      object: 'revision',
      id: liveRevision('s-handbook'),
      parents: [],
      type: 'edits',
      files: [],
      reusableContents: [],
    });
    expect(typeof revision.createdAt).toBe('string');
    expect(revision.urls.app).toBe(`${t.url}/app/s/s-handbook`);
    expect(Object.keys(revision).sort()).toEqual([
      'createdAt',
      'files',
      'id',
      'object',
      'pages',
      'parents',
      'reusableContents',
      'type',
      'urls',
    ]);
    const pages = flatten(revision.pages);
    expect(pages.map((page) => [page.id, 'path' in page ? page.path : null])).toEqual([
      ['p-welcome', 'welcome'],
      ['p-guides', 'guides'],
      ['p-setup', 'guides/setup'],
    ]);
    for (const page of pages) {
      expectPageShape(page);
      expect(page).not.toHaveProperty('markdown');
      expect(page).not.toHaveProperty('document');
    }
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('with format=markdown carries every page’s Markdown exactly as stored', async () => {
    const { data } = await t
      .request('GET', '/v1/spaces/s-handbook/content?format=markdown', TOKENS.ada)
      .then(async (r) => ({ data: (await r.json()) as { pages: RevisionPage[] } }));
    const byId = Object.fromEntries(
      flatten(data.pages).map((page) => [page.id, (page as { markdown?: string }).markdown]),
    );
    expect(byId).toEqual({
      'p-welcome': '# Welcome\n\nHello.\n',
      'p-guides': '# Guides\n',
      'p-setup': '# Setup\n\nInstall it.\n',
    });
  });

  it('with format=document carries a document block tree derived from the Markdown', async () => {
    const response = await t.request(
      'GET',
      '/v1/spaces/s-handbook/content?format=document',
      TOKENS.ada,
    );
    const data = (await response.json()) as { pages: RevisionPage[] };
    const setup = flatten(data.pages).find((page) => page.id === 'p-setup') as {
      document?: { object: string; nodes: Array<{ type: string }> };
      markdown?: string;
    };
    expect(setup.markdown).toBeUndefined();
    expect(setup.document?.object).toBe('document');
    // The leading "# Setup" is the title, not content.
    expect(setup.document?.nodes.map((node) => node.type)).toEqual(['paragraph']);
    expect(JSON.stringify(setup.document)).toContain('Install it.');
  });

  it('shows published URLs of a public space', async () => {
    const w = await startTestServer();
    try {
      w.db.prepare("UPDATE spaces SET visibility = 'public' WHERE id = 's-handbook'").run();
      const { data } = await w.client(TOKENS.ada).spaces.getCurrentRevision('s-handbook');
      expect(data.urls.published).toBe(`${w.url}/published/o-acme/s-handbook`);
      expect(data.urls.public).toBe(data.urls.published);
    } finally {
      await w.close();
    }
  });

  it('checks access: 401 without a token, 404 for another organization and for a guest without access', async () => {
    await expectError(await t.request('GET', '/v1/spaces/s-handbook/content', null), 401);
    expect(await clientFailure(t.client(TOKENS.eve).spaces.getCurrentRevision('s-handbook'))).toBe(
      404,
    );
    expect(await clientFailure(t.client(TOKENS.gus).spaces.getCurrentRevision('s-api'))).toBe(404);
    expect(await clientFailure(t.client(TOKENS.ada).spaces.getCurrentRevision('s-nope'))).toBe(404);
    // A guest granted access reads it.
    expect((await t.client(TOKENS.gus).spaces.getCurrentRevision('s-handbook')).status).toBe(200);
  });

  it('validates format', async () => {
    const message = await expectError(
      await t.request('GET', '/v1/spaces/s-handbook/content?format=html', TOKENS.ada),
      400,
    );
    expect(message).toMatch(/format/);
  });
});

describe('pages (GET /spaces/{spaceId}/content/pages, /page/{pageId}, /path/{pagePath})', () => {
  it('lists the page tree without content', async () => {
    const { status, data } = await t.client(TOKENS.cara).spaces.listPages('s-media');
    expect(status).toBe(200);
    expect(Object.keys(data)).toEqual(['pages']);
    const pages = flatten(data.pages);
    for (const page of pages) expectPageShape(page);
    expect(pages.map((page) => [page.id, page.type])).toEqual([
      ['p-media-home', 'document'],
      ['p-media-group', 'group'],
      ['p-media-api', 'document'],
      ['p-media-link', 'link'],
    ]);
    const group = pages[1]!;
    expect(group).toMatchObject({ kind: 'group', slug: 'reference', path: 'reference' });
    // A group adds no segment to its children's paths.
    expect(pages[2]).toMatchObject({ path: 'api' });
    expect(pages[3]).toMatchObject({
      kind: 'link',
      href: 'https://example.com/',
      target: { kind: 'url', url: 'https://example.com/' },
    });
  });

  it('reads a page by id with no format, markdown, or document', async () => {
    const spaces = t.client(TOKENS.cara).spaces;
    const plain = (await spaces.getPageById('s-handbook', 'p-setup')).data;
    expectPageShape(plain);
    expect(plain).toMatchObject({ id: 'p-setup', type: 'document', path: 'guides/setup' });
    expect(plain).not.toHaveProperty('markdown');
    expect(plain).not.toHaveProperty('document');

    const markdown = (await spaces.getPageById('s-handbook', 'p-setup', { format: 'markdown' }))
      .data;
    expect((markdown as { markdown?: string }).markdown).toBe('# Setup\n\nInstall it.\n');
    expect(markdown).not.toHaveProperty('document');

    const document = (await spaces.getPageById('s-handbook', 'p-setup', { format: 'document' }))
      .data;
    expect((document as { document?: { object: string } }).document?.object).toBe('document');
    expect(document).not.toHaveProperty('markdown');
  });

  it('accepts the published page-read options, and validates them', async () => {
    const { status } = await t.client(TOKENS.cara).spaces.getPageById('s-handbook', 'p-setup', {
      format: 'markdown',
      'format.markdown.refs': 'stable',
      evaluated: 'deterministic-only',
      dereferenced: true,
      metadata: false,
      computed: false,
    });
    expect(status).toBe(200);
    for (const [query, field] of [
      ['evaluated=maybe', 'evaluated'],
      ['format.markdown.refs=absolute', 'format.markdown.refs'],
      ['metadata=perhaps', 'metadata'],
    ] as const) {
      const message = await expectError(
        await t.request('GET', `/v1/spaces/s-handbook/content/page/p-setup?${query}`, TOKENS.ada),
        400,
      );
      expect(message).toContain(field);
    }
  });

  it('gives a page its own content only, not its children’s', async () => {
    const { data } = await t
      .client(TOKENS.cara)
      .spaces.getPageById('s-handbook', 'p-guides', { format: 'markdown' });
    expect((data as { markdown?: string }).markdown).toBe('# Guides\n');
    const [child] = (data as { pages: RevisionPage[] }).pages;
    expect(child?.id).toBe('p-setup');
    expect(child).not.toHaveProperty('markdown');
  });

  it('reads a nested page by path', async () => {
    const spaces = t.client(TOKENS.cara).spaces;
    const { status, data } = await spaces.getPageByPath('s-handbook', 'guides/setup', {
      format: 'markdown',
    });
    expect(status).toBe(200);
    expect(data).toMatchObject({
      id: 'p-setup',
      path: 'guides/setup',
      markdown: '# Setup\n\nInstall it.\n',
    });
    expect((await spaces.getPageByPath('s-handbook', 'guides')).data.id).toBe('p-guides');
    expect((await spaces.getPageByPath('s-media', 'reference')).data).toMatchObject({
      id: 'p-media-group',
      type: 'group',
    });
    expect((await spaces.getPageByPath('s-media', 'api')).data.id).toBe('p-media-api');
    // Surrounding slashes are ignored.
    const slashes = await t.request(
      'GET',
      '/v1/spaces/s-handbook/content/path/guides/setup/',
      TOKENS.cara,
    );
    expect(((await slashes.json()) as { id: string }).id).toBe('p-setup');
  });

  it('answers 404 for unknown pages and paths, and for link pages by path', async () => {
    const spaces = t.client(TOKENS.cara).spaces;
    expect(await clientFailure(spaces.getPageById('s-handbook', 'p-nope'))).toBe(404);
    expect(await clientFailure(spaces.getPageByPath('s-handbook', 'guides/nope'))).toBe(404);
    expect(await clientFailure(spaces.getPageByPath('s-handbook', 'setup'))).toBe(404);
    expect(await clientFailure(spaces.getPageByPath('s-media', 'website'))).toBe(404);
    // A page of another space is not found in this one.
    expect(await clientFailure(spaces.getPageById('s-media', 'p-setup'))).toBe(404);
  });

  it('checks access on page reads', async () => {
    await expectError(await t.request('GET', '/v1/spaces/s-handbook/content/pages', null), 401);
    expect(await clientFailure(t.client(TOKENS.eve).spaces.listPages('s-handbook'))).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.eve).spaces.getPageById('s-handbook', 'p-setup')),
    ).toBe(404);
    expect(await clientFailure(t.client(TOKENS.gus).spaces.getPageByPath('s-api', 'x'))).toBe(404);
    const message = await expectError(
      await t.request('GET', '/v1/spaces/s-handbook/content/page/p-setup?format=pdf', TOKENS.ada),
      400,
    );
    expect(message).toMatch(/format/);
  });
});

describe('files (GET /spaces/{spaceId}/content/files[/{fileId}]) and downloads', () => {
  it('lists files with a walk over pages', async () => {
    const spaces = t.client(TOKENS.cara).spaces;
    const all = (await spaces.listFiles('s-media')).data;
    expect(all.count).toBe(2);
    expect(all.items.map((file) => file.id)).toEqual(['f-diagram', 'f-report']);
    for (const file of all.items) expectFileShape(file);
    expect(all.items[0]).toMatchObject({
      name: 'diagram.png',
      contentType: 'image/png',
      size: Buffer.from(PNG_BASE64, 'base64').length,
      dimensions: { width: 1, height: 1 },
    });

    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await spaces.listFiles('s-media', { limit: 1, ...(page ? { page } : {}) });
      expect(data.items.length).toBe(1);
      expect(data.count).toBe(2);
      seen.push(...data.items.map((file) => file.id));
      page = data.next?.page;
    } while (page);
    expect(seen).toEqual(['f-diagram', 'f-report']);
    expect((await spaces.listFiles('s-handbook')).data).toEqual({ items: [], count: 0 });
  });

  it('reads a file by id; 404 for unknown files', async () => {
    const spaces = t.client(TOKENS.cara).spaces;
    const { status, data } = await spaces.getFileById('s-media', 'f-report');
    expect(status).toBe(200);
    expectFileShape(data);
    expect(data.name).toBe('Relevé "final" v2.pdf');
    expect(await clientFailure(spaces.getFileById('s-media', 'f-nope'))).toBe(404);
    expect(await clientFailure(spaces.getFileById('s-handbook', 'f-diagram'))).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.eve).spaces.getFileById('s-media', 'f-diagram')),
    ).toBe(404);
    await expectError(await t.request('GET', '/v1/spaces/s-media/content/files', null), 401);
    expect(
      await expectError(
        await t.request('GET', '/v1/spaces/s-media/content/files?limit=1001', TOKENS.ada),
        400,
      ),
    ).toMatch(/limit/);
  });

  it('serves the downloadURL without a token: exact bytes and headers', async () => {
    const { data: file } = await t.client(TOKENS.cara).spaces.getFileById('s-media', 'f-diagram');
    const response = await fetch(file.downloadURL);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(PNG_BASE64, 'base64'));
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(file.size));
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toBe(
      `inline; filename="diagram.png"; filename*=UTF-8''diagram.png`,
    );
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
    const head = await fetch(file.downloadURL, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');

    // The client revalidates with the ETag and gets no body back.
    const again = await fetch(file.downloadURL, {
      headers: { 'if-none-match': response.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('serves other files as attachments under a safely escaped name', async () => {
    const { data: file } = await t.client(TOKENS.cara).spaces.getFileById('s-media', 'f-report');
    const response = await fetch(file.downloadURL);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('%PDF-1.4\n% not really\n');
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Relev_ _final_ v2.pdf"; filename*=UTF-8''Relev%C3%A9%20%22final%22%20v2.pdf`,
    );
  });

  it('answers 404 to a tampered download URL', async () => {
    const { data: file } = await t.client(TOKENS.cara).spaces.getFileById('s-media', 'f-diagram');
    const url = new URL(file.downloadURL);
    const sig = url.searchParams.get('sig')!;

    const badSig = new URL(url);
    badSig.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
    await expectError(await fetch(badSig), 404);

    const otherType = new URL(url);
    otherType.searchParams.set('type', 'text/html');
    await expectError(await fetch(otherType), 404);

    const otherName = new URL(url.href.replace('/diagram.png?', '/diagram.exe?'));
    await expectError(await fetch(otherName), 404);

    const otherSpace = new URL(url.href.replace('/files/s-media/', '/files/s-handbook/'));
    await expectError(await fetch(otherSpace), 404);

    const noSig = new URL(url);
    noSig.searchParams.delete('sig');
    expect(await expectError(await fetch(noSig), 400)).toMatch(/sig/);
  });

  it('stops serving the files of a deleted space', async () => {
    const w = await startTestServer({ fixture: contentFixture() });
    try {
      const { data: file } = await w.client(TOKENS.ada).spaces.getFileById('s-media', 'f-diagram');
      expect((await fetch(file.downloadURL)).status).toBe(200);
      await w.client(TOKENS.ada).spaces.deleteSpaceById('s-media');
      await expectError(await fetch(file.downloadURL), 404);
    } finally {
      await w.close();
    }
  });
});

/** Stores a revision of `spaceId` on top of `parent` and makes it live. */
function commitRevision(
  spaceId: string,
  parent: string,
  edit: (tree: RevisionTree) => void,
): string {
  const store = new RevisionStore(t.db);
  const tree = structuredClone(storedTree(parent));
  edit(tree);
  const id = store.create(spaceId, tree, [parent], 'edits', new Date().toISOString());
  t.db.prepare('UPDATE spaces SET revision_id = ? WHERE id = ?').run(id, spaceId);
  return id;
}

function page(tree: RevisionTree, id: string): StoredPage {
  const visit = (pages: StoredPage[]): StoredPage | undefined => {
    for (const candidate of pages) {
      if (candidate.id === id) return candidate;
      const found = visit(candidate.pages);
      if (found) return found;
    }
    return undefined;
  };
  return visit(tree.pages)!;
}

describe('revisions (GET /spaces/{spaceId}/revisions/{revisionId}…)', () => {
  let first: string;
  let second: string;
  const store = () => new RevisionStore(t.db);
  beforeAll(() => {
    first = liveRevision('s-handbook');
    second = commitRevision('s-handbook', first, (tree) => {
      page(tree, 'p-welcome').body = store().putBody('# Welcome\n\nHello again.\n');
      page(tree, 'p-welcome').title = 'Welcome!';
      tree.pages.push({
        id: 'p-faq',
        type: 'document',
        title: 'FAQ',
        slug: 'faq',
        body: store().putBody('# FAQ\n'),
        createdAt: '2026-01-02T00:00:00.000Z',
        updatedAt: '2026-01-02T00:00:00.000Z',
        pages: [],
      });
      tree.files.push({
        id: 'f-logo',
        name: 'logo.png',
        contentType: 'image/png',
        size: 3,
        blob: store().putBlob(Buffer.from('abc')),
        createdAt: '2026-01-02T00:00:00.000Z',
      });
    });
  });

  it('reads a revision by id; old revisions keep their content', async () => {
    const spaces = t.client(TOKENS.cara).spaces;
    const old = (await spaces.getRevisionById('s-handbook', first)).data;
    expect(old).toMatchObject({ object: 'revision', id: first, parents: [] });
    expect(old.urls.app).toBe(`${t.url}/app/s/s-handbook/~/revisions/${first}`);
    expect(flatten(old.pages).map((p) => p.id)).toEqual(['p-welcome', 'p-guides', 'p-setup']);

    const current = (await spaces.getRevisionById('s-handbook', second)).data;
    expect(current).toMatchObject({ id: second, parents: [first] });
    expect(current.files.map((file) => file.id)).toEqual(['f-logo']);
    expect((await spaces.getCurrentRevision('s-handbook')).data.id).toBe(second);

    const oldMarkdown = await t.request(
      'GET',
      `/v1/spaces/s-handbook/revisions/${first}?format=markdown`,
      TOKENS.cara,
    );
    const oldPages = flatten(((await oldMarkdown.json()) as { pages: RevisionPage[] }).pages);
    expect((oldPages[0] as { markdown?: string }).markdown).toBe('# Welcome\n\nHello.\n');
  });

  it('reads the pages, a page, a path and the files of a revision', async () => {
    const spaces = t.client(TOKENS.cara).spaces;
    expect(
      flatten((await spaces.listPagesInRevisionById('s-handbook', first)).data.pages),
    ).toHaveLength(3);
    const welcome = (
      await spaces.getPageInRevisionById('s-handbook', first, 'p-welcome', { format: 'markdown' })
    ).data;
    expect(welcome).toMatchObject({ title: 'Welcome', markdown: '# Welcome\n\nHello.\n' });
    const setup = (await spaces.getPageInRevisionByPath('s-handbook', first, 'guides/setup')).data;
    expect(setup.id).toBe('p-setup');
    const document = (await spaces.getPageDocumentInRevisionById('s-handbook', second, 'p-welcome'))
      .data;
    expect(document.object).toBe('document');
    expect(JSON.stringify(document)).toContain('Hello again.');

    expect((await spaces.listFilesInRevisionById('s-handbook', first)).data.count).toBe(0);
    const files = (await spaces.listFilesInRevisionById('s-handbook', second)).data;
    expect(files.items.map((file) => file.id)).toEqual(['f-logo']);
    const logo = (await spaces.getFileInRevisionById('s-handbook', second, 'f-logo')).data;
    expectFileShape(logo);
    expect(Buffer.from(await (await fetch(logo.downloadURL)).arrayBuffer()).toString()).toBe('abc');
    expect(await clientFailure(spaces.getFileInRevisionById('s-handbook', first, 'f-logo'))).toBe(
      404,
    );
    expect(await clientFailure(spaces.getPageInRevisionById('s-handbook', first, 'p-faq'))).toBe(
      404,
    );
  });

  it('answers 404 for unknown revisions, revisions of another space, and other organizations', async () => {
    const spaces = t.client(TOKENS.ada).spaces;
    expect(await clientFailure(spaces.getRevisionById('s-handbook', 'r-nope'))).toBe(404);
    const apiRevision = liveRevision('s-api');
    expect(await clientFailure(spaces.getRevisionById('s-handbook', apiRevision))).toBe(404);
    expect(await clientFailure(spaces.listPagesInRevisionById('s-handbook', apiRevision))).toBe(
      404,
    );
    expect(await clientFailure(spaces.getRevisionSemanticChanges('s-handbook', apiRevision))).toBe(
      404,
    );
    expect(
      await clientFailure(t.client(TOKENS.eve).spaces.getRevisionById('s-handbook', first)),
    ).toBe(404);
    expect(
      await clientFailure(t.client(TOKENS.gus).spaces.getRevisionById('s-api', apiRevision)),
    ).toBe(404);
    await expectError(
      await t.request('GET', `/v1/spaces/s-handbook/revisions/${first}`, null),
      401,
    );
  });

  it('lists the semantic changes of a revision against its parent', async () => {
    const spaces = t.client(TOKENS.cara).spaces;
    const { status, data } = await spaces.getRevisionSemanticChanges('s-handbook', second);
    expect(status).toBe(200);
    expect(data.more).toBeUndefined();
    expect(data.changes).toEqual([
      {
        type: 'page_edited',
        page: { id: 'p-welcome', type: 'document', title: 'Welcome!', path: 'welcome' },
        attributes: {
          title: { before: 'Welcome', after: 'Welcome!' },
          document: { before: expect.any(String), after: expect.any(String) },
        },
      },
      { type: 'page_created', page: { id: 'p-faq', type: 'document', title: 'FAQ', path: 'faq' } },
      {
        type: 'file_created',
        file: {
          id: 'f-logo',
          name: 'logo.png',
          contentType: 'image/png',
          downloadURL: expect.stringContaining('/v1/files/s-handbook/f-logo/'),
        },
      },
    ]);

    const limited = (await spaces.getRevisionSemanticChanges('s-handbook', second, { limit: 1 }))
      .data;
    expect(limited.changes).toHaveLength(1);
    expect(limited.more).toBe(2);

    // The first revision has no parent: everything in it was created.
    const initial = (await spaces.getRevisionSemanticChanges('s-handbook', first)).data;
    expect(initial.changes.map((change) => change.type)).toEqual([
      'page_created',
      'page_created',
      'page_created',
    ]);
    expect(
      await expectError(
        await t.request(
          'GET',
          `/v1/spaces/s-handbook/revisions/${second}/changes?limit=1001`,
          TOKENS.ada,
        ),
        400,
      ),
    ).toMatch(/limit/);
  });
});

describe('whole-space read', () => {
  it('returns every page’s Markdown exactly as stored, for hundreds of pages', async () => {
    const store = new RevisionStore(t.db);
    const bodies = new Map<string, string>();
    const now = '2026-01-03T00:00:00.000Z';
    const make = (prefix: string, count: number, depth: number): StoredPage[] =>
      Array.from({ length: count }, (_, i) => {
        const id = `${prefix}-${i}`;
        const markdown = `# Page ${id}\n\n${'Ünïcødé "quoted" \\ back\tslash — 🚀\n'.repeat(20 + i)}`;
        bodies.set(id, markdown);
        return {
          id,
          type: 'document' as const,
          title: `Page ${id}`,
          slug: id,
          body: store.putBody(markdown),
          createdAt: now,
          updatedAt: now,
          pages: depth > 0 ? make(id, 4, depth - 1) : [],
        };
      });
    const pages = make('bulk', 60, 2); // 60 + 240 + 960 pages
    const id = store.create('s-api', { pages, files: [] }, [], 'edits', now);
    t.db.prepare("UPDATE spaces SET revision_id = ? WHERE id = 's-api'").run(id);

    const response = await t.request('GET', '/v1/spaces/s-api/content?format=markdown', TOKENS.ada);
    expect(response.status).toBe(200);
    const revision = (await response.json()) as { pages: RevisionPage[] };
    const served = flatten(revision.pages);
    expect(served).toHaveLength(bodies.size);
    for (const servedPage of served) {
      expect((servedPage as { markdown?: string }).markdown).toBe(bodies.get(servedPage.id));
    }
    // A second read (served from the response cache) is byte-identical.
    const again = await t.request('GET', '/v1/spaces/s-api/content?format=markdown', TOKENS.ada);
    expect(await again.json()).toEqual(revision);
  });
});
