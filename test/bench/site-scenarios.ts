import type { Scenario } from './bench-scenario';
import { BENCH_ORG, BENCH_SPACE, BENCH_TOKEN, largeOrgFixture } from './bench-fixture';
import { httpScenario, type RunningServer } from './http-scenario';

const auth = { authorization: `Bearer ${BENCH_TOKEN}` };
const SITES = `/v1/orgs/${BENCH_ORG}/sites`;
/** Site spaces of the benchmark's site: a large docs site, the whole list on one page. */
export const BENCH_SITE_SPACES = 100;

async function post(server: RunningServer, path: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(new URL(path, server.url), {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) {
    throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as { id: string };
}

/** Builds, through the API, a site publishing BENCH_SITE_SPACES site spaces; returns its id. */
async function benchSite(server: RunningServer): Promise<string> {
  const spaces = [BENCH_SPACE, 's-bench-api', 's-bench-notes'];
  const site = await post(server, SITES, { title: 'Bench docs', spaces });
  for (let i = spaces.length; i < BENCH_SITE_SPACES; i += 1) {
    await post(server, `${SITES}/${site.id}/site-spaces`, { spaceId: spaces[i % spaces.length] });
  }
  return site.id;
}

/** Docs-site reads: one site (its counts), and a full page of its site spaces. */
export const siteScenarios: readonly Scenario[] = [
  httpScenario({
    name: `GET site (${BENCH_SITE_SPACES} site spaces)`,
    target: { maxP99Ms: 1000 },
    fixture: () => largeOrgFixture(5000),
    prepare: async (server) => ({
      path: `${SITES}/${await benchSite(server)}`,
      headers: auth,
    }),
  }),
  // Each ~93 KB page embeds its 100 spaces and is built per request (no answer cache), so it is
  // judged at 10 connections, like the members page's middle row, with a looser p99.
  httpScenario({
    name: `GET site-spaces ?limit=${BENCH_SITE_SPACES}, 10 connections`,
    target: { maxP99Ms: 1000 },
    connections: 10,
    fixture: () => largeOrgFixture(5000),
    prepare: async (server) => ({
      path: `${SITES}/${await benchSite(server)}/site-spaces?limit=${BENCH_SITE_SPACES}`,
      headers: auth,
    }),
  }),
];
