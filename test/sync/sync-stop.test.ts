import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../../src/main/cache/open-cache-database';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import { SyncEngine } from '../../src/main/sync/sync-engine';
import type { RemoteWorkspace } from '../../src/main/sync-ports';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { contentFixture, TOKENS } from '../support/test-fixture';
import { engineFor, readTree, treeAsText } from './sync-test-kit';

/**
 * A sync stopped by its signal (what `sync --watch` does on SIGTERM) in the middle of a pull's
 * asset downloads: the download in flight finishes, no other request starts, the space is not an
 * error and its pull is not recorded; the next sync redoes it, recognising the files the stopped
 * pull wrote (pending-writes journal), and ends with the tree a clean sync produces.
 */
let server: TestServer;
let dirs: string[];
let caches: CacheDb[];

beforeEach(async () => {
  server = await startTestServer({ fixture: contentFixture() });
  dirs = [];
  caches = [];
});
afterEach(async () => {
  for (const cache of caches) cache.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await server.close();
});

/** The client, with every call counted and a hook before each download. */
function countingRemote(beforeDownload: () => void): { remote: RemoteWorkspace; calls: string[] } {
  const client = new WorkspaceClient({ endpoint: server.url, token: TOKENS.ada });
  const calls: string[] = [];
  const remote: RemoteWorkspace = {
    whoAmI: () => client.whoAmI(),
    listOrganizations: () => {
      calls.push('listOrganizations');
      return client.listOrganizations();
    },
    listSpaces: (organizationId) => {
      calls.push(`listSpaces ${organizationId}`);
      return client.listSpaces(organizationId);
    },
    getRevision: (spaceId, revisionId, knownPages) => {
      calls.push(`getRevision ${spaceId}`);
      return client.getRevision(spaceId, revisionId, knownPages);
    },
    downloadFile: (file) => {
      calls.push(`downloadFile ${file.id}`);
      beforeDownload();
      return client.downloadFile(file);
    },
  };
  return { remote, calls };
}

describe('a sync stopped by its signal', () => {
  it('stops between asset downloads; the next sync finishes the pull with nothing lost or doubled', async () => {
    const home = mkdtempSync(join(tmpdir(), 'quire-stop-home-'));
    const folder = mkdtempSync(join(tmpdir(), 'quire-stop-folder-'));
    dirs.push(home, folder);
    const cache = openCacheDatabase(join(home, 'cache.db'));
    caches.push(cache);
    const stop = new AbortController();
    // The stop arrives while the first download is in flight.
    const { remote, calls } = countingRemote(() => stop.abort());
    const engine = new SyncEngine({ cache, remote, folder, clock: { now: () => new Date() } });

    const stopped = await engine.syncOnce({ signal: stop.signal });
    expect(stopped.stopped).toBe(true);
    expect(stopped.errors).toEqual([]);
    const downloads = calls.filter((call) => call.startsWith('downloadFile'));
    expect(downloads).toHaveLength(1);
    // Nothing started after the download in flight.
    expect(calls.at(-1)).toBe(downloads[0]);
    const media = stopped.spaces.find((space) => space.spaceId === 's-media')!;
    expect(media).toMatchObject({ stopped: true });
    expect(media.error).toBeUndefined();
    expect(engine.status().find((space) => space.id === 's-media')).toMatchObject({
      state: 'pending',
      errors: [],
    });

    const resumed = await engine.syncOnce();
    expect(resumed.stopped).toBeUndefined();
    expect(resumed.errors).toEqual([]);
    for (const space of resumed.spaces) {
      expect(space.error, space.spaceId).toBeUndefined();
      expect(space.problems, space.spaceId).toEqual([]);
    }
    expect(engine.status().every((space) => !space.enabled || space.state === 'synced')).toBe(true);

    const clean = engineFor(server);
    try {
      await clean.engine.syncOnce();
      expect(treeAsText(readTree(folder))).toEqual(treeAsText(readTree(clean.folder)));
    } finally {
      clean.close();
    }
    // And the next sync has nothing to do.
    const again = await engine.syncOnce();
    expect(again.filesWritten + again.filesRemoved).toBe(0);
  });

  it('an already stopped signal: nothing is asked of the server', async () => {
    const home = mkdtempSync(join(tmpdir(), 'quire-stop-home-'));
    const folder = mkdtempSync(join(tmpdir(), 'quire-stop-folder-'));
    dirs.push(home, folder);
    const cache = openCacheDatabase(join(home, 'cache.db'));
    caches.push(cache);
    const { remote, calls } = countingRemote(() => {});
    const engine = new SyncEngine({ cache, remote, folder, clock: { now: () => new Date() } });
    const report = await engine.syncOnce({ signal: AbortSignal.abort() });
    expect(report).toMatchObject({ stopped: true, errors: [], spaces: [] });
    expect(calls).toEqual([]);
  });
});
