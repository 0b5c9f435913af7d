import type { ServerResponse } from 'node:http';
import type { QuireBridge } from '../../shared/contract/quire-bridge';
import { EVENT_NAMES } from '../../shared/contract/quire-events';
import { COMMON_HEADERS } from './static-files';

/** A comment line this often keeps proxies and the browser from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;
/** How long the browser waits before reconnecting a dropped stream. */
const RETRY_MS = 2_000;

/**
 * One server-sent event stream: every QuireEvents emission becomes `event: <name>` with its
 * payload as one `data:` line of JSON (JSON.stringify never emits a raw line break), until the
 * browser goes away.
 */
export function streamEvents(app: Pick<QuireBridge, 'on'>, response: ServerResponse): void {
  response.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': 'text/event-stream; charset=utf-8',
    connection: 'keep-alive',
  });
  response.write(`retry: ${RETRY_MS}\n: connected\n\n`);
  const unsubscribe = EVENT_NAMES.map((name) =>
    app.on(name, (payload) => {
      response.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
    }),
  );
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  response.once('close', () => {
    clearInterval(keepAlive);
    for (const off of unsubscribe) off();
  });
}
