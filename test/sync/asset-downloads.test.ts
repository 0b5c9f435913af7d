import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../../src/main/cache/open-cache-database';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import { SyncEngine } from '../../src/main/sync/sync-engine';
import { BENCH_TOKEN } from '../bench/bench-fixture';
import { benchImage, largeSpaceFixture } from '../bench/sync-fixture';
import { startTestServer, type TestServer } from '../support/start-test-server';
import { readTree } from './sync-test-kit';

/**
 * Issue 15 §2: a space's images are downloaded several at once (counted where they are served),
 * a download cut off midway leaves no partial file and completes on the next sync without
 * fetching again what was already complete, and a 429's Retry-After still holds every download.
 * A small proxy in front of the real server plays the file host: the server's URLs are rebased
 * onto it, so the signed downloadURLs lead there.
 */
const IMAGES = 24;
const IMAGE_FILES = Array.from({ length: IMAGES }, (_, i) => benchImage(i));
const ASSETS = 'Sync Bench Corp/Large handbook/.gitbook/assets';

type Behaviour = (request: IncomingMessage, response: ServerResponse, body: Buffer) => boolean;

interface FileHost {
  url: string;
  /** Download requests by file name, in arrival order (with their arrival time). */
  downloads: { name: string; at: number }[];
  maxInFlight: number;
  /** Decides per download: true when it answered itself (a fault); false to pass it on. */
  behaviour: Behaviour | undefined;
  /** Milliseconds each download answer is held back, so that concurrent ones overlap. */
  holdMs: number;
  close(): Promise<void>;
}

/** Forwards every request to `upstream`; counts and may alter the downloads (/v1/files/…). */
async function startFileHost(upstream: string): Promise<FileHost> {
  let inFlight = 0;
  const host: FileHost = {
    url: '',
    downloads: [],
    maxInFlight: 0,
    behaviour: undefined,
    holdMs: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    const arrived = Date.now();
    void (async () => {
      const isFile = request.url!.startsWith('/v1/files/');
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          (entry): entry is [string, string] =>
            typeof entry[1] === 'string' && !['host', 'connection'].includes(entry[0]),
        ),
      );
      const body = Buffer.concat(chunks);
      const upstreamResponse = await fetch(`${upstream}${request.url}`, {
        method: request.method!,
        headers,
        ...(body.length > 0 ? { body } : {}),
        redirect: 'manual',
      });
      const bytes = Buffer.from(await upstreamResponse.arrayBuffer());
      if (isFile) {
        const name = decodeURIComponent(new URL(request.url!, 'http://x').pathname.split('/')[6]!);
        host.downloads.push({ name, at: arrived });
        inFlight++;
        host.maxInFlight = Math.max(host.maxInFlight, inFlight);
        response.on('close', () => inFlight--);
        if (host.behaviour?.(request, response, bytes)) return;
        if (host.holdMs > 0) await delay(host.holdMs);
      }
      const out: Record<string, string> = {};
      upstreamResponse.headers.forEach((value, key) => {
        if (!['content-encoding', 'transfer-encoding', 'connection'].includes(key))
          out[key] = value;
      });
      out['content-length'] = String(bytes.length);
      response.writeHead(upstreamResponse.status, out).end(bytes);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return host;
}

let t: TestServer;
let host: FileHost;
let home: string;
let folder: string;
let cache: CacheDb;

function engine(concurrency?: number): SyncEngine {
  const remote = new WorkspaceClient({
    endpoint: host.url,
    token: BENCH_TOKEN,
    // Quick retries: the tests count attempts, not wait for them.
    downloads: {
      baseDelayMs: 1,
      maxDelayMs: 5,
      maxAttempts: 2,
      ...(concurrency !== undefined ? { concurrency } : {}),
    },
  });
  return new SyncEngine({ cache, remote, folder, clock: { now: () => new Date() } });
}

async function enabledEngine(concurrency?: number): Promise<SyncEngine> {
  const sync = engine(concurrency);
  const listed = await sync.refreshSpaces();
  for (const space of listed.spaces) if (!space.enabled) sync.setSpaceEnabled(space.id, true);
  return sync;
}

/** Every file of the mirror, temp files included, that is not an expected image. */
function strayAssets(): string[] {
  const expected = new Set(IMAGE_FILES.map((image) => `${ASSETS}/${image.name}`));
  return [...readTree(folder).keys()]
    .filter((path) => path.startsWith(`${ASSETS}/`) || path.includes('.gitbook/assets/.'))
    .filter((path) => !expected.has(path));
}

function expectAllImages(): void {
  const tree = readTree(folder);
  for (const image of IMAGE_FILES) {
    expect(tree.get(`${ASSETS}/${image.name}`)?.equals(image.png), image.name).toBe(true);
  }
}

beforeEach(async () => {
  t = await startTestServer({ fixture: largeSpaceFixture(50, IMAGES) });
  host = await startFileHost(t.url);
  t.server.ctx.urls.rebase(host.url);
  home = mkdtempSync(join(tmpdir(), 'quire-downloads-home-'));
  folder = mkdtempSync(join(tmpdir(), 'quire-downloads-folder-'));
  cache = openCacheDatabase(join(home, 'cache.db'));
});

afterEach(async () => {
  cache.close();
  await host.close();
  await t.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

describe('mirroring a space with many images', () => {
  it('downloads several images at once, never more than eight', async () => {
    host.holdMs = 40;
    const report = await (await enabledEngine()).syncOnce();
    expect(report.errors).toEqual([]);
    expect(report.spaces.map((space) => space.error)).toEqual([undefined]);
    expectAllImages();
    expect(host.downloads).toHaveLength(IMAGES);
    expect(host.maxInFlight).toBeGreaterThan(1);
    expect(host.maxInFlight).toBeLessThanOrEqual(8);
  });

  it('leaves no partial file when a download is cut off, and completes it on the next sync', async () => {
    const last = IMAGE_FILES.at(-1)!.name;
    host.behaviour = (_request, response, bytes) => {
      if (!response.req.url!.includes(encodeURIComponent(last))) return false;
      // Half the file, then the connection drops.
      response.writeHead(200, {
        'content-type': 'image/png',
        'content-length': String(bytes.length),
      });
      response.write(bytes.subarray(0, bytes.length >> 1), () => response.socket?.destroy());
      return true;
    };
    const first = await (await enabledEngine()).syncOnce();
    expect(first.spaces[0]?.error?.message).toMatch(/failed after 2 attempts/);
    expect(readTree(folder).has(`${ASSETS}/${last}`)).toBe(false);
    expect(strayAssets()).toEqual([]);
    const completed = new Set(host.downloads.map((download) => download.name));
    completed.delete(last);

    host.behaviour = undefined;
    host.downloads.length = 0;
    const second = await engine().syncOnce();
    expect(second.spaces.map((space) => space.error)).toEqual([undefined]);
    expectAllImages();
    expect(strayAssets()).toEqual([]);
    // What the first sync had completed (and journaled) is not fetched again.
    const again = host.downloads.map((download) => download.name);
    expect(again).toContain(last);
    expect(again.length).toBeLessThan(IMAGES);
  });

  it('holds every download until a 429 Retry-After is over', async () => {
    let refused: number | undefined;
    host.behaviour = (_request, response) => {
      if (refused !== undefined) return false;
      refused = host.downloads.at(-1)!.at;
      response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
      response.end('{"error":{"code":429,"message":"slow down"}}');
      return true;
    };
    // One download at a time: every request after the refused one was sent after its answer.
    const report = await (await enabledEngine(1)).syncOnce();
    expect(report.spaces.map((space) => space.error)).toEqual([undefined]);
    expectAllImages();
    const later = host.downloads.filter((download) => download.at > refused!);
    expect(later).toHaveLength(IMAGES);
    for (const download of later) expect(download.at - refused!).toBeGreaterThanOrEqual(990);
  });
});
