import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../../src/main/cache/open-cache-database';
import { Outbox } from '../../src/main/outbox/outbox';
import { OutboxDrainer, type OutboxDrainerOptions } from '../../src/main/outbox/outbox-drainer';
import type { OutboxRemote } from '../../src/main/outbox/outbox-remote';
import { WorkspaceOutboxRemote } from '../../src/main/outbox/workspace-outbox-remote';
import {
  WorkspaceClient,
  type WorkspaceClientOptions,
} from '../../src/main/remote/workspace-client';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { TOKENS } from '../support/test-fixture';

const SPACE = 's-handbook';
const clock = { now: () => new Date() };

/** A request the client put on the wire. */
interface Wire {
  method: string;
  path: string;
  key: string | null;
  status: number;
  replayed: boolean;
}

let t: TestServer;
let dir: string;
let db: CacheDb;
let wire: Wire[];

beforeEach(async () => {
  t = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'quire-outbox-sync-'));
  db = openCacheDatabase(join(dir, 'cache.db'));
  wire = [];
});
afterEach(async () => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

/** The real fetch, recording every exchange. */
const recordingFetch: typeof fetch = async (input, init = {}) => {
  const url = new URL(String(input instanceof Request ? input.url : input));
  const response = await fetch(url, init);
  wire.push({
    method: init.method ?? 'GET',
    path: url.pathname,
    key: new Headers(init.headers).get('idempotency-key'),
    status: response.status,
    replayed: response.headers.get('idempotent-replayed') === 'true',
  });
  return response;
};

function client(extra: Partial<WorkspaceClientOptions> = {}): WorkspaceClient {
  return new WorkspaceClient({
    endpoint: t.url,
    token: TOKENS.ada,
    fetch: recordingFetch,
    http: { sleep: async () => undefined },
    ...extra,
  });
}

function kit(
  remote: OutboxRemote = new WorkspaceOutboxRemote(client()),
  extra: Partial<OutboxDrainerOptions> = {},
) {
  const outbox = new Outbox({ db, clock });
  const drainer = new OutboxDrainer({
    db,
    outbox,
    client: remote,
    deviceName: 'Ada’s laptop',
    clock,
    sleep: async () => undefined,
    ...extra,
  });
  return { outbox, drainer };
}

const api = () => t.client(TOKENS.ada).spaces;
const contentPosts = () => wire.filter((w) => w.method === 'POST' && w.path.endsWith('/content'));

/** Every page of the change request, nested ones included. */
async function pagesOf(changeRequestId: string): Promise<{ id: string; title: string }[]> {
  const { data } = await api().listPagesInChangeRequest(SPACE, changeRequestId);
  type Node = { id: string; title: string; pages?: Node[] };
  const flat = (pages: Node[]): Node[] =>
    pages.flatMap((page) => [page, ...flat(page.pages ?? [])]);
  return flat(data.pages as Node[]);
}

async function markdownOf(changeRequestId: string, pageId: string): Promise<string | undefined> {
  const { data } = await api().getPageInChangeRequestById(SPACE, changeRequestId, pageId, {
    format: 'markdown',
  });
  return (data as { markdown?: string }).markdown;
}

describe('OutboxDrainer against the real server', () => {
  it('creates the working change request on the first push and pushes an update and an insert', async () => {
    const { outbox, drainer } = kit();
    outbox.enqueue({
      kind: 'update_page',
      spaceId: SPACE,
      page: { pageId: 'p-welcome' },
      markdown: '# Welcome\n\nHello from the laptop.\n',
    });
    outbox.enqueue({
      kind: 'insert_page',
      spaceId: SPACE,
      localKey: 'guides/faq.md',
      markdown: '# FAQ\n\nAsk away.\n',
      into: { pageId: 'p-guides' },
    });

    const result = await drainer.drain(SPACE);

    expect(result.stopped).toBe('drained');
    expect(result.changeRequest).toMatchObject({
      subject: 'Edits from Ada’s laptop',
      status: 'draft',
    });
    expect(result.batches).toBe(1);
    expect(result.remaining).toBe(0);
    expect(outbox.count()).toBe(0);
    const faq = result.created.find((entry) => entry.localKey === 'guides/faq.md')!.pageId;
    expect(outbox.created(SPACE)).toEqual([
      expect.objectContaining({ kind: 'page', localKey: 'guides/faq.md', remoteId: faq }),
    ]);

    const crId = result.changeRequest!.id;
    expect(await markdownOf(crId, 'p-welcome')).toBe('# Welcome\n\nHello from the laptop.\n');
    expect(await markdownOf(crId, faq)).toBe('# FAQ\n\nAsk away.\n');
    const pages = await pagesOf(crId);
    expect(pages.find((page) => page.id === faq)).toMatchObject({ title: 'FAQ' });
    expect(result.readBack).toEqual(
      expect.arrayContaining([
        {
          pageId: 'p-welcome',
          localKey: null,
          sentMarkdown: '# Welcome\n\nHello from the laptop.\n',
          storedMarkdown: '# Welcome\n\nHello from the laptop.\n',
        },
        {
          pageId: faq,
          localKey: 'guides/faq.md',
          sentMarkdown: '# FAQ\n\nAsk away.\n',
          storedMarkdown: '# FAQ\n\nAsk away.\n',
        },
      ]),
    );

    // Later edits join it, and target the new page by id even when named by local key.
    outbox.enqueue({
      kind: 'update_page',
      spaceId: SPACE,
      page: { localKey: 'guides/faq.md' },
      markdown: '# FAQ\n\nAsk away, again.\n',
    });
    const again = await drainer.drain(SPACE);
    expect(again.changeRequest!.id).toBe(crId);
    expect(await markdownOf(crId, faq)).toBe('# FAQ\n\nAsk away, again.\n');
    const creates = wire.filter((w) => w.method === 'POST' && w.path.endsWith('/change-requests'));
    expect(creates).toHaveLength(1);
    expect(creates[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('120 changes go out as 3 calls of 50, 50 and 20, each under its own key', async () => {
    const { outbox, drainer } = kit(undefined, { readBack: false });
    db.transaction(() => {
      for (let i = 0; i < 120; i++) {
        outbox.enqueue({
          kind: 'insert_page',
          spaceId: SPACE,
          localKey: `bulk-${i}.md`,
          markdown: `# Bulk ${i}\n`,
        });
      }
    })();
    const result = await drainer.drain(SPACE);
    expect(result.batches).toBe(3);
    expect(result.created).toHaveLength(120);
    const posts = contentPosts();
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((w) => w.key)).size).toBe(3);
    const bodies = (
      db.prepare('SELECT payload FROM outbox_batches ORDER BY created_at, rowid').all() as {
        payload: string;
      }[]
    ).map((row) => (JSON.parse(row.payload) as { changes: unknown[] }).changes.length);
    expect(bodies).toEqual([50, 50, 20]);
    expect(await pagesOf(result.changeRequest!.id)).toHaveLength(3 + 120);
  });

  it('a crash between sending and hearing back never duplicates a page', async () => {
    // The server applies the batch, then the process "dies" before recording the answer.
    const real = new WorkspaceOutboxRemote(client());
    const dying: OutboxRemote = {
      createChangeRequest: (...args) => real.createChangeRequest(...args),
      getChangeRequest: (...args) => real.getChangeRequest(...args),
      getPage: (...args) => real.getPage(...args),
      getChangeRequestMarkdown: (...args) => real.getChangeRequestMarkdown(...args),
      updateChangeRequestContent: async (...args) => {
        await real.updateChangeRequestContent(...args);
        throw new Error('process killed');
      },
    };
    const first = kit(dying);
    first.outbox.enqueue({
      kind: 'insert_page',
      spaceId: SPACE,
      localKey: 'crash.md',
      markdown: '# Crash test\n',
    });
    await expect(first.drainer.drain(SPACE)).rejects.toThrow('process killed');
    expect(first.outbox.pending(SPACE).map((item) => item.state)).toEqual(['sending']);

    // Restart: a fresh outbox and drainer on the same cache.
    const second = kit();
    const result = await second.drainer.drain(SPACE);
    expect(result.batches).toBe(1);
    expect(result.created.map((entry) => entry.localKey)).toEqual(['crash.md']);
    const posts = contentPosts();
    expect(posts).toHaveLength(2);
    expect(posts[1]!.key).toBe(posts[0]!.key);
    expect(posts[1]!.replayed).toBe(true);
    const pages = await pagesOf(result.changeRequest!.id);
    expect(pages).toHaveLength(4);
    expect(pages.filter((page) => page.title === 'Crash test')).toHaveLength(1);
    expect(pages.find((page) => page.title === 'Crash test')!.id).toBe(result.created[0]!.pageId);
  });

  it('an answer lost on the wire is retried with the same key and applied once', async () => {
    let dropped = false;
    const lossy: typeof fetch = async (input, init = {}) => {
      const response = await recordingFetch(input, init);
      if (!dropped && init.method === 'POST' && String(input).includes('/content')) {
        dropped = true;
        throw new TypeError('fetch failed: connection reset');
      }
      return response;
    };
    const { outbox, drainer } = kit(new WorkspaceOutboxRemote(client({ fetch: lossy })));
    outbox.enqueue({
      kind: 'insert_page',
      spaceId: SPACE,
      localKey: 'lossy.md',
      markdown: '# L\n',
    });
    const result = await drainer.drain(SPACE);
    const posts = contentPosts();
    expect(posts.map((w) => w.replayed)).toEqual([false, true]);
    expect(posts[1]!.key).toBe(posts[0]!.key);
    expect(await pagesOf(result.changeRequest!.id)).toHaveLength(4);
  });

  it('once the working change request is merged, the next edit starts a new one', async () => {
    const { outbox, drainer } = kit();
    outbox.enqueue({
      kind: 'update_page',
      spaceId: SPACE,
      page: { pageId: 'p-setup' },
      markdown: '# Setup\n\nFirst.\n',
    });
    const first = (await drainer.drain(SPACE)).changeRequest!;
    await api().mergeChangeRequest(SPACE, first.id);

    outbox.enqueue({
      kind: 'update_page',
      spaceId: SPACE,
      page: { pageId: 'p-setup' },
      markdown: '# Setup\n\nSecond.\n',
    });
    const second = (await drainer.drain(SPACE)).changeRequest!;
    expect(second.id).not.toBe(first.id);
    expect(second.number).toBeGreaterThan(first.number);
    expect(second.subject).toBe('Edits from Ada’s laptop');
    expect(await markdownOf(second.id, 'p-setup')).toBe('# Setup\n\nSecond.\n');
  });

  it('a batch meeting a change request merged meanwhile (409) moves to a new one', async () => {
    const real = new WorkspaceOutboxRemote(client());
    let merged = false;
    const racing: OutboxRemote = {
      createChangeRequest: (...args) => real.createChangeRequest(...args),
      getChangeRequest: (...args) => real.getChangeRequest(...args),
      getPage: (...args) => real.getPage(...args),
      getChangeRequestMarkdown: (...args) => real.getChangeRequestMarkdown(...args),
      updateChangeRequestContent: async (spaceId, crId, body, options) => {
        if (!merged) {
          merged = true;
          await api().mergeChangeRequest(spaceId, crId);
        }
        return real.updateChangeRequestContent(spaceId, crId, body, options);
      },
    };
    const { outbox, drainer } = kit(racing);
    outbox.enqueue({
      kind: 'insert_page',
      spaceId: SPACE,
      localKey: 'late.md',
      markdown: '# Late\n',
    });
    const result = await drainer.drain(SPACE);
    const posts = contentPosts();
    expect(posts.map((w) => w.status)).toEqual([409, 200]);
    expect(posts[1]!.key).not.toBe(posts[0]!.key);
    expect(posts[1]!.path).not.toBe(posts[0]!.path);
    expect(result.created).toHaveLength(1);
    expect(result.changeRequest!.status).toBe('draft');
    expect(await pagesOf(result.changeRequest!.id)).toHaveLength(4);
  });

  it('a change the server refuses is failed with its message; the others are pushed', async () => {
    const { outbox, drainer } = kit();
    outbox.enqueue({
      kind: 'update_page',
      spaceId: SPACE,
      page: { pageId: 'p-no-such-page' },
      markdown: 'x',
    });
    outbox.enqueue({
      kind: 'update_page',
      spaceId: SPACE,
      page: { pageId: 'p-welcome' },
      markdown: '# Welcome\n\nStill fine.\n',
    });
    const result = await drainer.drain(SPACE);
    expect(result.failed.map((item) => item.pageId)).toEqual(['p-no-such-page']);
    expect(result.failed[0]!.error).toMatch(/changes\.0.*p-no-such-page/);
    expect(result.sent.map((item) => item.pageId)).toEqual(['p-welcome']);
    expect(result.remaining).toBe(1);
    expect(outbox.failed(SPACE)).toHaveLength(1);
    expect(contentPosts().map((w) => w.status)).toEqual([400, 200]);
  });

  it('reads back a drain of many pages with one request, the latest content of each', async () => {
    const { outbox, drainer } = kit();
    // 60 pages: two batches, one read.
    db.transaction(() => {
      for (let i = 0; i < 60; i++) {
        outbox.enqueue({
          kind: 'insert_page',
          spaceId: SPACE,
          localKey: `many-${i}.md`,
          markdown: `# Many ${i}\n`,
        });
      }
    })();
    const first = await drainer.drain(SPACE);
    expect(first.batches).toBe(2);
    const reads = wire.filter((w) => w.method === 'GET' && /\/pages?\/|\/content$/.test(w.path));
    expect(reads.map((w) => w.path)).toEqual([
      `/v1/spaces/${SPACE}/change-requests/${first.changeRequest!.id}/content`,
    ]);
    expect(first.readBack).toHaveLength(60);
    expect(first.readBackMissed).toEqual([]);
    const byKey = new Map(first.readBack.map((entry) => [entry.localKey, entry]));
    expect(byKey.get('many-7.md')).toMatchObject({
      sentMarkdown: '# Many 7\n',
      storedMarkdown: expect.stringContaining('Many 7'),
    });

    // A few pages are read one by one: each a small read, not the whole change request.
    wire = [];
    const page = first.created.find((entry) => entry.localKey === 'many-3.md')!.pageId;
    outbox.enqueue({
      kind: 'update_page',
      spaceId: SPACE,
      page: { pageId: page },
      markdown: '# Many 3\n\nAgain.\n',
    });
    const second = await drainer.drain(SPACE);
    expect(second.readBack).toEqual([
      {
        pageId: page,
        localKey: null,
        sentMarkdown: '# Many 3\n\nAgain.\n',
        storedMarkdown: expect.stringContaining('Again.'),
      },
    ]);
    expect(wire.filter((w) => w.method === 'GET' && w.path.endsWith('/content'))).toEqual([]);
  });

  it('reports the server’s normalisation in the read-back', async () => {
    const { outbox, drainer } = kit();
    outbox.enqueue({ kind: 'insert_page', spaceId: SPACE, localKey: 'a.md', markdown: '# A\n' });
    outbox.enqueue({
      kind: 'insert_page',
      spaceId: SPACE,
      localKey: 'b.md',
      markdown: '# B\n\nSee [A](a.md).\n',
    });
    const result = await drainer.drain(SPACE);
    const a = result.created.find((entry) => entry.localKey === 'a.md')!.pageId;
    // Batch-local refs are resolved by the server: the stored link names the page id.
    expect(result.readBack.find((entry) => entry.localKey === 'b.md')).toMatchObject({
      sentMarkdown: '# B\n\nSee [A](a.md).\n',
      storedMarkdown: expect.stringContaining(a),
    });
  });
});

describe('OutboxDrainer offline and paused', () => {
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it('waits with exponential backoff while the server is unreachable, keeping every change', async () => {
    const offline = new WorkspaceOutboxRemote(
      client({ endpoint: `http://127.0.0.1:${await closedPort()}`, http: { maxAttempts: 1 } }),
    );
    const delays: number[] = [];
    const { outbox, drainer } = kit(offline, {
      sleep: async (ms) => {
        delays.push(ms);
      },
      offlineBaseDelayMs: 1000,
      offlineMaxDelayMs: 5000,
      maxOfflineWaits: 5,
    });
    outbox.enqueue({
      kind: 'update_page',
      spaceId: SPACE,
      page: { pageId: 'p-welcome' },
      markdown: 'x',
    });
    const result = await drainer.drain(SPACE);
    expect(result.stopped).toBe('offline');
    expect(delays).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(result.remaining).toBe(1);
    expect(outbox.pending(SPACE)).toHaveLength(1);
    expect(outbox.failed(SPACE)).toEqual([]);
  });

  it('a pause ends a backoff wait; the pause survives a restart; resume lets it drain', async () => {
    const offline = new WorkspaceOutboxRemote(
      client({ endpoint: `http://127.0.0.1:${await closedPort()}`, http: { maxAttempts: 1 } }),
    );
    let waits = 0;
    const paused = kit(offline, {
      sleep: (_ms, signal) =>
        new Promise<void>((resolve, reject) => {
          waits++;
          if (waits === 1) {
            resolve();
            return;
          }
          // The second wait only ends when something wakes it: the pause.
          signal?.addEventListener('abort', () => reject(new Error('woken')), { once: true });
          paused.drainer.pause();
        }),
    });
    paused.outbox.enqueue({
      kind: 'update_page',
      spaceId: SPACE,
      page: { pageId: 'p-welcome' },
      markdown: '# Welcome\n\nPaused.\n',
    });
    expect((await paused.drainer.drain(SPACE)).stopped).toBe('paused');
    expect(waits).toBe(2);

    // Another process (the CLI) sees the pause; while it lasts, nothing is sent.
    const online = kit();
    expect(online.drainer.pauseState()).toEqual({ paused: true, until: null });
    const before = wire.length;
    expect((await online.drainer.drain(SPACE)).stopped).toBe('paused');
    expect(wire.length).toBe(before);

    // A pause with an end is over once the end has passed.
    online.drainer.pause(new Date(Date.now() + 30 * 60_000));
    expect(online.drainer.pauseState().paused).toBe(true);
    online.drainer.pause(new Date(Date.now() - 1));
    expect(online.drainer.pauseState()).toEqual({ paused: false, until: null });
    online.drainer.pause();

    online.drainer.resume();
    const result = await online.drainer.drain(SPACE);
    expect(result.stopped).toBe('drained');
    expect(result.remaining).toBe(0);
    expect(await markdownOf(result.changeRequest!.id, 'p-welcome')).toBe('# Welcome\n\nPaused.\n');
  });
});
