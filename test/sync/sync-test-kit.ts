import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChangeRequestContentChange } from '@gitbook/api';
import { openCacheDatabase, type CacheDb } from '../../src/main/cache/open-cache-database';
import { WorkspaceOutboxRemote } from '../../src/main/outbox/workspace-outbox-remote';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import { SyncEngine } from '../../src/main/sync/sync-engine';
import type { SyncProgress } from '../../src/main/sync-ports';
import type { TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

/** Every regular file under `root` (hidden ones included) by '/'-separated relative path. */
export function readTree(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const visit = (directory: string, prefix: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) visit(join(directory, entry.name), relative);
      else files.set(relative, readFileSync(join(directory, entry.name)));
    }
  };
  visit(root, '');
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Inode, mtime and ctime of every file: any write (even of the same bytes) changes one. */
export function fileStamps(root: string): Map<string, string> {
  const stamps = new Map<string, string>();
  for (const path of readTree(root).keys()) {
    const stats = lstatSync(join(root, path), { bigint: true });
    stamps.set(path, `${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`);
  }
  return stamps;
}

/** The tree as text (binary files as base64), for readable diffs in failures. */
export function treeAsText(tree: ReadonlyMap<string, Buffer>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [path, bytes] of tree) {
    const text = bytes.toString('utf8');
    result[path] = Buffer.from(text, 'utf8').equals(bytes)
      ? text
      : `base64:${bytes.toString('base64')}`;
  }
  return result;
}

/** Changes a space on the server the way a user would: a change request, merged. */
export async function remoteEdit(
  t: TestServer,
  spaceId: string,
  changes: ChangeRequestContentChange[],
): Promise<void> {
  const api = t.client(TOKENS.ada).spaces;
  const { data: cr } = await api.createChangeRequest(spaceId, { subject: 'Remote edit' });
  await api.updateChangeRequestContent(spaceId, cr.id, { changes }, { compat: false });
  await api.mergeChangeRequest(spaceId, cr.id);
}

export interface EngineKit {
  engine: SyncEngine;
  cache: CacheDb;
  home: string;
  folder: string;
  progress: SyncProgress[];
  /** Requests the engine's client sent (method and path). */
  clientRequests: string[];
  close(): void;
}

/** A SyncEngine over the real WorkspaceClient, its cache in a temp "home", its folder elsewhere. */
export function engineFor(t: TestServer, token: string = TOKENS.ada): EngineKit {
  const home = mkdtempSync(join(tmpdir(), 'quire-sync-home-'));
  const folder = mkdtempSync(join(tmpdir(), 'quire-sync-folder-'));
  const cache = openCacheDatabase(join(home, 'cache.db'));
  const progress: SyncProgress[] = [];
  const clientRequests: string[] = [];
  const countingFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    clientRequests.push(`${method} ${url.pathname}`);
    return fetch(input, init);
  };
  const remote = new WorkspaceClient({ endpoint: t.url, token, fetch: countingFetch });
  const engine = new SyncEngine({
    cache,
    remote,
    folder,
    clock: { now: () => new Date() },
    onProgress: (event) => progress.push(event),
  });
  return {
    engine,
    cache,
    home,
    folder,
    progress,
    clientRequests,
    close: () => {
      cache.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The device name push tests give the engine: working change requests are "Edits from <it>". */
export const TEST_DEVICE = 'test-host';

/**
 * Like engineFor, with the push side on: the outbox drains into the space's working change
 * request over the same kind of client, named after TEST_DEVICE, never waiting long offline.
 * `fetch` carries every request of the engine (a test's fault or race); `now` is its clock.
 */
export function pushEngineFor(
  t: TestServer,
  token: string = TOKENS.ada,
  options: { fetch?: typeof fetch; now?: () => Date } = {},
): EngineKit {
  const kit = engineFor(t, token);
  const client = new WorkspaceClient({
    endpoint: t.url,
    token,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const engine = new SyncEngine({
    cache: kit.cache,
    remote: client,
    folder: kit.folder,
    clock: { now: options.now ?? (() => new Date()) },
    push: {
      remote: new WorkspaceOutboxRemote(client),
      deviceName: TEST_DEVICE,
      maxOfflineWaits: 0,
    },
  });
  return { ...kit, engine };
}
