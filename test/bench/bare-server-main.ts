// Child process: the floor the Quire server is compared with — a bare node:http server answering
// every request with the same pre-serialised bytes and content type, with no routing, no
// authentication, no database and no serialisation.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { exitWithParent, failToParent, sendToParent } from './bench-child';

function main(): void {
  exitWithParent();
  const { values } = parseArgs({
    options: { body: { type: 'string' }, 'content-type': { type: 'string' } },
  });
  if (!values.body || !values['content-type'])
    throw new Error('--body and --content-type are required');
  const body = readFileSync(values.body);
  const headers = {
    'content-type': values['content-type'],
    'content-length': String(body.length),
  };

  const server = createServer((request, response) => {
    // Drain any request body so keep-alive connections stay usable.
    request.resume();
    request.once('end', () => {
      response.writeHead(200, headers);
      response.end(body);
    });
  });
  // Same keep-alive window as Fastify's default, so connections are reused the same way.
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    void sendToParent({
      type: 'ready',
      url: `http://127.0.0.1:${port}`,
      info: { bytes: body.length },
    });
  });
  process.once('SIGTERM', () => {
    setTimeout(() => process.exit(0), 3_000).unref();
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

try {
  main();
} catch (error) {
  failToParent(error);
}
