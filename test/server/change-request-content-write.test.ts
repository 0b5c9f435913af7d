import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChangeRequest,
  type ChangeRequestContentChange,
  type ChangeRequestContentUpdate,
  type RevisionPage,
} from '@gitbook/api';
import { RevisionStore } from '../../src/server/content/revision-store';
import type { FixturePage } from '../../src/server/fixture/fixture-schema';
import { urlFetcherFor } from '../../src/server/resources/change-requests/url-fetcher';
import {
  clientError,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { PNG_BASE64, TOKENS, testFixture } from '../support/test-fixture';

let t: TestServer;
const BIG_PAGES = 2000;

beforeAll(async () => {
  const fixture = testFixture();
  // A 2,000-page space (100 sections of 19 pages) for the batch-size budget.
  const sections: FixturePage[] = Array.from({ length: 100 }, (_, s) => ({
    id: `big-${s}`,
    title: `Section ${s}`,
    markdown: `# Section ${s}\n\nIntro ${s}.\n`,
    pages: Array.from({ length: 19 }, (_, p) => ({
      id: `big-${s}-${p}`,
      title: `Page ${s}.${p}`,
      markdown: `# Page ${s}.${p}\n\nText of page ${s}.${p}.\n`,
    })),
  }));
  fixture.organizations[0]!.spaces!.push({ id: 's-big', title: 'Big', pages: sections });
  t = await startTestServer({ fixture });
});
afterAll(async () => {
  await t.close();
});

async function newChangeRequest(spaceId = 's-handbook', token: string = TOKENS.dora) {
  const { data } = await t.client(token).spaces.createChangeRequest(spaceId, { subject: 'Edits' });
  return data;
}

async function write(
  cr: ChangeRequest,
  changes: ChangeRequestContentChange[],
  token: string = TOKENS.dora,
): Promise<ChangeRequestContentUpdate> {
  const { data } = await t
    .client(token)
    .spaces.updateChangeRequestContent(cr.space, cr.id, { changes }, { compat: false });
  return data as ChangeRequestContentUpdate;
}

async function markdownOf(cr: ChangeRequest, pageId: string): Promise<string> {
  const { data } = await t
    .client(TOKENS.dora)
    .spaces.getPageInChangeRequestById(cr.space, cr.id, pageId, { format: 'markdown' });
  return (data as RevisionPage & { markdown: string }).markdown;
}

async function pagesOf(cr: ChangeRequest): Promise<RevisionPage[]> {
  const { data } = await t.client(TOKENS.dora).spaces.listPagesInChangeRequest(cr.space, cr.id);
  return data.pages;
}

function titles(pages: readonly RevisionPage[]): unknown[] {
  return pages.map((page) =>
    'pages' in page && page.pages.length > 0
      ? [page.title, titles(page.pages as RevisionPage[])]
      : page.title,
  );
}

describe('POST …/change-requests/{CR}/content (updateChangeRequestContent)', () => {
  it('inserts, updates, moves, renames and deletes pages and reads every page back exactly', async () => {
    const cr = await newChangeRequest();
    const intro = '# Introduction\n\nStart **here**.\n\n- one\n- two\n';
    const faq = '---\ntitle: Frequently asked\ndescription: Answers\n---\n\nAsk away.\n';
    const welcome = '# Welcome\n\nHello, world.\n\n```js\nconsole.log(1);\n```\n';
    const result = await write(cr, [
      { operation: 'insert_page', ref: 'intro', document: { markdown: intro } },
      { operation: 'insert_page', into: 'p-guides', at: 0, document: { markdown: faq } },
      { operation: 'update_page', page: 'p-welcome', document: { markdown: welcome } },
      { operation: 'update_page', page: 'p-setup', title: 'Installation', into: null, at: 0 },
      { operation: 'update_page', page: 'p-guides', slug: 'how-to' },
    ]);

    expect(result.changeRequest.object).toBe('change-request');
    expect(result.changeRequest.revision).not.toBe(cr.revision);
    expect(result.changes.map((change) => change.object)).toEqual([
      'created_page',
      'created_page',
      'updated_page',
      'updated_page',
      'updated_page',
    ]);
    const [introChange, faqChange] = result.changes;
    if (introChange?.object !== 'created_page' || faqChange?.object !== 'created_page') {
      throw new Error('expected created pages');
    }
    expect(introChange.ref).toBe('intro');
    expect(introChange.page.urls.location).toBe(
      `${t.url}/v1/spaces/s-handbook/change-requests/${cr.id}/content/page/${introChange.page.id}`,
    );

    expect(titles(await pagesOf(cr))).toEqual([
      'Installation',
      'Welcome',
      ['Guides', ['Frequently asked']],
      'Introduction',
    ]);
    // What is stored reads back exactly: heading, frontmatter and all.
    expect(await markdownOf(cr, introChange.page.id)).toBe(intro);
    expect(await markdownOf(cr, faqChange.page.id)).toBe(faq);
    expect(await markdownOf(cr, 'p-welcome')).toBe(welcome);
    // A title-only rename keeps the body's leading heading in step.
    expect(await markdownOf(cr, 'p-setup')).toBe('# Installation\n\nInstall it.\n');

    const { data: faqPage } = await t
      .client(TOKENS.dora)
      .spaces.getPageInChangeRequestById('s-handbook', cr.id, faqChange.page.id, {});
    expect(faqPage).toMatchObject({ title: 'Frequently asked', description: 'Answers' });
    const { data: guides } = await t
      .client(TOKENS.dora)
      .spaces.getPageInChangeRequestById('s-handbook', cr.id, 'p-guides', {});
    expect(guides).toMatchObject({ slug: 'how-to', title: 'Guides', path: 'how-to' });

    const deleted = await write(cr, [{ operation: 'delete_page', page: 'p-guides' }]);
    expect(deleted.changes).toEqual([{ object: 'deleted_page', page: 'p-guides' }]);
    expect(titles(await pagesOf(cr))).toEqual(['Installation', 'Welcome', 'Introduction']);

    // Main is untouched until the change request is merged.
    const { data: main } = await t.client(TOKENS.dora).spaces.listPages('s-handbook');
    expect(titles(main.pages)).toEqual(['Welcome', ['Guides', ['Setup']]]);
  });

  it('uploads base64 files with dimensions and resolves batch refs in Markdown', async () => {
    const cr = await newChangeRequest();
    const result = await write(cr, [
      {
        operation: 'insert_page',
        title: 'Gallery',
        document: { markdown: '# Gallery\n\n![Pixel](./pixel)\n\nSee [intro](./intro.md).\n' },
      },
      { operation: 'insert_page', ref: 'intro', document: { markdown: '# Intro\n' } },
      {
        operation: 'insert_files',
        files: [
          { name: 'pixel.png', ref: 'pixel', contentType: 'image/png', base64: PNG_BASE64 },
          {
            name: 'notes.txt',
            contentType: 'text/plain',
            base64: Buffer.from('hi').toString('base64'),
          },
        ],
      },
    ]);
    expect(result.insertedFiles).toHaveLength(2);
    const [pixel, notes] = result.insertedFiles!;
    expect(pixel).toMatchObject({
      name: 'pixel.png',
      contentType: 'image/png',
      size: Buffer.from(PNG_BASE64, 'base64').length,
      dimensions: { width: 1, height: 1 },
    });
    expect(notes!.dimensions).toBeUndefined();
    const gallery = result.changes[0]!;
    const intro = result.changes[1]!;
    if (gallery.object !== 'created_page' || intro.object !== 'created_page') throw new Error();
    expect(await markdownOf(cr, gallery.page.id)).toBe(
      `# Gallery\n\n![Pixel](/files/${pixel!.id})\n\nSee [intro](/pages/${intro.page.id}).\n`,
    );
    // The download URL serves the bytes.
    const download = await fetch(pixel!.downloadURL);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).toString('base64')).toBe(PNG_BASE64);

    const { data: files } = await t
      .client(TOKENS.dora)
      .spaces.listFilesInChangeRequestById('s-handbook', cr.id);
    expect(files.items.map((file) => file.name).sort()).toEqual(['notes.txt', 'pixel.png']);
  });

  it('returns the change request by default (compat=true) and accepts the CR number', async () => {
    const cr = await newChangeRequest();
    const { data } = await t
      .client(TOKENS.dora)
      .spaces.updateChangeRequestContent('s-handbook', String(cr.number), {
        changes: [{ operation: 'update_page', page: 'p-welcome', emoji: '👋' }],
      });
    const updated = data as ChangeRequest;
    expect(updated.object).toBe('change-request');
    expect(updated.id).toBe(cr.id);
    expect(updated.revision).not.toBe(cr.revision);
    const { data: page } = await t
      .client(TOKENS.dora)
      .spaces.getPageInChangeRequestById('s-handbook', cr.id, 'p-welcome', {});
    expect(page.emoji).toBe('👋');
  });

  it('applies a batch all or nothing: one bad change rejects it and stores nothing', async () => {
    const cr = await newChangeRequest();
    const response = await t.request(
      'POST',
      `/v1/spaces/s-handbook/change-requests/${cr.id}/content`,
      TOKENS.dora,
      {
        changes: [
          { operation: 'insert_page', title: 'Kept?', document: { markdown: 'x' } },
          { operation: 'delete_page', page: 'p-nope' },
        ],
      },
    );
    expect(await expectError(response, 400)).toMatch(/changes\.1\.page.*p-nope/);
    const { data } = await t.client(TOKENS.dora).spaces.getChangeRequestById('s-handbook', cr.id);
    expect(data.revision).toBe(cr.revision);

    const clash = await t.request(
      'POST',
      `/v1/spaces/s-handbook/change-requests/${cr.id}/content`,
      TOKENS.dora,
      { changes: [{ operation: 'insert_page', title: 'Welcome', document: {} }] },
    );
    expect(await expectError(clash, 400)).toMatch(/changes\.0\.slug/);
    const cycle = await t.request(
      'POST',
      `/v1/spaces/s-handbook/change-requests/${cr.id}/content`,
      TOKENS.dora,
      { changes: [{ operation: 'update_page', page: 'p-guides', into: 'p-setup' }] },
    );
    expect(await expectError(cycle, 400)).toMatch(/changes\.0\.into/);
    const frontmatter = await t.request(
      'POST',
      `/v1/spaces/s-handbook/change-requests/${cr.id}/content`,
      TOKENS.dora,
      {
        changes: [
          { operation: 'insert_page', document: { markdown: '---\ntitle: [oops\n---\nx\n' } },
        ],
      },
    );
    expect(await expectError(frontmatter, 400)).toMatch(/changes\.0\.document\.markdown/);
  });

  it('refuses invalid batches with 400 naming the field', async () => {
    const cr = await newChangeRequest();
    const path = `/v1/spaces/s-handbook/change-requests/${cr.id}/content`;
    const post = (body: unknown) => t.request('POST', path, TOKENS.dora, body);
    const one = { operation: 'update_page', page: 'p-welcome', emoji: '🙂' };

    expect(
      await expectError(await post({ changes: Array.from({ length: 51 }, () => one) }), 400),
    ).toMatch(/body\.changes.*50/);
    expect(await expectError(await post({ changes: [] }), 400)).toMatch(/body\.changes.*1/);
    expect(
      await expectError(await post({ changes: [{ operation: 'insert_page', title: 'x' }] }), 400),
    ).toMatch(/body\.changes\.0.*document/);
    expect(await expectError(await post({ changes: [{ operation: 'update_page' }] }), 400)).toMatch(
      /body\.changes\.0.*page/,
    );
    expect(await expectError(await post({ changes: [{ operation: 'rename_page' }] }), 400)).toMatch(
      /body\.changes\.0\.operation/,
    );
    expect(
      await expectError(
        await post({
          changes: [{ operation: 'update_page', page: 'p-welcome', slug: 's'.repeat(101) }],
        }),
        400,
      ),
    ).toMatch(/body\.changes\.0\.slug.*100/);
    expect(
      await expectError(
        await post({
          changes: [{ operation: 'update_page', page: 'p-welcome', emoji: 'e'.repeat(51) }],
        }),
        400,
      ),
    ).toMatch(/body\.changes\.0\.emoji.*50/);

    const file = (extra: object) => ({
      changes: [{ operation: 'insert_files', files: [{ name: 'a.bin', ...extra }] }],
    });
    expect(
      await expectError(
        await post({
          changes: [
            {
              operation: 'insert_files',
              files: Array.from({ length: 21 }, () => ({
                name: 'a.png',
                contentType: 'image/png',
                base64: PNG_BASE64,
              })),
            },
          ],
        }),
        400,
      ),
    ).toMatch(/body\.changes\.0\.files.*20/);
    expect(
      await expectError(
        await post(file({ name: 'x'.repeat(257), contentType: 'a/b', base64: 'AA==' })),
        400,
      ),
    ).toMatch(/body\.changes\.0\.files\.0\.name.*256/);
    expect(await expectError(await post(file({ base64: 'AA==' })), 400)).toMatch(
      /files\.0\.contentType is required/,
    );
    expect(
      await expectError(
        await post(file({ base64: 'AA==', url: 'https://example.com/a', contentType: 'a/b' })),
        400,
      ),
    ).toMatch(/files\.0 must have exactly one of url and base64/);
    expect(await expectError(await post(file({ contentType: 'a/b' })), 400)).toMatch(
      /exactly one of url and base64/,
    );
    expect(
      await expectError(await post(file({ contentType: 'a/b', base64: 'not base64!' })), 400),
    ).toMatch(/files\.0\.base64 is not valid base64/);
    const tooBig = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    expect(
      await expectError(await post(file({ contentType: 'a/b', base64: tooBig })), 400),
    ).toMatch(/files\.0\.base64 .*1 MB/);
    // Exactly 1 MB is fine.
    const justFits = Buffer.alloc(1024 * 1024).toString('base64');
    expect((await post(file({ contentType: 'a/b', base64: justFits }))).status).toBe(200);

    expect(
      await expectError(
        await post({
          changes: [{ operation: 'revert_page', page: 'p-welcome', block: ['k1'] }],
        }),
        400,
      ),
    ).toMatch(/changes\.0\.block/);
  });

  it('refuses a URL file on a private address without connecting', async () => {
    const cr = await newChangeRequest();
    const fetcher = urlFetcherFor(t.server.ctx);
    const connections: string[] = [];
    fetcher.transport = async (request) => {
      connections.push(request.url.href);
      throw new Error('no network in tests');
    };
    try {
      const response = await t.request(
        'POST',
        `/v1/spaces/s-handbook/change-requests/${cr.id}/content`,
        TOKENS.dora,
        {
          changes: [
            {
              operation: 'insert_files',
              files: [{ name: 'meta.json', url: 'http://169.254.169.254/latest/meta-data' }],
            },
          ],
        },
      );
      expect(await expectError(response, 400)).toMatch(
        /changes\.0\.files\.0\.url .*link-local address/,
      );
      expect(connections).toEqual([]);
    } finally {
      fetcher.transport = undefined;
    }
  });

  it('replays an Idempotency-Key without writing a second revision', async () => {
    const cr = await newChangeRequest();
    const headers = { 'idempotency-key': `write-${cr.id}` };
    const params = { headers };
    const body = {
      changes: [
        { operation: 'insert_page' as const, title: 'Once', document: { markdown: '# Once\n' } },
      ],
    };
    const first = await t
      .client(TOKENS.dora)
      .spaces.updateChangeRequestContent('s-handbook', cr.id, body, { compat: false }, params);
    const second = await t
      .client(TOKENS.dora)
      .spaces.updateChangeRequestContent('s-handbook', cr.id, body, { compat: false }, params);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.data).toEqual(first.data);
    const pages = await pagesOf(cr);
    expect(pages.filter((page) => page.title === 'Once')).toHaveLength(1);
    const { data } = await t.client(TOKENS.dora).spaces.getChangeRequestById('s-handbook', cr.id);
    expect(data.revision).toBe((first.data as ChangeRequestContentUpdate).changeRequest.revision);
  });

  it('answers 401, 404, 403 and 409', async () => {
    const cr = await newChangeRequest();
    const path = `/v1/spaces/s-handbook/change-requests/${cr.id}/content`;
    const body = { changes: [{ operation: 'update_page', page: 'p-welcome', emoji: '🙂' }] };
    await expectError(await t.request('POST', path, null, body), 401);
    expect(
      (
        await clientError(
          t
            .client(TOKENS.eve)
            .spaces.updateChangeRequestContent('s-handbook', cr.id, body as never),
        )
      ).code,
    ).toBe(404);
    expect(
      (
        await clientError(
          t
            .client(TOKENS.dora)
            .spaces.updateChangeRequestContent('s-handbook', 'cr-unknown', body as never),
        )
      ).code,
    ).toBe(404);
    expect(
      (
        await clientError(
          t
            .client(TOKENS.dora)
            .spaces.updateChangeRequestContent('s-handbook', '999', body as never),
        )
      ).code,
    ).toBe(404);
    expect(
      (
        await clientError(
          t
            .client(TOKENS.cara)
            .spaces.updateChangeRequestContent('s-handbook', cr.id, body as never),
        )
      ).code,
    ).toBe(403);
    expect(
      (
        await clientError(
          t
            .client(TOKENS.finn)
            .spaces.updateChangeRequestContent('s-handbook', cr.id, body as never),
        )
      ).code,
    ).toBe(403);

    await t
      .client(TOKENS.dora)
      .spaces.updateChangeRequestById('s-handbook', cr.id, { status: 'archived' });
    const archived = await t.request('POST', path, TOKENS.dora, body);
    expect(await expectError(archived, 409)).toMatch(/archived/);
  });

  it('applies a 50-change batch to a 2,000-page space as one revision', async () => {
    const cr = await newChangeRequest('s-big', TOKENS.ada);
    const changes: ChangeRequestContentChange[] = [];
    for (let i = 0; i < 20; i++) {
      changes.push({
        operation: 'update_page',
        page: `big-${i * 5}-${i % 19}`,
        document: { markdown: `# Page edited ${i}\n\nNew text ${i}.\n` },
      });
    }
    for (let i = 0; i < 15; i++) {
      changes.push({
        operation: 'insert_page',
        into: `big-${90 + (i % 10)}`,
        title: `New ${i}`,
        document: { markdown: `# New ${i}\n\nFresh.\n` },
      });
    }
    for (let i = 0; i < 10; i++) {
      changes.push({ operation: 'update_page', page: `big-${50 + i}-3`, into: `big-${i}`, at: 0 });
    }
    for (let i = 0; i < 5; i++) changes.push({ operation: 'delete_page', page: `big-${70 + i}` });
    expect(changes).toHaveLength(50);

    // Its speed is measured by `npm run bench:server`; here only its effect.
    const result = await write(cr, changes, TOKENS.ada);
    expect(result.changes).toHaveLength(50);

    const store = new RevisionStore(t.db);
    const tree = store.tree(result.changeRequest.revision)!;
    let count = 0;
    const visit = (pages: { pages: unknown[] }[]) => {
      for (const page of pages) {
        count++;
        visit(page.pages as { pages: unknown[] }[]);
      }
    };
    visit(tree.pages);
    expect(count).toBe(BIG_PAGES + 15 - 5 * 20);
  });
});
