import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChangeRequestReviewStatus,
  ChangeRequestStatus,
  SpaceEditMode,
  type ChangeRequest,
  type ChangeRequestContentChange,
  type RevisionPage,
} from '@gitbook/api';
import {
  clientError,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';

let t: TestServer;
const APPROVED = ChangeRequestReviewStatus.Approved;

beforeAll(async () => {
  const fixture = testFixture();
  const acme = fixture.organizations[0]!;
  // Spaces of this file's own, so counts and merges elsewhere never interfere.
  acme.spaces!.push(
    {
      id: 's-merge',
      title: 'Merge lab',
      pages: [
        { id: 'm-intro', title: 'Intro', markdown: '# Intro\n\nline 1\nline 2\nline 3\nline 4\n' },
        {
          id: 'm-guide',
          title: 'Guide',
          markdown: '# Guide\n\nGuide text.\n',
          pages: [{ id: 'm-step', title: 'Step', markdown: '# Step\n\nDo it.\n' }],
        },
        { id: 'm-faq', title: 'FAQ', markdown: '# FAQ\n\nQ and A.\n' },
      ],
    },
    { id: 's-counts', title: 'Counts' },
    {
      id: 's-large',
      title: 'Large',
      // 2,000 pages: 100 sections of 19.
      pages: Array.from({ length: 100 }, (_, s) => ({
        id: `l-${s}`,
        title: `Section ${s}`,
        markdown: `# Section ${s}\n\nIntro.\n`,
        pages: Array.from({ length: 19 }, (_, p) => ({
          id: `l-${s}-${p}`,
          title: `Page ${s}.${p}`,
          markdown: `# Page ${s}.${p}\n\nfirst line\nsecond line\nthird line\n`,
        })),
      })),
    },
    {
      id: 's-pdf',
      title: 'PDF',
      pages: [
        { id: 'pdf-one', title: 'Getting started', markdown: '# Getting started\n\nHello.\n' },
        {
          id: 'pdf-two',
          title: 'Reference',
          markdown: '# Reference\n\n## Options\n\n- alpha\n- beta\n\n```\ncode\n```\n',
          pages: [{ id: 'pdf-three', title: 'Appendix', markdown: '# Appendix\n\nMore.\n' }],
        },
      ],
    },
  );
  t = await startTestServer({ fixture });
});
afterAll(async () => {
  await t.close();
});

const api = (token: string = TOKENS.dora) => t.client(token).spaces;

async function create(spaceId: string, subject = 'A change', token: string = TOKENS.dora) {
  return (await api(token).createChangeRequest(spaceId, { subject })).data;
}

async function write(cr: ChangeRequest, changes: ChangeRequestContentChange[]) {
  await api().updateChangeRequestContent(cr.space, cr.id, { changes }, { compat: false });
}

async function get(cr: ChangeRequest) {
  return (await api().getChangeRequestById(cr.space, cr.id)).data;
}

async function liveRevision(spaceId: string) {
  return (await api().getSpaceById(spaceId)).data.revision;
}

async function mainMarkdown(spaceId: string, pageId: string) {
  const { data } = await api().getPageById(spaceId, pageId, { format: 'markdown' });
  return (data as RevisionPage & { markdown: string }).markdown;
}

async function crMarkdown(cr: ChangeRequest, pageId: string) {
  const { data } = await api().getPageInChangeRequestById(cr.space, cr.id, pageId, {
    format: 'markdown',
  });
  return (data as RevisionPage & { markdown: string }).markdown;
}

function titles(pages: readonly RevisionPage[]): unknown[] {
  return pages.map((page) =>
    'pages' in page && page.pages.length > 0
      ? [page.title, titles(page.pages as RevisionPage[])]
      : page.title,
  );
}

async function mainTitles(spaceId: string) {
  return titles((await api().listPages(spaceId)).data.pages);
}

describe('change requests: create, read, list, patch', () => {
  it('creates drafts numbered per space on the live revision (201, Location)', async () => {
    const revision = await liveRevision('s-handbook');
    const response = await t.request('POST', '/v1/spaces/s-handbook/change-requests', TOKENS.dora, {
      subject: 'First',
    });
    expect(response.status).toBe(201);
    const first = (await response.json()) as ChangeRequest;
    expect(response.headers.get('location')).toBe(
      `${t.url}/v1/spaces/s-handbook/change-requests/${first.id}`,
    );
    expect(first).toMatchObject({
      object: 'change-request',
      status: 'draft',
      subject: 'First',
      space: 's-handbook',
      revision,
      revisionInitial: revision,
      comments: 0,
      outdated: false,
      createdBy: { object: 'user', id: 'u-dora' },
      urls: {
        location: `${t.url}/v1/spaces/s-handbook/change-requests/${first.id}`,
        app: `${t.url}/app/s/s-handbook/~/changes/${first.number}`,
      },
    });
    const second = await create('s-handbook', 'Second', TOKENS.bob);
    expect(second.number).toBe(first.number + 1);
    // Numbers are per space.
    const elsewhere = await create('s-api', 'Elsewhere', TOKENS.ada);
    expect(elsewhere.number).toBe(1);
    // No body at all is an empty subject.
    const bare = await t.request('POST', '/v1/spaces/s-handbook/change-requests', TOKENS.dora);
    expect(bare.status).toBe(201);
    expect(((await bare.json()) as ChangeRequest).subject).toBe('');
  });

  it('gets a change request by id or by number', async () => {
    const cr = await create('s-handbook', 'Findable');
    const byId = (await api(TOKENS.cara).getChangeRequestById('s-handbook', cr.id)).data;
    const byNumber = (await api(TOKENS.cara).getChangeRequestById('s-handbook', String(cr.number)))
      .data;
    expect(byId).toEqual(cr);
    expect(byNumber).toEqual(cr);
    expect((await clientError(api().getChangeRequestById('s-handbook', 'nope'))).code).toBe(404);
    expect((await clientError(api().getChangeRequestById('s-handbook', '9999'))).code).toBe(404);
    // A change request is only found through its own space.
    expect((await clientError(api(TOKENS.ada).getChangeRequestById('s-api', cr.id))).code).toBe(
      404,
    );
    expect(
      (await clientError(api(TOKENS.eve).getChangeRequestById('s-handbook', cr.id))).code,
    ).toBe(404);
    await expectError(
      await t.request('GET', `/v1/spaces/s-handbook/change-requests/${cr.id}`, null),
      401,
    );
  });

  it('refuses creation below edit, outside the organization, and over the limits', async () => {
    expect((await clientError(create('s-handbook', 'x', TOKENS.finn))).code).toBe(403);
    expect((await clientError(create('s-handbook', 'x', TOKENS.cara))).code).toBe(403);
    expect((await clientError(create('s-handbook', 'x', TOKENS.eve))).code).toBe(404);
    await expectError(
      await t.request('POST', '/v1/spaces/s-handbook/change-requests', null, {}),
      401,
    );
    const long = await t.request('POST', '/v1/spaces/s-handbook/change-requests', TOKENS.dora, {
      subject: 's'.repeat(101),
    });
    expect(await expectError(long, 400)).toMatch(/body\.subject.*100/);
    const exact = await create('s-handbook', 's'.repeat(100));
    expect(exact.subject).toHaveLength(100);
    const template = await t.request('POST', '/v1/spaces/s-handbook/change-requests', TOKENS.dora, {
      template: { id: 'x' },
    });
    expect(await expectError(template, 400)).toMatch(/template/);
  });

  it('lists open change requests by default, filters by status, creator and contributor, and pages', async () => {
    const a = await create('s-merge', 'List A', TOKENS.dora);
    const b = await create('s-merge', 'List B', TOKENS.bob);
    const c = await create('s-merge', 'List C', TOKENS.dora);
    await api(TOKENS.dora).updateChangeRequestById('s-merge', a.id, { status: 'open' });
    await api(TOKENS.bob).updateChangeRequestById('s-merge', b.id, { status: 'open' });
    // Cleo contributes to C by writing content.
    await api(TOKENS.cleo).updateChangeRequestContent('s-merge', c.id, {
      changes: [{ operation: 'update_page', page: 'm-faq', emoji: '❓' }],
    });

    const open = (await api().listChangeRequestsForSpace('s-merge')).data;
    expect(open.items.map((cr) => cr.id).sort()).toEqual([a.id, b.id].sort());
    expect(open.items.every((cr) => cr.status === 'open')).toBe(true);
    const drafts = (
      await api().listChangeRequestsForSpace('s-merge', { status: ChangeRequestStatus.Draft })
    ).data;
    expect(drafts.items.map((cr) => cr.id)).toEqual([c.id]);
    const byCleo = (
      await api().listChangeRequestsForSpace('s-merge', {
        status: ChangeRequestStatus.Draft,
        contributor: 'u-cleo',
      })
    ).data;
    expect(byCleo.items.map((cr) => cr.id)).toEqual([c.id]);
    const byBob = await t.request(
      'GET',
      '/v1/spaces/s-merge/change-requests?creator=u-bob',
      TOKENS.dora,
    );
    expect(((await byBob.json()) as { items: ChangeRequest[] }).items.map((cr) => cr.id)).toEqual([
      b.id,
    ]);
    const bad = await t.request(
      'GET',
      '/v1/spaces/s-merge/change-requests?status=closed',
      TOKENS.dora,
    );
    expect(await expectError(bad, 400)).toMatch(/query\.status/);
    const tooMany = await t.request(
      'GET',
      '/v1/spaces/s-merge/change-requests?limit=1001',
      TOKENS.dora,
    );
    expect(await expectError(tooMany, 400)).toMatch(/query\.limit/);

    // A pagination walk over every draft of s-handbook, newest activity first.
    const all = (
      await api().listChangeRequestsForSpace('s-handbook', {
        status: ChangeRequestStatus.Draft,
        limit: 1000,
      })
    ).data;
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await api().listChangeRequestsForSpace('s-handbook', {
        status: ChangeRequestStatus.Draft,
        limit: 2,
        ...(page ? { page } : {}),
      });
      expect(data.count).toBe(all.count);
      seen.push(...data.items.map((cr) => cr.id));
      page = data.next?.page;
    } while (page);
    expect(seen).toEqual(all.items.map((cr) => cr.id));
    expect(new Set(seen).size).toBe(all.count);
    expect(all.count).toBeGreaterThanOrEqual(4);
    expect((await clientError(api(TOKENS.eve).listChangeRequestsForSpace('s-merge'))).code).toBe(
      404,
    );
  });

  it('patches subject and status; merged only by merging; only the creator or a reviewer', async () => {
    const cr = await create('s-handbook', 'Patch me', TOKENS.dora);
    const patched = (
      await api(TOKENS.dora).updateChangeRequestById('s-handbook', cr.id, {
        subject: 'Patched',
        status: 'open',
      })
    ).data;
    expect(patched).toMatchObject({ subject: 'Patched', status: 'open' });
    expect(patched.updatedAt >= cr.updatedAt).toBe(true);
    const archived = (
      await api(TOKENS.cleo).updateChangeRequestById('s-handbook', String(cr.number), {
        status: 'archived',
      })
    ).data;
    expect(archived.status).toBe('archived');
    const reopened = (
      await api(TOKENS.bob).updateChangeRequestById('s-handbook', cr.id, { status: 'draft' })
    ).data;
    expect(reopened.status).toBe('draft');

    const path = `/v1/spaces/s-handbook/change-requests/${cr.id}`;
    expect(
      await expectError(await t.request('PATCH', path, TOKENS.dora, { status: 'merged' }), 400),
    ).toMatch(/body\.status.*draft, open, archived/);
    expect(
      await expectError(
        await t.request('PATCH', path, TOKENS.dora, { subject: 'x'.repeat(101) }),
        400,
      ),
    ).toMatch(/body\.subject.*100/);
    // Bob's change request: Dora (edit) may not change it, Cleo (review) may.
    const bobs = await create('s-handbook', "Bob's", TOKENS.bob);
    expect(
      (
        await clientError(
          api(TOKENS.dora).updateChangeRequestById('s-handbook', bobs.id, { subject: 'x' }),
        )
      ).code,
    ).toBe(403);
    expect(
      (
        await clientError(
          api(TOKENS.cara).updateChangeRequestById('s-handbook', cr.id, { subject: 'x' }),
        )
      ).code,
    ).toBe(403);
    expect(
      (
        await clientError(
          api(TOKENS.eve).updateChangeRequestById('s-handbook', cr.id, { subject: 'x' }),
        )
      ).code,
    ).toBe(404);
    await expectError(await t.request('PATCH', path, null, { subject: 'x' }), 401);

    // Prefer: return=minimal answers 204.
    const minimal = await t.request(
      'PATCH',
      path,
      TOKENS.dora,
      { subject: 'Quiet' },
      {
        prefer: 'return=minimal',
      },
    );
    expect(minimal.status).toBe(204);
    expect((await get(cr)).subject).toBe('Quiet');
  });

  it('keeps the space counts true through create, patch, archive and merge', async () => {
    const counts = async () => {
      const { data } = await api().getSpaceById('s-counts');
      return [data.changeRequests, data.changeRequestsOpen, data.changeRequestsDraft];
    };
    expect(await counts()).toEqual([0, 0, 0]);
    const a = await create('s-counts', 'A', TOKENS.ada);
    const b = await create('s-counts', 'B', TOKENS.ada);
    expect(await counts()).toEqual([2, 0, 2]);
    await api(TOKENS.ada).updateChangeRequestById('s-counts', a.id, { status: 'open' });
    expect(await counts()).toEqual([2, 1, 1]);
    await api(TOKENS.ada).updateChangeRequestById('s-counts', b.id, { status: 'archived' });
    expect(await counts()).toEqual([2, 1, 0]);
    await api(TOKENS.ada).mergeChangeRequest('s-counts', a.id);
    expect(await counts()).toEqual([2, 0, 0]);
    await api(TOKENS.ada).updateChangeRequestById('s-counts', b.id, { status: 'open' });
    expect(await counts()).toEqual([2, 1, 0]);
  });
});

describe('merging and updating change requests', () => {
  it('merges a change request into main: pages, Markdown and files all arrive', async () => {
    const cr = await create('s-merge', 'Big edit');
    const before = await liveRevision('s-merge');
    await write(cr, [
      { operation: 'insert_page', into: 'm-guide', document: { markdown: '# Tips\n\nTip.\n' } },
      {
        operation: 'update_page',
        page: 'm-step',
        document: { markdown: '# Step\n\nDo it now.\n' },
      },
      { operation: 'update_page', page: 'm-faq', title: 'Questions', into: null, at: 0 },
      {
        operation: 'insert_files',
        files: [
          {
            name: 'a.txt',
            contentType: 'text/plain',
            base64: Buffer.from('file').toString('base64'),
          },
        ],
      },
    ]);
    const written = await get(cr);
    expect((await clientError(api(TOKENS.dora).mergeChangeRequest('s-merge', cr.id))).code).toBe(
      403,
    );
    const { data } = await api(TOKENS.cleo).mergeChangeRequest('s-merge', String(cr.number));
    expect(data.result).toBe('merge');
    expect(data.revision).not.toBe(before);

    const space = (await api().getSpaceById('s-merge')).data;
    expect(space.revision).toBe(data.revision);
    expect(await mainTitles('s-merge')).toEqual([
      'Questions',
      'Intro',
      ['Guide', ['Step', 'Tips']],
    ]);
    expect(await mainMarkdown('s-merge', 'm-step')).toBe('# Step\n\nDo it now.\n');
    expect(await mainMarkdown('s-merge', 'm-faq')).toBe('# Questions\n\nQ and A.\n');
    const files = (await api().listFiles('s-merge')).data;
    expect(files.items.map((file) => file.name)).toEqual(['a.txt']);

    const merged = await get(cr);
    expect(merged).toMatchObject({
      status: 'merged',
      revisionMerged: data.revision,
      mergedBy: { id: 'u-cleo' },
      outdated: false,
      revision: written.revision,
    });
    expect(merged.mergedAt).toBeDefined();
    const revision = (await api().getRevisionById('s-merge', data.revision)).data;
    expect(revision.type).toBe('merge');
    expect(revision.parents).toEqual([before, written.revision]);

    // A merged change request is final.
    expect((await clientError(api(TOKENS.cleo).mergeChangeRequest('s-merge', cr.id))).code).toBe(
      409,
    );
    expect((await clientError(api(TOKENS.dora).updateChangeRequest('s-merge', cr.id))).code).toBe(
      409,
    );
    expect(
      (
        await clientError(
          api(TOKENS.dora).updateChangeRequestById('s-merge', cr.id, { status: 'open' }),
        )
      ).code,
    ).toBe(409);
    expect(
      (
        await clientError(
          api().updateChangeRequestContent('s-merge', cr.id, {
            changes: [{ operation: 'delete_page', page: 'm-faq' }],
          }),
        )
      ).code,
    ).toBe(409);
  });

  it('marks a change request outdated when main moves, and update brings main in', async () => {
    const first = await create('s-merge', 'First');
    const second = await create('s-merge', 'Second');
    await write(first, [
      {
        operation: 'update_page',
        page: 'm-intro',
        document: { markdown: '# Intro\n\nline 1 (first)\nline 2\nline 3\nline 4\n' },
      },
      { operation: 'delete_page', page: 'm-step' },
    ]);
    await write(second, [
      {
        operation: 'update_page',
        page: 'm-intro',
        document: { markdown: '# Intro\n\nline 1\nline 2\nline 3\nline 4 (second)\n' },
      },
      { operation: 'insert_page', document: { markdown: '# Changelog\n\nv1\n' } },
    ]);
    expect((await get(second)).outdated).toBe(false);
    await api(TOKENS.cleo).mergeChangeRequest('s-merge', first.id);
    const outdated = await get(second);
    expect(outdated.outdated).toBe(true);

    const main = await liveRevision('s-merge');
    const { data } = await api().updateChangeRequest('s-merge', second.id);
    expect(data.result).toBe('update');
    const updated = await get(second);
    expect(updated.outdated).toBe(false);
    expect(updated.revision).toBe(data.revision);
    expect(updated.revisionMergedAncestor).toBe(main);
    // Both sides' line edits are in, and main's delete came along.
    expect(await crMarkdown(second, 'm-intro')).toBe(
      '# Intro\n\nline 1 (first)\nline 2\nline 3\nline 4 (second)\n',
    );
    const pages = titles((await api().listPagesInChangeRequest('s-merge', second.id)).data.pages);
    expect(pages).toEqual(['Questions', 'Intro', ['Guide', ['Tips']], 'Changelog']);
    const revision = (await api().getRevisionById('s-merge', data.revision)).data;
    expect(revision.type).toBe('update');
    expect(revision.parents).toEqual([outdated.revision, main]);

    // Updating again with nothing new is a no-op.
    const again = (await api().updateChangeRequest('s-merge', second.id)).data;
    expect(again).toEqual({ revision: data.revision, result: 'update' });

    const merged = (await api(TOKENS.cleo).mergeChangeRequest('s-merge', second.id)).data;
    expect(merged.result).toBe('merge');
    expect(await mainMarkdown('s-merge', 'm-intro')).toBe(
      '# Intro\n\nline 1 (first)\nline 2\nline 3\nline 4 (second)\n',
    );
  });

  it('merges non-overlapping edits of one page without an update first', async () => {
    const a = await create('s-merge', 'A');
    const b = await create('s-merge', 'B');
    const base = await mainMarkdown('s-merge', 'm-intro');
    const lines = base.split('\n');
    const edit = (index: number, text: string) =>
      lines.map((line, i) => (i === index ? text : line)).join('\n');
    await write(a, [
      { operation: 'update_page', page: 'm-intro', document: { markdown: edit(2, 'A was here') } },
    ]);
    await write(b, [
      { operation: 'update_page', page: 'm-intro', document: { markdown: edit(5, 'B was here') } },
      { operation: 'update_page', page: 'm-guide', title: 'Guidebook' },
    ]);
    expect((await api(TOKENS.cleo).mergeChangeRequest('s-merge', a.id)).data.result).toBe('merge');
    expect((await api(TOKENS.cleo).mergeChangeRequest('s-merge', b.id)).data.result).toBe('merge');
    const merged = await mainMarkdown('s-merge', 'm-intro');
    expect(merged).toContain('A was here');
    expect(merged).toContain('B was here');
    expect(await mainTitles('s-merge')).toContainEqual(['Guidebook', ['Tips']]);
  });

  it('answers conflicts for overlapping edits and changes nothing', async () => {
    const a = await create('s-merge', 'Conflict A');
    const b = await create('s-merge', 'Conflict B');
    await write(a, [
      {
        operation: 'update_page',
        page: 'm-faq',
        document: { markdown: '# Questions\n\nA says.\n' },
      },
    ]);
    await write(b, [
      {
        operation: 'update_page',
        page: 'm-faq',
        document: { markdown: '# Questions\n\nB says.\n' },
      },
    ]);
    await api(TOKENS.cleo).mergeChangeRequest('s-merge', a.id);
    const main = await liveRevision('s-merge');
    const before = await get(b);

    const { data } = await api(TOKENS.cleo).mergeChangeRequest('s-merge', b.id);
    expect(data.result).toBe('conflicts');
    expect(data.revision).toBe(main);
    const conflicts = (data as { conflicts?: { reason: string; page?: { id: string } }[] })
      .conflicts;
    expect(conflicts).toEqual([
      expect.objectContaining({ reason: 'content', page: { id: 'm-faq', title: 'Questions' } }),
    ]);
    expect(await liveRevision('s-merge')).toBe(main);
    expect(await get(b)).toEqual(before);
    expect(await mainMarkdown('s-merge', 'm-faq')).toBe('# Questions\n\nA says.\n');

    const update = (await api().updateChangeRequest('s-merge', b.id)).data;
    expect(update.result).toBe('conflicts');
    expect(update.revision).toBe(before.revision);
    expect(await get(b)).toEqual(before);
    expect((await get(b)).outdated).toBe(true);
  });

  it('refuses to merge into a locked space, or archived change requests', async () => {
    const cr = await create('s-merge', 'Locked out');
    await api(TOKENS.ada).updateSpaceById('s-merge', { editMode: SpaceEditMode.Locked });
    try {
      const error = await clientError(api(TOKENS.cleo).mergeChangeRequest('s-merge', cr.id));
      expect(error.code).toBe(403);
      expect(error.errorMessage).toMatch(/locked/);
    } finally {
      await api(TOKENS.ada).updateSpaceById('s-merge', { editMode: SpaceEditMode.Live });
    }
    await api().updateChangeRequestById('s-merge', cr.id, { status: 'archived' });
    expect((await clientError(api(TOKENS.cleo).mergeChangeRequest('s-merge', cr.id))).code).toBe(
      409,
    );
    expect((await clientError(api().updateChangeRequest('s-merge', cr.id))).code).toBe(409);
    expect((await clientError(api(TOKENS.eve).mergeChangeRequest('s-merge', cr.id))).code).toBe(
      404,
    );
    await expectError(
      await t.request('POST', `/v1/spaces/s-merge/change-requests/${cr.id}/merge`, null),
      401,
    );
    expect((await clientError(api(TOKENS.cara).updateChangeRequest('s-merge', cr.id))).code).toBe(
      403,
    );
  });
});

describe('merge budget', () => {
  it('merges a change request that touched 100 pages into a main moved by 100 others', async () => {
    const edits = (from: number, label: string): ChangeRequestContentChange[] =>
      Array.from({ length: 100 }, (_, i) => {
        const section = from + Math.floor(i / 19);
        const id = `l-${section}-${i % 19}`;
        return {
          operation: 'update_page' as const,
          page: id,
          document: { markdown: `# ${id}\n\nfirst line\nsecond line (${label})\nthird line\n` },
        };
      });
    const mine = await create('s-large', 'Mine', TOKENS.ada);
    const theirs = await create('s-large', 'Theirs', TOKENS.ada);
    const mineEdits = edits(0, 'mine');
    const theirEdits = edits(50, 'theirs');
    for (const batch of [mineEdits.slice(0, 50), mineEdits.slice(50)]) await write(mine, batch);
    for (const batch of [theirEdits.slice(0, 50), theirEdits.slice(50)]) await write(theirs, batch);
    await api(TOKENS.ada).mergeChangeRequest('s-large', theirs.id);
    expect((await get(mine)).outdated).toBe(true);

    // Its speed is measured by `npm run bench:server`; here only its result.
    const { data } = await api(TOKENS.ada).mergeChangeRequest('s-large', mine.id);
    expect(data.result).toBe('merge');
    expect(await mainMarkdown('s-large', 'l-0-0')).toContain('(mine)');
    expect(await mainMarkdown('s-large', 'l-50-0')).toContain('(theirs)');
    expect(await mainMarkdown('s-large', 'l-99-0')).toBe(
      '# Page 99.0\n\nfirst line\nsecond line\nthird line\n',
    );
  });
});

describe('reviews and requested reviewers', () => {
  it('requests reviewers, takes reviews, outdates superseded ones and removes requests', async () => {
    const cr = await create('s-handbook', 'Review me', TOKENS.dora);
    const requested = (
      await api(TOKENS.dora).requestReviewersForChangeRequest('s-handbook', cr.id, {
        users: ['u-cleo', 'u-finn'],
        subject: 'Please review',
      })
    ).data;
    expect(requested.users?.map((item) => item.kind === 'user' && item.user.id)).toEqual([
      'u-cleo',
      'u-finn',
    ]);
    expect(requested.users?.[0]).toMatchObject({
      object: 'change-request-requested-reviewer',
      revision: cr.revision,
      requestedBy: { id: 'u-dora' },
    });
    expect((await get(cr)).subject).toBe('Please review');
    const listed = (await api().getRequestedReviewersByChangeRequestId('s-handbook', cr.id)).data;
    expect(listed.count).toBe(2);
    const firstPage = (
      await api().getRequestedReviewersByChangeRequestId('s-handbook', cr.id, { limit: 1 })
    ).data;
    expect(firstPage.items).toHaveLength(1);
    const secondPage = (
      await api().getRequestedReviewersByChangeRequestId('s-handbook', cr.id, {
        limit: 1,
        page: firstPage.next!.page,
      })
    ).data;
    expect([...firstPage.items, ...secondPage.items]).toEqual(listed.items);
    expect(secondPage.next).toBeUndefined();

    // Nobody reviews their own change request; Cara (read) may not review at all.
    expect(
      (
        await clientError(
          api(TOKENS.dora).submitChangeRequestReview('s-handbook', cr.id, { status: APPROVED }),
        )
      ).code,
    ).toBe(403);
    expect(
      (
        await clientError(
          api(TOKENS.cara).submitChangeRequestReview('s-handbook', cr.id, { status: APPROVED }),
        )
      ).code,
    ).toBe(403);

    const response = await api(TOKENS.cleo).submitChangeRequestReview('s-handbook', cr.id, {
      status: ChangeRequestReviewStatus.ChangesRequested,
      comment: { markdown: 'Please fix the typo.' },
    });
    expect(response.status).toBe(201);
    const first = response.data;
    expect(first).toMatchObject({
      object: 'change-request-review',
      status: 'changes-requested',
      revision: cr.revision,
      reviewer: { id: 'u-cleo' },
      outdated: false,
    });
    expect(response.headers.get('location')).toBe(first.urls.location);
    expect((await get(cr)).comments).toBe(1);
    // The review's comment is a comment of the change request.
    const discussion = (
      await api().listCommentsInChangeRequest('s-handbook', cr.id, { format: 'markdown' })
    ).data;
    expect(discussion.items).toHaveLength(1);
    expect(discussion.items[0]).toMatchObject({
      postedBy: { id: 'u-cleo' },
      body: { markdown: 'Please fix the typo.' },
    });
    // Finn (comment) was asked, so he may review.
    await api(TOKENS.finn).submitChangeRequestReview('s-handbook', cr.id, { status: APPROVED });
    // Answered requests are gone.
    expect(
      (await api().getRequestedReviewersByChangeRequestId('s-handbook', cr.id)).data.count,
    ).toBe(0);
    // Finn was not asked again: a second review needs the review role.
    expect(
      (
        await clientError(
          api(TOKENS.finn).submitChangeRequestReview('s-handbook', cr.id, { status: APPROVED }),
        )
      ).code,
    ).toBe(403);

    const second = (
      await api(TOKENS.cleo).submitChangeRequestReview('s-handbook', cr.id, { status: APPROVED })
    ).data;
    const reviews = (await api().getReviewsByChangeRequestId('s-handbook', cr.id)).data;
    expect(
      reviews.items.map((review) => [review.reviewer.id, review.status, review.outdated]),
    ).toEqual([
      ['u-cleo', 'changes-requested', true],
      ['u-finn', 'approved', false],
      ['u-cleo', 'approved', false],
    ]);
    const current = (
      await api().getReviewsByChangeRequestId('s-handbook', cr.id, { outdated: false })
    ).data;
    expect(current.items.map((review) => review.id)).toEqual([reviews.items[1]!.id, second.id]);
    const one = (await api().getChangeRequestReviewById('s-handbook', cr.id, first.id)).data;
    expect(one).toEqual({ ...first, outdated: true });
    expect(
      (await clientError(api().getChangeRequestReviewById('s-handbook', cr.id, 'nope'))).code,
    ).toBe(404);
    expect(
      (await clientError(api(TOKENS.eve).getReviewsByChangeRequestId('s-handbook', cr.id))).code,
    ).toBe(404);

    const bad = await t.request(
      'POST',
      `/v1/spaces/s-handbook/change-requests/${cr.id}/reviews`,
      TOKENS.cleo,
      { status: 'rejected' },
    );
    expect(await expectError(bad, 400)).toMatch(/body\.status.*approved, changes-requested/);

    // Asking Cleo again outdates her latest review.
    await api().requestReviewersForChangeRequest('s-handbook', cr.id, { users: ['u-cleo'] });
    const again = (await api().getChangeRequestReviewById('s-handbook', cr.id, second.id)).data;
    expect(again.outdated).toBe(true);
    const removed = await api().removeRequestedReviewerFromChangeRequest(
      's-handbook',
      cr.id,
      'u-cleo',
    );
    expect(removed.status).toBe(205);
    const missing = await api().removeRequestedReviewerFromChangeRequest(
      's-handbook',
      cr.id,
      'u-cleo',
    );
    expect(missing.status).toBe(204);
  });

  it('refuses reviewer requests for unknown users, the author, and below edit', async () => {
    const cr = await create('s-handbook', 'Who reviews', TOKENS.dora);
    const path = `/v1/spaces/s-handbook/change-requests/${cr.id}/requested-reviewers`;
    expect(
      await expectError(await t.request('POST', path, TOKENS.dora, { users: ['u-eve'] }), 400),
    ).toMatch(/body\.users\.0/);
    expect(
      await expectError(await t.request('POST', path, TOKENS.dora, { users: ['u-dora'] }), 400),
    ).toMatch(/body\.users\.0/);
    expect(
      await expectError(await t.request('POST', path, TOKENS.dora, { users: [] }), 400),
    ).toMatch(/body\.users/);
    expect(
      (
        await clientError(
          api(TOKENS.finn).requestReviewersForChangeRequest('s-handbook', cr.id, {
            users: ['u-cleo'],
          }),
        )
      ).code,
    ).toBe(403);
    await expectError(await t.request('POST', path, null, { users: ['u-cleo'] }), 401);
  });
});

describe('change request comments', () => {
  it('counts open comments posted through the published client', async () => {
    const cr = await create('s-handbook', 'Discuss me', TOKENS.dora);
    const posted = (
      await api(TOKENS.finn).postCommentInChangeRequest('s-handbook', cr.id, {
        body: { markdown: 'Looks good?' },
      })
    ).data;
    expect((await get(cr)).comments).toBe(1);
    await api(TOKENS.finn).updateCommentInChangeRequest('s-handbook', cr.id, posted.id, {
      resolved: true,
    });
    expect((await get(cr)).comments).toBe(0);
    // Change-request comments are not the space's.
    expect((await api().getSpaceById('s-handbook')).data.comments).toBe(0);
  });
});

describe('change request PDF', () => {
  it('answers a signed URL that serves a real PDF of the pages, without a token', async () => {
    const cr = await create('s-pdf', 'Printable', TOKENS.ada);
    const { data } = await api(TOKENS.cara).getChangeRequestPdf('s-pdf', cr.id);
    expect(data.url.startsWith(`${t.url}/v1/`)).toBe(true);
    const response = await fetch(data.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = bytes.toString('latin1');
    for (const title of ['Getting started', 'Reference', 'Appendix']) {
      expect(text).toContain(`(${title})`);
    }

    const only = (
      await api(TOKENS.cara).getChangeRequestPdf('s-pdf', cr.id, {
        page: 'pdf-two',
        only: true,
      })
    ).data;
    const onlyText = Buffer.from(await (await fetch(only.url)).arrayBuffer()).toString('latin1');
    expect(onlyText).toContain('(Reference)');
    expect(onlyText).not.toContain('(Appendix)');
    expect(onlyText).not.toContain('(Getting started)');
    const subtree = (await api().getChangeRequestPdf('s-pdf', cr.id, { page: 'pdf-two' })).data;
    const subtreeText = Buffer.from(await (await fetch(subtree.url)).arrayBuffer()).toString(
      'latin1',
    );
    expect(subtreeText).toContain('(Appendix)');

    // The signature is what authorises the download.
    const forged = data.url.replace(/sig=[^&]+/, 'sig=AAAA');
    await expectError(await fetch(forged), 404);
    const widened = only.url.replace('only=true&', '');
    await expectError(await fetch(widened), 404);

    expect(
      (await clientError(api().getChangeRequestPdf('s-pdf', cr.id, { page: 'nope' }))).code,
    ).toBe(404);
    const onlyWithoutPage = await t.request(
      'GET',
      `/v1/spaces/s-pdf/change-requests/${cr.id}/pdf?only=true`,
      TOKENS.dora,
    );
    expect(await expectError(onlyWithoutPage, 400)).toMatch(/query\.only/);
    expect((await clientError(api(TOKENS.eve).getChangeRequestPdf('s-pdf', cr.id))).code).toBe(404);
    await expectError(
      await t.request('GET', `/v1/spaces/s-pdf/change-requests/${cr.id}/pdf`, null),
      401,
    );
  });
});
