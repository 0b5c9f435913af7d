import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentCache } from '../cache/content-cache';
import { openCacheDatabase, type CacheDb } from '../cache/open-cache-database';
import { SpaceCache } from '../cache/space-cache';
import type { RemoteChangeRequest, RemoteChangeRequests, RemotePage } from '../sync-ports';
import { ChangeRequestStore } from './change-request-store';
import { pullChangeRequests } from './pull-change-requests';

/**
 * The mirror's rules with a scripted remote over a real cache: one organization or change
 * request that fails never stops the others, and what failed is read again by the next pull.
 */
let dir: string;
let db: CacheDb;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-cr-pull-'));
  db = openCacheDatabase(join(dir, 'cache.db'));
  const spaces = new SpaceCache(db);
  for (const org of ['o-1', 'o-2']) {
    spaces.insertOrganization({ id: org, title: org, folderName: org, position: 0 });
    spaces.insertSpace({
      id: `s-${org}`,
      organizationId: org,
      title: `Space of ${org}`,
      emoji: null,
      parentId: null,
      folderPath: `${org}/space`,
      position: 0,
      enabled: true,
      remoteRevision: 'main',
      discoveredAt: '2026-01-01T00:00:00.000Z',
    });
    spaces.markSynced(`s-${org}`, 'main', '2026-01-01T00:00:00.000Z');
  }
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function cr(space: string, number: number, updatedAt = '2026-01-02T00:00:00.000Z') {
  return {
    id: `${space}-cr-${number}`,
    number,
    status: 'open',
    subject: `CR ${number}`,
    space,
    revision: `rev-${space}-${number}`,
    revisionInitial: 'main',
    outdated: false,
    comments: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt,
    createdBy: { id: 'u-1', displayName: 'One' },
  } as RemoteChangeRequest;
}

const page = (id: string, markdown: string): RemotePage => ({
  id,
  type: 'document',
  title: id,
  markdown,
  pages: [],
});

function scripted(lists: Record<string, RemoteChangeRequest[] | Error>) {
  const calls: string[] = [];
  const failing = new Set<string>();
  const port: RemoteChangeRequests = {
    listOrganizationChangeRequests: async (org) => {
      calls.push(`list ${org}`);
      const list = lists[org];
      if (list instanceof Error) throw list;
      return list ?? [];
    },
    getChangeRequest: async () => undefined,
    listReviews: async (_space, id) => {
      calls.push(`reviews ${id}`);
      if (failing.has(id)) throw new Error(`reviews of ${id} failed`);
      return [];
    },
    listRequestedReviewers: async () => [],
    listContributors: async () => [],
  };
  const remote = {
    getRevision: async (spaceId: string, revisionId: string) => {
      calls.push(`revision ${revisionId}`);
      return { id: revisionId, pages: [page('p', `${revisionId}\n`)], files: [] };
    },
  };
  const run = () =>
    pullChangeRequests({
      db,
      spaces: new SpaceCache(db),
      content: new ContentCache(db),
      remote,
      changeRequests: port,
      now: () => '2026-01-03T00:00:00.000Z',
      log: () => {},
    });
  return { calls, failing, run };
}

const mirrored = () =>
  new ChangeRequestStore(db)
    .list()
    .map((item) => item.changeRequest.id)
    .sort();

describe('pullChangeRequests', () => {
  it('goes on past an organization whose list fails, keeping what it had cached', async () => {
    const first = scripted({ 'o-1': [cr('s-o-1', 1)], 'o-2': [cr('s-o-2', 1)] });
    expect((await first.run()).fetched).toBe(2);
    const second = scripted({ 'o-1': new Error('502'), 'o-2': [cr('s-o-2', 1), cr('s-o-2', 2)] });
    const report = await second.run();
    expect(report.errors).toEqual(['change requests of organization o-1: 502']);
    expect(mirrored()).toEqual(['s-o-1-cr-1', 's-o-2-cr-1', 's-o-2-cr-2']);
    // Only the new one was read; the main revision was fetched once, then shared.
    expect(second.calls).toEqual([
      'list o-1',
      'list o-2',
      'reviews s-o-2-cr-2',
      'revision rev-s-o-2-2',
    ]);
  });

  it('leaves a change request whose details fail for the next pull, mirroring the others', async () => {
    const remote = scripted({ 'o-1': [cr('s-o-1', 1), cr('s-o-1', 2)] });
    remote.failing.add('s-o-1-cr-1');
    const report = await remote.run();
    expect(report.errors).toEqual([
      'change request 1 of space s-o-1: reviews of s-o-1-cr-1 failed',
    ]);
    expect(mirrored()).toEqual(['s-o-1-cr-2']);
    remote.failing.clear();
    remote.calls.length = 0;
    expect((await remote.run()).fetched).toBe(1);
    expect(remote.calls).toContain('reviews s-o-1-cr-1');
    expect(mirrored()).toEqual(['s-o-1-cr-1', 's-o-1-cr-2']);
  });

  it('drops change requests that left the list, and their revisions and bodies', async () => {
    await scripted({ 'o-1': [cr('s-o-1', 1)] }).run();
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT count(*) AS n FROM change_request_revisions')).toBe(2);
    const report = await scripted({ 'o-1': [] }).run();
    expect(report.removed).toBe(1);
    expect(mirrored()).toEqual([]);
    expect(count('SELECT count(*) AS n FROM change_request_revisions')).toBe(0);
    expect(count('SELECT count(*) AS n FROM bodies')).toBe(0);
  });
});
