import { BENCH_ORG, BENCH_TOKEN, largeOrgFixture } from './bench-fixture';
import type { Scenario } from './bench-scenario';
import { httpScenario, type RunningServer } from './http-scenario';

const SPECS = `/v1/orgs/${BENCH_ORG}/openapi`;
const SLUG = 'bench-api';
const auth = { authorization: `Bearer ${BENCH_TOKEN}` };
/** Versions the specification has (each a distinct content, so each makes one). */
const VERSIONS = 20;
/** Operations in each version's document (about 100 KB of JSON). */
const OPERATIONS = 300;

/** An OpenAPI 3.1 document with `OPERATIONS` operations sharing schemas through `$ref`s. */
function benchDocument(version: number): string {
  const paths = Object.fromEntries(
    Array.from({ length: OPERATIONS }, (_, i) => [
      `/things-${i}/{id}`,
      {
        get: {
          operationId: `getThing${i}`,
          summary: `Get thing ${i}`,
          parameters: [{ $ref: '#/components/parameters/Id' }],
          responses: {
            '200': {
              description: 'The thing',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
          },
        },
      },
    ]),
  );
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Bench API', version: `1.${version}.0` },
    paths,
    components: {
      parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'string' } } },
      schemas: {
        Thing: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
      },
    },
  });
}

async function call(server: RunningServer, method: string, path: string, body?: unknown) {
  const response = await fetch(new URL(path, server.url), {
    method,
    headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json;
}

/** Gives the specification VERSIONS versions (processing each before the next is sent). */
async function specWithVersions(server: RunningServer): Promise<void> {
  for (let version = 0; version < VERSIONS; version++) {
    await call(server, 'PUT', `${SPECS}/${SLUG}`, { source: { text: benchDocument(version) } });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const spec = await call(server, 'GET', `${SPECS}/${SLUG}`);
      if (spec['processingState'] === 'complete') {
        if (spec['lastProcessErrorCode'])
          throw new Error(`processing failed: ${spec['lastProcessErrorCode']}`);
        break;
      }
      if (Date.now() > deadline) throw new Error('the specification was not processed in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const fixture = () => largeOrgFixture(50);

/** The OpenAPI reads: a specification, its versions, and a version's content (~100 KB). */
export const openApiScenarios: readonly Scenario[] = [
  httpScenario({
    name: 'GET OpenAPI spec',
    target: {},
    fixture,
    prepare: async (server) => {
      await specWithVersions(server);
      return { path: `${SPECS}/${SLUG}`, headers: auth };
    },
  }),
  httpScenario({
    name: `GET OpenAPI versions (${VERSIONS})`,
    target: {},
    fixture,
    prepare: async (server) => {
      await specWithVersions(server);
      return { path: `${SPECS}/${SLUG}/versions`, headers: auth };
    },
  }),
  httpScenario({
    name: `GET OpenAPI latest content (${OPERATIONS} operations)`,
    target: {},
    fixture,
    prepare: async (server) => {
      await specWithVersions(server);
      return { path: `${SPECS}/${SLUG}/versions/latest/content`, headers: auth };
    },
  }),
];
