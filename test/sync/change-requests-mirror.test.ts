import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ChangeRequestReviewStatus,
  ChangeRequestStatus,
  type ChangeRequest,
  type ChangeRequestContentChange,
  type RevisionSemanticChange,
} from '@gitbook/api';
import type { PageDiff } from '../../src/shared/contract/change-requests';
import { openCacheDatabase, type CacheDb } from '../../src/main/cache/open-cache-database';
import { ChangeRequestStore } from '../../src/main/change-requests/change-request-store';
import { ChangeRequestViews } from '../../src/main/change-requests/change-request-views';
import { WorkspaceChangeRequestRemote } from '../../src/main/change-requests/workspace-change-request-remote';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import { SyncEngine } from '../../src/main/sync/sync-engine';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS, testFixture } from '../support/test-fixture';

const SPACE = 's-review';
const PAGES = 120;

let t: TestServer;
let home: string;
let cache: CacheDb;
let engine: SyncEngine;
const requests: string[] = [];
const crs: Record<string, ChangeRequest> = {};
const api = (token: string = TOKENS.dora) => t.client(token).spaces;

async function openChangeRequest(subject: string, changes: ChangeRequestContentChange[]) {
  const { data } = await api().createChangeRequest(SPACE, { subject });
  for (let i = 0; i < changes.length; i += 50) {
    await api().updateChangeRequestContent(
      SPACE,
      data.id,
      { changes: changes.slice(i, i + 50) },
      { compat: false },
    );
  }
  await api().updateChangeRequestById(SPACE, data.id, { status: ChangeRequestStatus.Open });
  return data;
}

beforeAll(async () => {
  const fixture = testFixture();
  fixture.organizations[0]!.spaces!.push({
    id: SPACE,
    title: 'Review lab',
    pages: [
      {
        id: 'r-parent',
        title: 'Parent',
        markdown: '# Parent\n\nTop.\n',
        pages: [{ id: 'r-child', title: 'Child', markdown: '# Child\n\nUnder parent.\n' }],
      },
      ...Array.from({ length: PAGES }, (_, i) => ({
        id: `r-${i}`,
        title: `Page ${i}`,
        markdown: `# Page ${i}\n\nline one\nThe quick brown fox\nline three\nline four\nline five\nline six\nline seven\n`,
      })),
    ],
  });
  t = await startTestServer({ fixture });

  // A: 100 pages edited, one renamed, one moved, one added, one removed.
  crs['big'] = await openChangeRequest('Big review', [
    ...Array.from({ length: 100 }, (_, i) => ({
      operation: 'update_page' as const,
      page: `r-${i}`,
      document: {
        markdown: `# Page ${i}\n\nline one\nThe quick red fox\nline three\nline four\nline five\nline six\nline seven\nadded ${i}\n`,
      },
    })),
    { operation: 'update_page', page: 'r-110', title: 'Renamed page' },
    { operation: 'update_page', page: 'r-child', into: null, at: 0 },
    { operation: 'insert_page', document: { markdown: '# Brand new\n\nFresh.\n' } },
    { operation: 'delete_page', page: 'r-119' },
  ] as ChangeRequestContentChange[]);
  await api(TOKENS.dora).requestReviewersForChangeRequest(SPACE, crs['big'].id, {
    users: ['u-cleo'],
  });
  crs['draft'] = (await api().createChangeRequest(SPACE, { subject: 'Still a draft' })).data;
  crs['archived'] = (await api().createChangeRequest(SPACE, { subject: 'Shelved' })).data;
  await api().updateChangeRequestById(SPACE, crs['archived'].id, {
    status: ChangeRequestStatus.Archived,
  });

  home = mkdtempSync(join(tmpdir(), 'quire-cr-mirror-'));
  cache = openCacheDatabase(join(home, 'cache.db'));
  const client = new WorkspaceClient({
    endpoint: t.url,
    token: TOKENS.cleo,
    fetch: async (input, init) => {
      requests.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
      return fetch(input, init);
    },
  });
  engine = new SyncEngine({
    cache,
    remote: client,
    folder: join(home, 'mirror'),
    clock: { now: () => new Date() },
    changeRequests: { remote: new WorkspaceChangeRequestRemote(client), intervalMs: 0 },
  });
}, 120_000);

afterAll(async () => {
  cache?.close();
  rmSync(home, { recursive: true, force: true });
  await t?.close().catch(() => {});
});

async function syncOnly(spaceId: string) {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(join(home, 'mirror'), { recursive: true });
  const listed = await engine.refreshSpaces();
  for (const space of listed.spaces) engine.setSpaceEnabled(space.id, space.id === spaceId);
  requests.length = 0;
  return engine.syncOnce();
}

/** The server's semantic page changes and ours, in one comparable form. */
function serverChanges(changes: readonly RevisionSemanticChange[]): string[] {
  return changes
    .filter((change) => change.type.startsWith('page_'))
    .map((change) => `${change.type} ${(change as { page: { id: string } }).page.id}`)
    .sort();
}

function ourChanges(pages: readonly PageDiff[]): string[] {
  return pages
    .flatMap((page) => {
      if (page.status === 'added') return [`page_created ${page.pageId}`];
      if (page.status === 'removed') return [`page_deleted ${page.pageId}`];
      const edited = page.contentChanged || page.renamedFrom !== null || page.fields.length > 0;
      return [
        ...(edited ? [`page_edited ${page.pageId}`] : []),
        ...(page.moved ? [`page_moved ${page.pageId}`] : []),
      ];
    })
    .sort();
}

describe('change requests mirrored by the sync', () => {
  it('caches open and draft change requests with reviewers, contributors and content', async () => {
    await syncOnly(SPACE);
    const views = new ChangeRequestViews(cache);
    const inbox = views.inbox('u-cleo');
    expect(inbox.map((item) => item.subject)).toEqual(['Big review', 'Still a draft']);
    expect(inbox[0]).toMatchObject({
      number: crs['big']!.number,
      status: 'open',
      waitingForYou: 'review-requested',
      space: 'Review lab',
      organization: 'Acme',
      author: { id: 'u-dora' },
    });
    const detail = views.detail({ space: SPACE, number: crs['big']!.number }, 'u-cleo');
    expect(detail.requestedReviewers.map((request) => request.user.id)).toEqual(['u-cleo']);
    expect(detail.contributors.map((c) => [c.user.id, c.actionType])).toEqual([['u-dora', 'edit']]);
    expect(detail.reviews).toEqual([]);
  });

  it('computes the diff offline, equal to the server /changes for 100+ changed pages', async () => {
    const { data } = await api(TOKENS.cleo).getChangeRequestChanges(SPACE, crs['big']!.id, {
      limit: 1000,
    });
    const diff = new ChangeRequestViews(cache).diff({
      space: 'Review lab',
      number: crs['big']!.number,
    });
    expect(ourChanges(diff.pages)).toEqual(serverChanges(data.changes));
    expect(diff.pages.length).toBe(104);

    const edited = diff.pages.find((page) => page.pageId === 'r-3')!;
    expect(edited).toMatchObject({ status: 'modified', added: 2, removed: 1 });
    const removed = edited.lines.find((line) => line.kind === 'removed')!;
    const added = edited.lines.find((line) => line.kind === 'added')!;
    expect(removed).toMatchObject({
      oldLine: 4,
      segments: [
        { text: 'The quick ', changed: false },
        { text: 'brown', changed: true },
        { text: ' fox', changed: false },
      ],
    });
    expect(added).toMatchObject({ newLine: 4 });
    expect(added.kind === 'added' && added.segments.find((s) => s.changed)?.text).toBe('red');
    expect(edited.lines.some((line) => line.kind === 'skipped')).toBe(false);

    expect(diff.pages.find((page) => page.pageId === 'r-110')).toMatchObject({
      renamedFrom: 'Page 110',
      title: 'Renamed page',
    });
    expect(diff.pages.find((page) => page.pageId === 'r-child')?.moved).toEqual({
      fromParent: 'Parent',
      toParent: null,
    });
    expect(diff.pages.find((page) => page.pageId === 'r-119')?.status).toBe('removed');
    expect(diff.pages.find((page) => page.title === 'Brand new')).toMatchObject({
      status: 'added',
      added: 3,
    });
  });

  it('refetches nothing when nothing moved: one list request per organization', async () => {
    await syncOnly(SPACE);
    expect(requests.filter((path) => path.includes('change-requests'))).toEqual([
      '/v1/orgs/o-acme/change-requests',
    ]);
  });

  it('refetches only the change request that changed (a review), never a cached revision', async () => {
    await api(TOKENS.cleo).submitChangeRequestReview(SPACE, crs['big']!.id, {
      status: ChangeRequestReviewStatus.ChangesRequested,
    });
    await syncOnly(SPACE);
    const details = requests.filter((path) => /change-requests\/[^/]+\//.test(path));
    expect(details.every((path) => path.includes(crs['big']!.id))).toBe(true);
    expect(details.some((path) => path.endsWith('/reviews'))).toBe(true);
    expect(requests.filter((path) => path.includes('/revisions/'))).toEqual([]);

    const views = new ChangeRequestViews(cache);
    const mine = views.inbox('u-dora').find((item) => item.id === crs['big']!.id)!;
    expect(mine.waitingForYou).toBe('changes-requested');
    const forCleo = views.inbox('u-cleo').find((item) => item.id === crs['big']!.id)!;
    // Answered: the request is gone with the review.
    expect(forCleo.waitingForYou).toBeNull();
  });

  it('keeps a pinned change request whatever its status; drops merged and unpinned ones', async () => {
    const store = new ChangeRequestStore(cache);
    store.pin(SPACE, crs['archived']!.number, new Date().toISOString());
    await api(TOKENS.cleo).mergeChangeRequest(SPACE, crs['draft']!.id);
    await syncOnly(SPACE);
    const subjects = new ChangeRequestViews(cache).inbox('u-cleo').map((item) => item.subject);
    expect(subjects.sort()).toEqual(['Big review', 'Shelved']);
    expect(store.find(SPACE, crs['archived']!.number)?.pinned).toBe(true);
  });

  it('refreshes at most once per interval (one list per organization each time)', async () => {
    const client = new WorkspaceClient({
      endpoint: t.url,
      token: TOKENS.cleo,
      fetch: async (input, init) => {
        requests.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
        return fetch(input, init);
      },
    });
    const throttled = new SyncEngine({
      cache,
      remote: client,
      folder: join(home, 'mirror'),
      clock: { now: () => new Date() },
      changeRequests: {
        remote: new WorkspaceChangeRequestRemote(client),
        intervalMs: 60_000,
        sendQueued: async () => {
          sends += 1;
          return [];
        },
      },
    });
    let sends = 0;
    requests.length = 0;
    await throttled.syncOnce();
    expect(requests.filter((path) => path.includes('change-requests'))).toEqual([]);
    // What the user queued offline goes with this sync all the same, not after the interval.
    expect(sends).toBe(1);
  });

  it('reads the inbox, a change request and its diff with the server stopped', async () => {
    await t.close();
    const views = new ChangeRequestViews(cache);
    expect(views.inbox('u-cleo').length).toBe(2);
    const ref = { space: SPACE, number: crs['big']!.number };
    expect(views.detail(ref, 'u-cleo').reviews.map((review) => review.status)).toEqual([
      'changes-requested',
    ]);
    expect(views.diff(ref).pages.length).toBe(104);
    // A sync offline leaves the mirror as it was.
    await engine.syncOnce();
    expect(new ChangeRequestViews(cache).inbox('u-cleo').length).toBe(2);
  });
});
