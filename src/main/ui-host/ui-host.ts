import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { QuireBridge } from '../../shared/contract/quire-bridge';
import type { QuireCommandHandlers } from '../../shared/contract/quire-commands';
import { runCommandRoute, sendJson } from './command-route';
import { streamEvents } from './event-stream';
import { RequestGuard, type Refusal } from './request-guard';
import { StaticFiles } from './static-files';

/** What the UI host carries: every command, and the events. A QuireApp is one. */
export type UiHostApp = QuireCommandHandlers & Pick<QuireBridge, 'on'>;

export interface UiHostOptions {
  readonly app: UiHostApp;
  /** The built renderer (`out/renderer`, see findRendererDir). */
  readonly rendererDir: string;
  /** Default 0: a free port. */
  readonly port?: number;
}

export interface UiHost {
  /** The URL the user opens, with the secret in its fragment (never sent to a server). */
  readonly url: string;
  readonly port: number;
  readonly secret: string;
  /** Stops listening and ends every open request and event stream. */
  close(): Promise<void>;
}

const COMMAND_PATH = /^\/api\/commands\/([A-Za-z]+)$/;

/**
 * `quire ui`'s HTTP server on 127.0.0.1: the built renderer as static files, and the contract
 * over HTTP (`POST /api/commands/<name>`, JSON) and server-sent events (`GET /api/events`).
 *
 * Security: every request must name this host (127.0.0.1:PORT or localhost:PORT: DNS rebinding)
 * and come from it (Origin, Sec-Fetch-Site). Every /api request needs the random secret that the
 * printed URL carries in its fragment: the bridge sends it as `X-Quire-Secret`, and, for the
 * event stream (an EventSource sets no header), as `?secret=`. The page and its scripts are the
 * public build and carry no data, so they are served without it (the fragment never reaches a
 * server). Commands take `application/json` bodies only: a cross-site form cannot send one.
 */
export async function startUiHost(options: UiHostOptions): Promise<UiHost> {
  const files = await StaticFiles.open(options.rendererDir);
  const secret = randomBytes(32).toString('base64url');
  const server = createServer();
  // The guard needs the port, known once listening; no request is read before the handler is on.
  const port = await listen(server, options.port ?? 0);
  const guard = new RequestGuard(port, secret);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) sendJson(response, 500, { error: 'internal error' });
      else response.destroy();
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const refusal = guard.checkSameHost(request) ?? checkApi(guard, request, url);
    if (refusal !== undefined) return refuse(response, refusal);
    const command = COMMAND_PATH.exec(url.pathname);
    if (command !== null && request.method === 'POST') {
      return runCommandRoute(options.app, command[1]!, request, response);
    }
    if (url.pathname === '/api/events' && request.method === 'GET') {
      return streamEvents(options.app, response);
    }
    if (url.pathname.startsWith('/api/')) return refuse(response, notFound(request));
    if (request.method !== 'GET') return refuse(response, { status: 405, message: 'GET only' });
    return files.serve(url.pathname, response);
  }
  return {
    url: `http://127.0.0.1:${port}/#secret=${secret}`,
    port,
    secret,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Event streams never end on their own.
        server.closeAllConnections();
      }),
  };
}

/** Every /api request needs the secret and, for a command, a JSON body. */
function checkApi(guard: RequestGuard, request: IncomingMessage, url: URL): Refusal | undefined {
  if (!url.pathname.startsWith('/api/')) return undefined;
  const isEvents = url.pathname === '/api/events';
  const refusal = guard.checkSecret(request, url, isEvents);
  if (refusal !== undefined || request.method !== 'POST') return refusal;
  return guard.checkJsonBody(request);
}

type HttpRefusal = Refusal | { status: 404 | 405; message: string };

function notFound(request: IncomingMessage): HttpRefusal {
  return { status: 404, message: `no ${request.method ?? ''} route here` };
}

function refuse(response: ServerResponse, refusal: HttpRefusal): void {
  sendJson(response, refusal.status, { error: refusal.message });
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
