import type { Scenario } from './bench-scenario';
import { BENCH_ORG, BENCH_SPACE, BENCH_TOKEN, largeOrgFixture } from './bench-fixture';
import { httpScenario } from './http-scenario';

const auth = { authorization: `Bearer ${BENCH_TOKEN}` };

/**
 * The API server's scenarios, in the order they run. Each starts its own server on its own
 * database; add a scenario by appending to this list.
 */
export const serverScenarios: readonly Scenario[] = [
  httpScenario({
    name: 'GET space',
    target: { minRatio: 0.5, maxP99Ms: 20 },
    fixture: () => largeOrgFixture(5000),
    prepare: () => ({ path: `/v1/spaces/${BENCH_SPACE}`, headers: auth }),
  }),
  httpScenario({
    name: 'GET members ?limit=1000 (of 5,000)',
    target: { maxP99Ms: 50 },
    fixture: () => largeOrgFixture(5000),
    prepare: () => ({ path: `/v1/orgs/${BENCH_ORG}/members?limit=1000`, headers: auth }),
  }),
  // No target of its own: the cheapest authenticated read, the server's per-request floor.
  httpScenario({
    name: 'GET org',
    target: {},
    fixture: () => largeOrgFixture(5000),
    prepare: () => ({ path: `/v1/orgs/${BENCH_ORG}`, headers: auth }),
  }),
];
