import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { quireHome } from '../../src/main/config/quire-home';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { BENCH_TOKEN } from './bench-fixture';
import { REPO_ROOT } from './bench-child';
import type { RunContext, Scenario } from './bench-scenario';
import { judgeTimed, ms, size, type BenchRow, type Target } from './bench-table';
import { imageSpaceFixture, IMAGE_SPACE_IMAGES, IMAGE_SPACE_PAGES } from './image-space-fixture';
import { largeSpaceFixture, manySpacesFixture } from './sync-fixture';
import { atomicFloor, mirrorSize, plainFloor, snapshotCache, snapshotMirror } from './sync-floor';
import { clientDirs, withServer } from './sync-scenarios';
import { summarize } from './timing-stats';

/**
 * Issue 15 §2, as whole `quire sync --once` processes (spawn to exit, the CLI bundle): the first
 * sync of 200 small spaces and one of 2,000 pages, and the mirror of a space of 800 pages and 600
 * images of 20–200 KB, each against the same files and cache rows written directly in this run.
 */
const MAX_FLOOR_MULTIPLE = 3;
const MAX_RESYNC_MS = 1000;
const BIN = join(REPO_ROOT, 'bin', 'quire.mjs');

function timeProcess(args: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', cwd: REPO_ROOT });
  const elapsed = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr.trim()}`);
  }
  return elapsed;
}

/** Logs in (which lists the spaces) and enables every space, as `quire spaces enable` would. */
function loginAll(url: string, dirs: { home: string; folder: string }): void {
  timeProcess([
    BIN,
    '--home',
    dirs.home,
    'login',
    '--server',
    url,
    '--token',
    BENCH_TOKEN,
    '--folder',
    dirs.folder,
  ]);
  const db = new Database(quireHome(dirs.home).cacheFile);
  try {
    db.prepare('UPDATE spaces SET enabled = 1').run();
  } finally {
    db.close();
  }
}

function spaceFolders(cacheFile: string): string[] {
  const db = new Database(cacheFile, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare<[], { folder_path: string }>('SELECT folder_path FROM spaces')
      .all()
      .map((row) => row.folder_path);
  } finally {
    db.close();
  }
}

interface Measured {
  syncMs: number;
  atomicMs: number;
  plainMs: number;
  files: number;
  bytes: number;
  cacheRows: number;
  resyncMs: number[];
  /** `node -e 0`, interleaved with the re-syncs: what the machine's load does to any process. */
  nodeMs: number[];
}

/** One fresh home: the first sync timed, its floors, then `resyncs` unchanged syncs timed. */
async function measureOnce(
  url: string,
  dir: string,
  name: string,
  resyncs: number,
): Promise<Measured> {
  const dirs = clientDirs(dir, name);
  try {
    loginAll(url, dirs);
    const quire = [BIN, '--home', dirs.home, 'sync', '--once'];
    const syncMs = timeProcess(quire);
    const resyncMs: number[] = [];
    const nodeMs: number[] = [];
    for (let i = 0; i < resyncs; i++) {
      resyncMs.push(timeProcess(quire));
      nodeMs.push(timeProcess(['-e', '0']));
    }
    const cacheFile = quireHome(dirs.home).cacheFile;
    const mirror = snapshotMirror(dirs.folder, spaceFolders(cacheFile));
    const cache = snapshotCache(cacheFile);
    const tree = mirrorSize(dirs.folder);
    const atomicDir = join(dirs.floorDir, 'atomic');
    const plainDir = join(dirs.floorDir, 'plain');
    mkdirSync(atomicDir, { recursive: true });
    mkdirSync(plainDir, { recursive: true });
    const atomicMs = await atomicFloor(mirror, cache, atomicDir, join(dirs.floorDir, 'a.db'));
    const plainMs = plainFloor(mirror, cache, plainDir, join(dirs.floorDir, 'p.db'));
    return {
      syncMs,
      atomicMs,
      plainMs,
      files: tree.files,
      bytes: tree.bytes,
      cacheRows: cache.rows,
      resyncMs,
      nodeMs,
    };
  } finally {
    dirs.remove();
  }
}

function firstSyncRow(label: string, runs: readonly Measured[], notes: string[]): BenchRow {
  const target: Target = { maxFloorMultiple: MAX_FLOOR_MULTIPLE };
  const timing = summarize(runs.map((run) => run.syncMs));
  const atomic = summarize(runs.map((run) => run.atomicMs));
  const plain = summarize(runs.map((run) => run.plainMs));
  const floorMultiple = timing.p50Ms / atomic.p50Ms;
  const judged = judgeTimed(target, timing, floorMultiple);
  const first = runs[0]!;
  return {
    scenario: label,
    target,
    status: 'measured',
    responseBytes: first.bytes,
    timing,
    floor: { label: 'atomicWriteFile + one SQLite transaction', stats: atomic },
    floorMultiple,
    otherFloors: [{ label: 'writeFileSync (no fsync) + one SQLite transaction', stats: plain }],
    verdict: judged.verdict,
    notes: [
      ...judged.notes,
      `a whole \`quire sync --once\` process (spawn to exit), ${runs.length} fresh home(s); ` +
        `${first.files.toLocaleString('en-US')} files, ${size(first.bytes)}, ${first.cacheRows.toLocaleString('en-US')} cache rows`,
      `floors p50: atomic ${ms(atomic.p50Ms)} ms (judged), writeFileSync ${ms(plain.p50Ms)} ms ` +
        `(the sync is ${(timing.p50Ms / plain.p50Ms).toFixed(1)}× that)`,
      ...notes,
    ],
  };
}

function runsOf(ctx: RunContext): number {
  return ctx.options.quick ? 1 : 3;
}

/** 200 small spaces in two organizations, and one organization with a space of 2,000 pages. */
function manySpacesAndLarge(): Fixture {
  const many = manySpacesFixture();
  const large = largeSpaceFixture(2000, 0);
  return { ...many, organizations: [...many.organizations, ...large.organizations] };
}

const manySpacesFirstSync: Scenario = {
  name: 'first sync of 200 spaces and a 2,000-page space (quire sync --once)',
  target: { maxFloorMultiple: MAX_FLOOR_MULTIPLE },
  async run(ctx) {
    timeProcess([join(REPO_ROOT, 'scripts', 'build-cli.mjs')]);
    const runs = await withServer(ctx, 'first-sync', manySpacesAndLarge(), async (server, dir) => {
      const measured: Measured[] = [];
      for (let i = 0; i < runsOf(ctx); i++) {
        const run = await measureOnce(server.url, dir, `client-${i + 1}`, 0);
        ctx.log(
          `  first sync ${i + 1}: ${ms(run.syncMs)} ms; floor ${ms(run.atomicMs)} ms (plain ${ms(run.plainMs)} ms)`,
        );
        measured.push(run);
      }
      return measured;
    });
    return firstSyncRow('first sync, 200 small spaces + one of 2,000 pages (whole process)', runs, [
      'the client spends the server budget (X-RateLimit-*) with 6 requests in flight; revisions of 6 spaces fetched ahead of the one being written',
    ]);
  },
};

const imageSpaceMirror: Scenario = {
  name: `mirror of ${IMAGE_SPACE_PAGES} pages and ${IMAGE_SPACE_IMAGES} images (quire sync --once)`,
  target: { maxFloorMultiple: MAX_FLOOR_MULTIPLE },
  async run(ctx) {
    timeProcess([join(REPO_ROOT, 'scripts', 'build-cli.mjs')]);
    const resyncs = ctx.options.quick ? 3 : 5;
    const runs = await withServer(ctx, 'image-space', imageSpaceFixture(), async (server, dir) => {
      const measured: Measured[] = [];
      for (let i = 0; i < runsOf(ctx); i++) {
        const run = await measureOnce(server.url, dir, `client-${i + 1}`, resyncs);
        ctx.log(
          `  mirror ${i + 1}: ${ms(run.syncMs)} ms; floor ${ms(run.atomicMs)} ms (plain ${ms(run.plainMs)} ms); ` +
            `unchanged: ${run.resyncMs.map((v) => `${ms(v)} ms`).join(', ')}`,
        );
        measured.push(run);
      }
      return measured;
    });
    const label = `mirror, ${IMAGE_SPACE_PAGES} pages + ${IMAGE_SPACE_IMAGES} images of 20–200 KB (whole process)`;
    const mirrorRow = firstSyncRow(label, runs, [
      'images streamed to temp files, 8 downloads at once, outside the API budget',
    ]);
    const resync = summarize(runs.flatMap((run) => run.resyncMs));
    const target: Target = { maxP50Ms: MAX_RESYNC_MS };
    const node = summarize(runs.flatMap((run) => run.nodeMs));
    const judged = judgeTimed(target, resync, undefined);
    const resyncRow: BenchRow = {
      scenario: `unchanged re-sync of that space (whole process)`,
      target,
      status: 'measured',
      timing: resync,
      floor: { label: 'node -e 0, interleaved (not judged: start-up under load)', stats: node },
      floorMultiple: resync.p50Ms / node.p50Ms,
      verdict: judged.verdict,
      notes: [
        ...judged.notes,
        `${resync.samples} \`quire sync --once\` processes after each mirror, spawn to exit`,
      ],
    };
    return [mirrorRow, resyncRow];
  },
};

/** Whole-process first-sync rows of `npm run bench:sync` (issue 15 §2). */
export const firstSyncScenarios: readonly Scenario[] = [manySpacesFirstSync, imageSpaceMirror];
