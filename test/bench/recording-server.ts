import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer } from '../../src/server/build-server';
import { systemClock } from '../../src/server/clock';
import type { ServerConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open-database';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { loadFixture } from '../../src/server/fixture/load-fixture';

/** One request as the server saw it (times are this process's performance.now()). */
export interface ServerRecord {
  /** The client's `x-bench-seq` (see push-bench-client.ts); NaN when it sent none. */
  seq: number;
  /** The request reached the HTTP server (before any routing, rate limiting or fast read). */
  arrivedAt: number;
  /** The same moment by the wall clock (Date.now()), which X-RateLimit-Reset is counted in. */
  arrivedEpochMs: number;
  /**
   * The server began to answer (its first writeHead or end call): no byte of the response can
   * reach the client before this, so a gap measured from it is never too long.
   */
  respondedAt: number;
  status: number;
  retryAfter: string | null;
}

export interface RecordingServer {
  url: string;
  records: ServerRecord[];
  stop(): Promise<void>;
}

/**
 * The Quire server in this process (the benchmark only waits on its client child meanwhile),
 * on a fresh database under `dir`, with `config` (e.g. a low rate limit). Every request is
 * recorded by a listener placed in front of the server's own handler, so a request the rate
 * limiter refuses is recorded like any other.
 */
export async function startRecordingServer(
  dir: string,
  fixture: Fixture,
  config: Partial<ServerConfig>,
): Promise<RecordingServer> {
  mkdirSync(dir, { recursive: true });
  const db = openDatabase(join(dir, 'server.db'));
  loadFixture(db, fixture, systemClock);
  const server = buildServer({ db, logger: false, config: { sweepIntervalMs: 0, ...config } });
  const records: ServerRecord[] = [];
  server.app.server.prependListener('request', (request, response) => {
    const record: ServerRecord = {
      seq: Number(request.headers['x-bench-seq'] ?? Number.NaN),
      arrivedAt: performance.now(),
      arrivedEpochMs: Date.now(),
      respondedAt: Number.NaN,
      status: 0,
      retryAfter: null,
    };
    records.push(record);
    // Wrapped, not observed through 'finish': that event fires once the socket has flushed, which
    // on a busy machine can be after the client already read the response.
    const stamp = () => {
      if (Number.isNaN(record.respondedAt)) record.respondedAt = performance.now();
    };
    const { writeHead, end } = response;
    response.writeHead = function (this: typeof response, ...args: unknown[]) {
      stamp();
      return (writeHead as (...a: unknown[]) => typeof response).apply(this, args);
    } as typeof response.writeHead;
    response.end = function (this: typeof response, ...args: unknown[]) {
      stamp();
      return (end as (...a: unknown[]) => typeof response).apply(this, args);
    } as typeof response.end;
    response.once('finish', () => {
      record.status = response.statusCode;
      const retryAfter = response.getHeader('retry-after');
      record.retryAfter = retryAfter === undefined ? null : String(retryAfter);
    });
  });
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  server.ctx.urls.rebase(url);
  return {
    url,
    records,
    stop: async () => {
      await server.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
