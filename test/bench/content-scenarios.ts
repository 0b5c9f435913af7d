import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RevisionTree } from '../../src/server/content/revision-tree';
import { ApiCallError, BenchApi, errorMessageOf, parseOk, type TimedResponse } from './bench-api';
import type { BenchChild } from './bench-child';
import { BENCH_TOKEN } from './bench-fixture';
import type { RunContext, Scenario } from './bench-scenario';
import { judgeTimed, ms, size, type BenchRow, type Target } from './bench-table';
import {
  CONTENT_PAGE_COUNT,
  CONTENT_SPACE,
  contentSpaceFixture,
  pageId,
  pageMarkdown,
} from './content-fixture';
import { startQuireServer } from './http-scenario';
import { ContentReadFloor, ContentWriteFloor } from './sqlite-floor';
import { summarize, timeSync } from './timing-stats';

const SPACE_PATH = `/v1/spaces/${CONTENT_SPACE}`;
const READ_PATH = `${SPACE_PATH}/content?format=markdown`;
const CHANGE_REQUESTS_PATH = `${SPACE_PATH}/change-requests`;
/** The published limit of one content batch. */
const BATCH_SIZE = 50;
/** Pages each change request of the merge scenario edits. */
const MERGE_PAGES = 100;

const PAGES = CONTENT_PAGE_COUNT.toLocaleString('en-US');

/** How many timed samples each scenario takes (`--quick`: fewer). */
function sampleCounts(ctx: RunContext) {
  const quick = ctx.options.quick;
  return {
    /** Unmeasured runs first, so JIT compilation is not in the figures. */
    warmup: quick ? 1 : 3,
    samples: quick ? 5 : 20,
    coldReads: quick ? 3 : 10,
    merges: quick ? 2 : 5,
  };
}

/** The 2,000-page fixture, written once per run and shared by the content scenarios. */
function contentFixtureFile(ctx: RunContext): string {
  const file = join(ctx.workDir, 'content.fixture.json');
  if (!existsSync(file)) writeFileSync(file, JSON.stringify(contentSpaceFixture()));
  return file;
}

interface ContentServer {
  api: BenchApi;
  dbFile: string;
}

/**
 * Runs `measure` against a Quire server of its own (a child process, fresh database loaded with
 * the 2,000-page space). A 404 from a route the measurement needs (not implemented yet) makes
 * every row `unavailable` rather than a harness error.
 */
async function withContentServer(
  ctx: RunContext,
  slug: string,
  rows: readonly { scenario: string; target: Target }[],
  measure: (server: ContentServer) => Promise<BenchRow[]>,
): Promise<BenchRow[]> {
  const dbFile = join(ctx.workDir, `${slug}.db`);
  let quire: BenchChild | undefined;
  let api: BenchApi | undefined;
  try {
    quire = await startQuireServer(ctx, slug, dbFile, contentFixtureFile(ctx));
    api = new BenchApi(quire.url, BENCH_TOKEN);
    return await measure({ api, dbFile });
  } catch (error) {
    if (!(error instanceof ApiCallError) || error.status !== 404) throw error;
    return rows.map((row) => ({
      ...row,
      status: 'unavailable' as const,
      verdict: 'N/A' as const,
      notes: [`not measured: ${error.message}`],
    }));
  } finally {
    api?.close();
    await quire?.stop();
  }
}

function ok(what: string, response: TimedResponse): TimedResponse {
  if (response.status < 200 || response.status > 299)
    throw new ApiCallError(what, response.status, errorMessageOf(response.body));
  return response;
}

async function createChangeRequest(api: BenchApi, subject: string): Promise<string> {
  const created = await api.json<{ id: string }>('POST', CHANGE_REQUESTS_PATH, { subject });
  return created.id;
}

/** The body of POST …/content replacing the Markdown of pages `indexes` with their `version`. */
function updateBody(indexes: readonly number[], version: number): string {
  return JSON.stringify({
    changes: indexes.map((index) => ({
      operation: 'update_page',
      page: pageId(index),
      document: { markdown: pageMarkdown(index, version) },
    })),
  });
}

function contentPath(changeRequest: string): string {
  return `${CHANGE_REQUESTS_PATH}/${changeRequest}/content`;
}

/** Edits pages `indexes` (any number: one POST per 50) in the change request. */
async function editPages(
  api: BenchApi,
  changeRequest: string,
  indexes: readonly number[],
  version: number,
): Promise<void> {
  for (let i = 0; i < indexes.length; i += BATCH_SIZE) {
    const path = contentPath(changeRequest);
    const body = updateBody(indexes.slice(i, i + BATCH_SIZE), version);
    ok(`POST ${path}`, await api.timed('POST', path, body));
  }
}

interface MergeResult {
  revision: string;
  result: 'merge' | 'conflicts';
  conflicts?: unknown[];
}

function mergePath(changeRequest: string): string {
  return `${CHANGE_REQUESTS_PATH}/${changeRequest}/merge`;
}

function requireMerged(what: string, result: MergeResult): MergeResult {
  if (result.result !== 'merge')
    throw new Error(`${what}: expected a merge, got ${JSON.stringify(result).slice(0, 500)}`);
  return result;
}

async function merge(api: BenchApi, changeRequest: string): Promise<MergeResult> {
  const path = mergePath(changeRequest);
  return requireMerged(`POST ${path}`, await api.json<MergeResult>('POST', path));
}

function range(start: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => (start + i) % CONTENT_PAGE_COUNT);
}

/** The absolute app URL prefix pages' `urls.app` are built from (for the floor's equivalent). */
function appPrefixOf(body: Buffer): string {
  const revision = JSON.parse(body.toString('utf8')) as {
    pages?: { path?: string; urls?: { app?: string } }[];
  };
  const page = revision.pages?.[0];
  const app = page?.urls?.app;
  if (!app || !page.path || !app.endsWith(page.path))
    throw new Error('GET content: the first page has no urls.app ending with its path');
  return app.slice(0, app.length - page.path.length);
}

function timedRow(
  scenario: string,
  target: Target,
  samplesMs: readonly number[],
  floorLabel: string,
  floorMs: readonly number[],
  extra: Pick<BenchRow, 'responseBytes' | 'otherFloors' | 'firstRequestMs'> & {
    floorBytes?: number;
    notes?: string[];
  },
): BenchRow {
  const timing = summarize(samplesMs);
  const floorStats = summarize(floorMs);
  const floorMultiple = floorStats.p50Ms > 0 ? timing.p50Ms / floorStats.p50Ms : undefined;
  const { verdict, notes } = judgeTimed(target, timing, floorMultiple);
  return {
    scenario,
    target,
    status: 'measured',
    ...(extra.responseBytes !== undefined ? { responseBytes: extra.responseBytes } : {}),
    timing,
    floor: {
      label: floorLabel,
      stats: floorStats,
      ...(extra.floorBytes !== undefined ? { bytes: extra.floorBytes } : {}),
    },
    ...(floorMultiple !== undefined ? { floorMultiple } : {}),
    ...(extra.otherFloors ? { otherFloors: extra.otherFloors } : {}),
    ...(extra.firstRequestMs !== undefined
      ? { firstRequestMs: Math.round(extra.firstRequestMs * 100) / 100 }
      : {}),
    verdict,
    notes: [...notes, ...(extra.notes ?? [])],
  };
}

// --- whole-space read ------------------------------------------------------------------------------

const READ_NAME = `content: GET ?format=markdown, ${PAGES} pages`;
const READ_COLD = { scenario: `${READ_NAME}, cold`, target: { maxFloorMultiple: 3 } };
const READ_WARM = { scenario: `${READ_NAME}, warm`, target: {} };
const READ_FLOOR =
  'better-sqlite3 read-only: live revision row, then all bodies in one query; JSON.stringify of ' +
  'the same pages with their Markdown; UTF-8 bytes';

/**
 * The whole space with its Markdown in one response. The server caches serialised responses per
 * (immutable) revision, so the honest figure is the cold one: before each cold read a one-page
 * change request is merged, giving main a revision no response was built from. The warm row
 * reads the last revision again, from the cache. The floor is measured between the reads.
 */
const readScenario: Scenario = {
  name: READ_NAME,
  target: READ_COLD.target,
  run: (ctx) =>
    withContentServer(ctx, 'content-read', [READ_COLD, READ_WARM], async ({ api, dbFile }) => {
      const counts = sampleCounts(ctx);
      const read = async () => ok(`GET ${READ_PATH}`, await api.timed('GET', READ_PATH));

      const first = await read();
      ctx.log(`  first read after start: ${first.ms.toFixed(1)} ms, ${size(first.body.length)}`);
      const floor = new ContentReadFloor(dbFile, CONTENT_SPACE, appPrefixOf(first.body));
      try {
        let version = 1;
        let edited = 0;
        // A one-page change request merged: main gets a revision nothing was cached for.
        const newRevision = async () => {
          const changeRequest = await createChangeRequest(api, `bench read ${version}`);
          await editPages(api, changeRequest, [edited++ % CONTENT_PAGE_COUNT], version++);
          await merge(api, changeRequest);
        };
        const floorMs: number[] = [];
        const quotedMs: number[] = [];
        const rowsMs: number[] = [];
        let floorBytes = 0;
        let quotedBytes = 0;
        const measureFloor = () => {
          floorMs.push(timeSync(() => (floorBytes = floor.read('stringify').length)));
          quotedMs.push(timeSync(() => (quotedBytes = floor.read('quoted').length)));
          rowsMs.push(timeSync(() => floor.read('rows-only')));
        };

        const cold: number[] = [];
        const sizes: number[] = [];
        for (let i = 0; i < counts.warmup + counts.coldReads; i++) {
          await newRevision();
          const response = await read();
          if (i < counts.warmup) {
            floor.read('stringify');
            floor.read('quoted');
            continue;
          }
          cold.push(response.ms);
          sizes.push(response.body.length);
          measureFloor();
        }
        ctx.log(`  cold: p50 ${summarize(cold).p50Ms} ms`);

        const warm: number[] = [];
        for (let i = 0; i < counts.warmup + counts.samples; i++) {
          const response = await read();
          if (i < counts.warmup) continue;
          warm.push(response.ms);
          measureFloor();
        }
        ctx.log(
          `  warm: p50 ${summarize(warm).p50Ms} ms; floor p50 ${summarize(floorMs).p50Ms} ms`,
        );

        const responseBytes = sizes.at(-1) ?? first.body.length;
        if (quotedBytes !== floorBytes)
          throw new Error(`read floors disagree: ${quotedBytes} vs ${floorBytes} bytes`);
        const p50 = (samples: readonly number[]) => summarize(samples).p50Ms;
        const p50Text = (samples: readonly number[]) => ms(p50(samples));
        const versus = (floorP50: number) =>
          `cold ${(p50(cold) / floorP50).toFixed(2)}×, warm ${(p50(warm) / floorP50).toFixed(2)}×`;
        const floorNote =
          `floor: ${READ_FLOOR}; in this process, no HTTP; ${size(floorBytes)} ` +
          `(the server's response: ${size(responseBytes)})`;
        const otherFloors = [
          { label: 'as the floor, bodies quoted by SQLite json_quote', stats: summarize(quotedMs) },
          { label: "the floor's queries alone, nothing serialised", stats: summarize(rowsMs) },
        ];
        const otherFloorsNote =
          `stricter floors, same run: the same bytes with every body quoted by SQLite ` +
          `(json_quote, no JavaScript escaping, as the server does) p50 ${p50Text(quotedMs)} ms ` +
          `(${versus(p50(quotedMs))}); the queries alone, nothing serialised, ` +
          `p50 ${p50Text(rowsMs)} ms (${versus(p50(rowsMs))})`;
        return [
          timedRow(READ_COLD.scenario, READ_COLD.target, cold, READ_FLOOR, floorMs, {
            responseBytes,
            floorBytes,
            firstRequestMs: first.ms,
            otherFloors,
            notes: [
              `each read is of a new revision (a one-page change request merged before it), so ` +
                `the server's response cache never has it`,
              `the first read after the server started (JIT and every cache cold): ` +
                `${first.ms.toFixed(1)} ms`,
              floorNote,
              otherFloorsNote,
            ],
          }),
          timedRow(READ_WARM.scenario, READ_WARM.target, warm, READ_FLOOR, floorMs, {
            responseBytes,
            floorBytes,
            notes: [
              'the same revision read again, answered from the response cache: informational ' +
                '(the target is judged on the cold row)',
            ],
          }),
        ];
      } finally {
        floor.close();
      }
    }),
};

// --- batch write -----------------------------------------------------------------------------------

const WRITE = {
  scenario: `content: POST batch of ${BATCH_SIZE} page updates`,
  target: { maxP50Ms: 100 },
};
const WRITE_FLOOR = `better-sqlite3: the same ${BATCH_SIZE} bodies inserted in one transaction`;

/** A fresh change request per sample, then one timed batch of 50 updates of fresh pages. */
const writeScenario: Scenario = {
  name: WRITE.scenario,
  target: WRITE.target,
  run: (ctx) =>
    withContentServer(ctx, 'content-write', [WRITE], async ({ api }) => {
      const counts = sampleCounts(ctx);
      const floor = new ContentWriteFloor(join(ctx.workDir, 'floor-write.db'));
      try {
        const samples: number[] = [];
        const floorMs: number[] = [];
        let requestBytes = 0;
        for (let i = 0; i < counts.warmup + counts.samples; i++) {
          const indexes = range(i * BATCH_SIZE, BATCH_SIZE);
          const body = updateBody(indexes, 1);
          const bodies = indexes.map((index) => pageMarkdown(index, 1));
          const changeRequest = await createChangeRequest(api, `bench write ${i}`);
          const path = contentPath(changeRequest);
          const response = ok(`POST ${path}`, await api.timed('POST', path, body));
          const floorTime = timeSync(() => floor.writeBodies(bodies));
          if (i < counts.warmup) continue;
          samples.push(response.ms);
          floorMs.push(floorTime);
          requestBytes = Buffer.byteLength(body);
        }
        ctx.log(`  p50 ${summarize(samples).p50Ms} ms; floor p50 ${summarize(floorMs).p50Ms} ms`);
        return [
          timedRow(WRITE.scenario, WRITE.target, samples, WRITE_FLOOR, floorMs, {
            notes: [
              `each sample: a new change request, then one POST of ${BATCH_SIZE} update_page ` +
                `changes with new Markdown for pages no sample touched before ` +
                `(request body ${size(requestBytes)})`,
              `floor: ${WRITE_FLOOR} (a scratch table of a temp database; no hashing, no HTTP)`,
            ],
          }),
        ];
      } finally {
        floor.close();
      }
    }),
};

// --- merge -----------------------------------------------------------------------------------------

const MERGE = {
  scenario: `content: POST merge, ${MERGE_PAGES} pages into main moved by ${MERGE_PAGES}`,
  target: { maxP50Ms: 500 },
};
const MERGE_FLOOR =
  `better-sqlite3: the merged ${MERGE_PAGES} bodies + one revision row (the merged tree, ` +
  'JSON.stringify) in one transaction';

/**
 * A true three-way merge: change requests A and B are created from the same main; A edits 100
 * pages and is merged; B, which edited 100 other pages, is outdated when its merge is timed.
 */
const mergeScenario: Scenario = {
  name: MERGE.scenario,
  target: MERGE.target,
  run: (ctx) =>
    withContentServer(ctx, 'content-merge', [MERGE], async ({ api, dbFile }) => {
      const counts = sampleCounts(ctx);
      const warmup = 1;
      const reader = new ContentReadFloor(dbFile, CONTENT_SPACE, '');
      const floor = new ContentWriteFloor(join(ctx.workDir, 'floor-merge.db'));
      try {
        const samples: number[] = [];
        const floorMs: number[] = [];
        for (let round = 0; round < warmup + counts.merges; round++) {
          const pagesA = range(round * 2 * MERGE_PAGES, MERGE_PAGES);
          const pagesB = range((round * 2 + 1) * MERGE_PAGES, MERGE_PAGES);
          const version = round + 1;
          const a = await createChangeRequest(api, `bench merge ${round} A`);
          const b = await createChangeRequest(api, `bench merge ${round} B`);
          await editPages(api, a, pagesA, version);
          await editPages(api, b, pagesB, version);
          await merge(api, a);
          const state = await api.json<{ outdated?: boolean }>(
            'GET',
            `${CHANGE_REQUESTS_PATH}/${b}`,
          );
          if (state.outdated !== true)
            throw new Error(`change request ${b} should be outdated once A is merged`);

          const path = mergePath(b);
          const response = ok(`POST ${path}`, await api.timed('POST', path));
          requireMerged(`POST ${path}`, parseOk<MergeResult>(`POST ${path}`, response));
          await checkMerged(api, pagesA[0]!, pagesB[0]!, version);

          const tree = JSON.parse(reader.liveTree()) as RevisionTree;
          const bodies = pagesB.map((index) => pageMarkdown(index, version));
          const floorTime = timeSync(() => floor.writeMerge(bodies, tree));
          if (round < warmup) continue;
          samples.push(response.ms);
          floorMs.push(floorTime);
        }
        ctx.log(`  p50 ${summarize(samples).p50Ms} ms; floor p50 ${summarize(floorMs).p50Ms} ms`);
        return [
          timedRow(MERGE.scenario, MERGE.target, samples, MERGE_FLOOR, floorMs, {
            notes: [
              `each sample: change requests A and B from the same main; A edits ${MERGE_PAGES} ` +
                `pages and is merged; the merge of B (${MERGE_PAGES} other pages, now outdated: ` +
                'a three-way merge) is timed',
              `floor: ${MERGE_FLOOR}; no HTTP`,
            ],
          }),
        ];
      } finally {
        reader.close();
        floor.close();
      }
    }),
};

/** Main has both change requests' edits after the merge (checked outside the timing). */
async function checkMerged(
  api: BenchApi,
  fromA: number,
  fromB: number,
  version: number,
): Promise<void> {
  for (const index of [fromA, fromB]) {
    const page = await api.json<{ markdown?: string }>(
      'GET',
      `${SPACE_PATH}/content/page/${pageId(index)}?format=markdown`,
    );
    if (page.markdown !== pageMarkdown(index, version))
      throw new Error(`after the merge, page ${pageId(index)} does not have its edited Markdown`);
  }
}

/** The content benchmarks of issue 3, in the order they run; each starts its own server. */
export const contentScenarios: readonly Scenario[] = [readScenario, writeScenario, mergeScenario];
