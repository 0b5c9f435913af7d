import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChangeRequestReviewStatus,
  ChangeRequestStatus,
  type ChangeRequest,
  type RevisionPage,
} from '@gitbook/api';
import {
  clientError,
  clientFailure,
  expectError,
  startTestServer,
  type TestServer,
} from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';

let t: TestServer;
const made: Record<string, ChangeRequest> = {};
const spaces = (token: string = TOKENS.dora) => t.client(token).spaces;
const orgs = (token: string = TOKENS.dora) => t.client(token).orgs;

async function create(spaceId: string, subject: string, token: string, status?: 'open') {
  const { data } = await spaces(token).createChangeRequest(spaceId, { subject });
  if (!status) return data;
  return (await spaces(token).updateChangeRequestById(spaceId, data.id, { status })).data;
}

beforeAll(async () => {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push(
    {
      id: 's-cr-a',
      title: 'Reviews A',
      pages: [{ id: 'a-one', title: 'One', markdown: '# One\n\nfirst\n' }],
    },
    { id: 's-cr-b', title: 'Reviews B' },
  );
  t = await startTestServer({ fixture });
  made['a1'] = await create('s-cr-a', 'A open', TOKENS.dora, 'open');
  made['a2'] = await create('s-cr-a', 'A draft', TOKENS.dora);
  made['a3'] = await create('s-cr-a', 'A archived', TOKENS.bob);
  await spaces(TOKENS.bob).updateChangeRequestById('s-cr-a', made['a3'].id, {
    status: ChangeRequestStatus.Archived,
  });
  made['b1'] = await create('s-cr-b', 'B open', TOKENS.bob, 'open');
  await spaces(TOKENS.bob).requestReviewersForChangeRequest('s-cr-b', made['b1'].id, {
    users: ['u-cleo'],
  });
  made['h1'] = await create('s-handbook', 'Handbook open', TOKENS.dora, 'open');
});
afterAll(async () => {
  await t.close();
});

const subjects = (items: readonly ChangeRequest[]) => items.map((item) => item.subject).sort();

describe('GET /v1/orgs/{organizationId}/change-requests', () => {
  it('lists open change requests across the spaces by default, newest activity first', async () => {
    const { data } = await orgs().listChangeRequestsForOrganization('o-acme');
    expect(subjects(data.items)).toEqual(['A open', 'B open', 'Handbook open']);
    expect(data.count).toBe(3);
    const times = data.items.map((item) => item.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
    const first = data.items.find((item) => item.subject === 'B open')!;
    expect(first).toMatchObject({ object: 'change-request', space: 's-cr-b', status: 'open' });
    expect(first.createdBy.id).toBe('u-bob');
  });

  it('filters by status (repeated), space, creator, contributor and requested reviewer', async () => {
    const list = async (
      query: Parameters<ReturnType<typeof orgs>['listChangeRequestsForOrganization']>[1],
    ) => subjects((await orgs().listChangeRequestsForOrganization('o-acme', query)).data.items);
    expect(
      await list({ status: [ChangeRequestStatus.Draft, ChangeRequestStatus.Archived] }),
    ).toEqual(['A archived', 'A draft']);
    expect(await list({ space: 's-cr-a', status: [ChangeRequestStatus.Open] })).toEqual(['A open']);
    expect(await list({ creator: 'u-bob' })).toEqual(['B open']);
    expect(await list({ contributor: 'u-dora', status: [ChangeRequestStatus.Draft] })).toEqual([
      'A draft',
    ]);
    expect(await list({ requestedReviewer: 'u-cleo' })).toEqual(['B open']);
    expect(await list({ site: 'site-1' })).toEqual([]);
    // A docs site publishing space A: its change requests.
    const created = await t.request('POST', '/v1/orgs/o-acme/sites', TOKENS.ada, {
      title: 'Site of A',
      spaces: ['s-cr-a'],
    });
    const site = (await created.json()) as { id: string };
    expect(await list({ site: site.id, status: [ChangeRequestStatus.Open] })).toEqual(['A open']);
    expect(await list({ orderBy: 'createdAt' as never, finding: 'all' })).toHaveLength(3);
  });

  it('walks every page with the cursor, each item once', async () => {
    const all = [
      ChangeRequestStatus.Open,
      ChangeRequestStatus.Draft,
      ChangeRequestStatus.Archived,
      ChangeRequestStatus.Merged,
    ];
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await orgs().listChangeRequestsForOrganization('o-acme', {
        status: all,
        limit: 2,
        ...(page ? { page } : {}),
      });
      expect(data.count).toBe(5);
      seen.push(...data.items.map((item) => item.id));
      page = data.next?.page;
    } while (page);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });

  it('shows a guest only the change requests of spaces granted to them', async () => {
    const { data } = await orgs(TOKENS.gus).listChangeRequestsForOrganization('o-acme');
    expect(subjects(data.items)).toEqual(['Handbook open']);
  });

  it('answers 401 without a token, 404 for another organization, 400 naming a bad filter', async () => {
    const noToken = await fetch(`${t.url}/v1/orgs/o-acme/change-requests`);
    expect(noToken.status).toBe(401);
    expect(await clientFailure(orgs(TOKENS.eve).listChangeRequestsForOrganization('o-acme'))).toBe(
      404,
    );
    expect(await clientFailure(orgs().listChangeRequestsForOrganization('o-other'))).toBe(404);
    const bad = await fetch(`${t.url}/v1/orgs/o-acme/change-requests?status=closed`, {
      headers: { authorization: `Bearer ${TOKENS.dora}` },
    });
    expect(await expectError(bad, 400)).toMatch(/status/);
    const cursor = await fetch(`${t.url}/v1/orgs/o-acme/change-requests?page=nope`, {
      headers: { authorization: `Bearer ${TOKENS.dora}` },
    });
    expect(await expectError(cursor, 400)).toMatch(/page/);
  });
});

describe('activity moves updatedAt', () => {
  it('a reviewer asked for or removed, and a review, move the change request', async () => {
    const cr = await create('s-cr-b', 'Moving', TOKENS.dora, 'open');
    const updatedAt = async () =>
      (await spaces().getChangeRequestById('s-cr-b', cr.id)).data.updatedAt;
    const steps = [
      () => spaces().requestReviewersForChangeRequest('s-cr-b', cr.id, { users: ['u-cleo'] }),
      () =>
        spaces(TOKENS.cleo).submitChangeRequestReview('s-cr-b', cr.id, {
          status: ChangeRequestReviewStatus.Approved,
        }),
      () => spaces().requestReviewersForChangeRequest('s-cr-b', cr.id, { users: ['u-bob'] }),
      () => spaces().removeRequestedReviewerFromChangeRequest('s-cr-b', cr.id, 'u-bob'),
    ];
    let before = await updatedAt();
    for (const step of steps) {
      // Timestamps have millisecond resolution: make sure the clock moved.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await step();
      const after = await updatedAt();
      expect(after > before).toBe(true);
      before = after;
    }
  });
});

describe('GET …/change-requests/{changeRequestId}/contributors', () => {
  it('lists who edited and who commented, by number or id', async () => {
    const cr = made['a1']!;
    await spaces(TOKENS.cleo).postCommentInChangeRequest('s-cr-a', cr.id, {
      body: { markdown: 'Looks good' },
    });
    await spaces(TOKENS.cleo).postCommentInChangeRequest('s-cr-a', cr.id, {
      body: { markdown: 'One more thing' },
    });
    const byId = (await spaces().getContributorsByChangeRequestId('s-cr-a', cr.id)).data;
    const byNumber = (await spaces().getContributorsByChangeRequestId('s-cr-a', String(cr.number)))
      .data;
    expect(byNumber).toEqual(byId);
    expect(byId.count).toBe(2);
    const summary = byId.items.map((item) => [item.user.id, item.actionType, item.count]);
    expect(summary).toEqual(
      expect.arrayContaining([
        ['u-dora', 'edit', 1],
        ['u-cleo', 'comment', 2],
      ]),
    );
    for (const item of byId.items) expect(Date.parse(item.updatedAt)).not.toBeNaN();
  });

  it('answers 404 for an unknown change request and for a reader of another organization', async () => {
    const error = await clientError(spaces().getContributorsByChangeRequestId('s-cr-a', '999'));
    expect(error.code).toBe(404);
    expect(
      await clientFailure(
        spaces(TOKENS.eve).getContributorsByChangeRequestId('s-cr-a', made['a1']!.id),
      ),
    ).toBe(404);
    const noToken = await fetch(`${t.url}/v1/spaces/s-cr-a/change-requests/1/contributors`);
    expect(noToken.status).toBe(401);
  });
});

describe('GET /v1/spaces/{spaceId}/documents/{documentId}', () => {
  const documentIdOf = (pages: readonly RevisionPage[], id: string) => {
    const page = pages.find((item) => item.id === id) as RevisionPage & { documentId?: string };
    return page.documentId!;
  };

  it("returns a live page's document, the same as the page document read", async () => {
    const { data: space } = await spaces().getSpaceById('s-cr-a');
    const { data: pages } = await spaces().listPages('s-cr-a');
    const documentId = documentIdOf(pages.pages, 'a-one');
    expect(documentId).toBeTruthy();
    const { data } = await spaces().getDocumentById('s-cr-a', documentId, { schema: 'next' });
    const { data: expected } = await spaces().getPageDocumentInRevisionById(
      's-cr-a',
      space.revision,
      'a-one',
    );
    expect(data).toEqual(expected);
    expect(data).toMatchObject({ object: 'document' });
  });

  it("finds a document that exists only in a change request's content", async () => {
    const cr = made['a2']!;
    await spaces().updateChangeRequestContent(
      's-cr-a',
      cr.id,
      {
        changes: [
          { operation: 'insert_page', document: { markdown: '# Draft page\n\nNew text.\n' } },
        ],
      },
      { compat: false },
    );
    const { data: pages } = await spaces().listPagesInChangeRequest('s-cr-a', cr.id);
    const page = pages.pages.find((item) => item.title === 'Draft page')!;
    const documentId = documentIdOf(pages.pages, page.id);
    const { data } = await spaces().getDocumentById('s-cr-a', documentId);
    expect(JSON.stringify(data)).toContain('New text.');
  });

  it('answers 404 for an unknown id, another space, another organization; 401 without a token', async () => {
    const { data: pages } = await spaces().listPages('s-cr-a');
    const documentId = documentIdOf(pages.pages, 'a-one');
    expect(await clientFailure(spaces().getDocumentById('s-cr-a', 'nope'))).toBe(404);
    expect(await clientFailure(spaces().getDocumentById('s-handbook', documentId))).toBe(404);
    expect(await clientFailure(spaces(TOKENS.eve).getDocumentById('s-cr-a', documentId))).toBe(404);
    const noToken = await fetch(`${t.url}/v1/spaces/s-cr-a/documents/${documentId}`);
    expect(noToken.status).toBe(401);
    const bad = await fetch(`${t.url}/v1/spaces/s-cr-a/documents/${documentId}?schema=old`, {
      headers: { authorization: `Bearer ${TOKENS.dora}` },
    });
    expect(await expectError(bad, 400)).toMatch(/schema/);
  });
});
