import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { buildServer, type QuireServer } from '../../src/server/build-server';
import type { Clock } from '../../src/server/clock';
import type { ServerConfig } from '../../src/server/config';
import { openDatabase, type Db } from '../../src/server/db/open-database';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { loadFixture } from '../../src/server/fixture/load-fixture';
import { testFixture } from './test-fixture';

export interface TestServer {
  url: string;
  server: QuireServer;
  db: Db;
  /** The published GitBook client, pointed at our server. */
  client(token: string): GitBookAPI;
  /** Raw fetch against `/v1…` with a bearer token; JSON bodies are serialised. */
  request(
    method: string,
    path: string,
    token: string | null,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
  close(): Promise<void>;
}

/** A real server on a real SQLite file, listening on a loopback port. */
export async function startTestServer(
  options: {
    fixture?: Fixture;
    clock?: Clock;
    config?: Partial<ServerConfig>;
    /** Called for every request the server receives (e.g. to count a client's requests). */
    onRequest?: (request: { method: string; url: string }) => void;
  } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-server-test-'));
  const db = openDatabase(join(dir, 'server.db'));
  const clock = options.clock;
  loadFixture(db, options.fixture ?? testFixture(), clock ?? { now: () => new Date() });
  const server = buildServer({
    db,
    ...(clock ? { clock } : {}),
    // Most test servers never need a worker thread: none is started until one does.
    config: { sweepIntervalMs: 0, cpuWarmThreads: 0, ...options.config },
  });
  const onRequest = options.onRequest;
  if (onRequest) {
    // The HTTP server's own event: it also sees the reads answered before Fastify (FastReads).
    server.app.server.on('request', (request: IncomingMessage) => {
      onRequest({ method: request.method ?? '', url: request.url ?? '' });
    });
  }
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  server.ctx.urls.rebase(address);
  return {
    url: address,
    server,
    db,
    client: (token) => new GitBookAPI({ endpoint: address, authToken: token }),
    request: (method, path, token, body, headers = {}) =>
      fetch(`${address}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined
          ? { body: typeof body === 'string' ? body : JSON.stringify(body) }
          : {}),
      }),
    close: async () => {
      await server.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asserts the error envelope and returns its message. */
export async function expectError(response: Response, status: number): Promise<string> {
  const body = (await response.json()) as { error?: { code?: number; message?: string } };
  if (
    response.status !== status ||
    body.error?.code !== status ||
    typeof body.error.message !== 'string'
  ) {
    throw new Error(`Expected error ${status}, got ${response.status} ${JSON.stringify(body)}`);
  }
  return body.error.message;
}

/** The GitBookAPIError a published-client call must fail with (fails the test otherwise). */
export async function clientError(call: Promise<unknown>): Promise<GitBookAPIError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GitBookAPIError)) throw new Error('expected a GitBookAPIError');
  return error;
}

/** The HTTP status a published-client call must fail with. */
export async function clientFailure(call: Promise<unknown>): Promise<number> {
  return (await clientError(call)).code;
}
