import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test servers that process specifications start a worker thread with the server, as the real
 * server does (starting one takes seconds on a loaded machine), and give jobs a budget that
 * leaves room for the load the tests run under.
 */
export const PROCESSING_CONFIG = { cpuWarmThreads: 1, cpuJobBudgetMs: 30_000 };

/** A valid OpenAPI 3.0 document (JSON). */
export const PETS_30 = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        responses: {
          '200': {
            description: 'The pets',
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
  },
};

/** A valid OpenAPI 3.1 document (YAML) with internal, shared and circular `$ref`s. */
export const STORE_31_YAML = `openapi: 3.1.0
info:
  title: Store
  version: "2.1"
paths:
  /orders/{id}:
    parameters:
      - $ref: '#/components/parameters/Id'
    get:
      responses:
        '200':
          description: One order
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Order'
components:
  parameters:
    Id:
      name: id
      in: path
      required: true
      schema: { type: string }
  schemas:
    Order:
      type: object
      properties:
        id: { type: string }
        replaces: { $ref: '#/components/schemas/Order' }
`;

/** Valid JSON, not a valid OpenAPI document (no `info.version`, an operation without responses). */
export const INVALID_30 = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Broken' },
  paths: { '/x': { get: {} } },
});

export interface SpecServer {
  url: string;
  /** Paths requested so far, in order. */
  hits: string[];
  /** What `/mutable.json` serves next. */
  mutable: string;
  /** `/gated.json` holds every request until this is called (then serves PETS_30). */
  openGate(): void;
  close(): Promise<void>;
}

/** A loopback HTTP server serving OpenAPI documents, a slow one, redirects and failures. */
export async function startSpecServer(): Promise<SpecServer> {
  const held: (() => void)[] = [];
  const gated: (() => void)[] = [];
  let gateOpen = false;
  const state: Pick<SpecServer, 'hits' | 'mutable'> = {
    hits: [],
    mutable: JSON.stringify(PETS_30),
  };
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '';
    state.hits.push(path);
    const send = (body: string, type = 'application/json', status = 200) => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    };
    switch (path) {
      case '/pets.json':
        return send(JSON.stringify(PETS_30));
      case '/store.yaml':
        return send(STORE_31_YAML, 'application/yaml');
      case '/invalid.json':
        return send(INVALID_30);
      case '/mutable.json':
        return send(state.mutable);
      case '/missing.json':
        return send('{"error":"nope"}', 'application/json', 404);
      case '/latin1.yaml':
        response.writeHead(200, { 'content-type': 'application/yaml' });
        return response.end(Buffer.from([0x74, 0x3a, 0x20, 0xe9, 0x0a]));
      case '/slow.json':
        // Answers only when the server closes: longer than any fetch deadline in the tests.
        held.push(() => send(JSON.stringify(PETS_30)));
        return;
      case '/gated.json':
        if (gateOpen) return send(JSON.stringify(PETS_30));
        gated.push(() => send(JSON.stringify(PETS_30)));
        return;
      case '/to-private':
        response.writeHead(302, { location: 'http://10.0.0.1/pets.json' });
        return response.end();
      case '/to-metadata':
        response.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' });
        return response.end();
      case '/to-pets':
        response.writeHead(302, { location: '/pets.json' });
        return response.end();
      default:
        return send('not found', 'text/plain', 404);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get hits() {
      return state.hits;
    },
    get mutable() {
      return state.mutable;
    },
    set mutable(text: string) {
      state.mutable = text;
    },
    openGate() {
      gateOpen = true;
      gated.splice(0).forEach((release) => release());
    },
    close: async () => {
      [...held.splice(0), ...gated.splice(0)].forEach((release) => release());
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
