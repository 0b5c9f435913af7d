// Child process: the Quire sync client under test, built as the `quire` CLI builds it
// (createQuireServices → openEngine over <home>/cache.db, WorkspaceClient with the CLI's options),
// so its peak RSS is its own. Started by the sync benchmark (see sync-client.ts); sends its report
// over IPC in the "ready" message and exits.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import type { EngineSession as QuireEngine } from '../../src/main/app/app-services';
import { quireHome } from '../../src/main/config/quire-home';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import type { SyncProgress } from '../../src/main/sync-ports';
import { exitWithParent, failToParent, sendToParent } from './bench-child';
import { BENCH_TOKEN } from './bench-fixture';
import type {
  FloorTimes,
  RequestCount,
  SyncClientMode,
  SyncClientReport,
  SyncRun,
} from './sync-client';
import { SYNC_ADMIN } from './sync-fixture';
import { atomicFloor, mirrorSize, plainFloor, snapshotCache, snapshotMirror } from './sync-floor';
import { checkSyncResult } from './check-sync-result';

const MB = 1024 * 1024;

interface Args {
  mode: SyncClientMode;
  server: string;
  home: string;
  folder: string;
  floorDir: string | undefined;
  repeats: number;
}

function parse(): Args {
  const { values } = parseArgs({
    options: {
      mode: { type: 'string' },
      server: { type: 'string' },
      home: { type: 'string' },
      folder: { type: 'string' },
      'floor-dir': { type: 'string' },
      repeats: { type: 'string' },
    },
  });
  const mode = values.mode;
  if (mode !== 'initial' && mode !== 'unchanged' && mode !== 'cold')
    throw new Error('--mode must be initial, unchanged or cold');
  if (!values.server || !values.home || !values.folder)
    throw new Error('--server, --home and --folder are required');
  const repeats = Number(values.repeats ?? 5);
  if (!Number.isInteger(repeats) || repeats < 1 || repeats > 100)
    throw new Error('--repeats must be an integer from 1 to 100');
  return {
    mode,
    server: values.server,
    home: path.resolve(values.home),
    folder: path.resolve(values.folder),
    floorDir: values['floor-dir'],
    repeats,
  };
}

/** Every call of the fetch under WorkspaceClient, as `METHOD /path`. */
class RequestLog {
  readonly calls: string[] = [];

  readonly fetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    this.calls.push(`${method} ${url.pathname}`);
    return fetch(input, init);
  };
}

/** The server's rate-limit counters: remaining requests for the token, and for this address. */
interface ServerCounter {
  token: number;
  address: number;
  resets: string;
}

/**
 * Reads the server's own request count without touching it: every request is charged to its
 * token (or, unauthenticated and on public routes such as file downloads, to its address), and
 * the X-RateLimit-Remaining header says how much of the window is left. One probe of each.
 */
async function readServerCounter(server: string): Promise<ServerCounter> {
  const probe = async (headers: Record<string, string>) => {
    const response = await fetch(`${server}/v1/user`, { headers });
    await response.arrayBuffer();
    const remaining = Number(response.headers.get('x-ratelimit-remaining'));
    const reset = response.headers.get('x-ratelimit-reset') ?? '';
    if (!Number.isFinite(remaining)) throw new Error('The server sent no X-RateLimit-Remaining');
    return { remaining, reset };
  };
  const token = await probe({ authorization: `Bearer ${BENCH_TOKEN}` });
  const address = await probe({});
  return {
    token: token.remaining,
    address: address.remaining,
    resets: `${token.reset}/${address.reset}`,
  };
}

/** Requests the server counted between two readings (each reading's own probe excluded). */
function serverCount(before: ServerCounter, after: ServerCounter): number | null {
  if (before.resets !== after.resets) return null;
  return before.token - after.token - 1 + (before.address - after.address - 1);
}

/**
 * Wall time by phase, from the engine's progress events: the time between two events is charged
 * to the work the first one started — listing, fetching a revision, rendering and planning once
 * it arrived, writing page files, downloading and writing assets (the engine writes a space's
 * texts first, then its assets), committing the cache.
 */
class PhaseClock {
  private events: { at: number; event: SyncProgress }[] = [];
  private started = performance.now();

  start(): void {
    this.events = [];
    this.started = performance.now();
  }

  readonly onProgress = (event: SyncProgress): void => {
    this.events.push({ at: performance.now(), event });
  };

  /** `assets`: space id → assets written (known once the sync is over). */
  result(assets: ReadonlyMap<string, number>): Record<string, number> {
    const totals = new Map<string, number>();
    let phase = 'listing';
    let last = this.started;
    for (const { at, event } of this.events) {
      totals.set(phase, (totals.get(phase) ?? 0) + at - last);
      last = at;
      const finished = event.done >= event.total;
      if (event.phase === 'fetching') phase = finished ? 'render+plan' : 'fetch';
      else if (event.phase === 'writing') {
        const texts = event.total - (assets.get(event.space ?? '') ?? 0);
        phase = finished ? 'commit' : event.done < texts ? 'write pages' : 'download+write assets';
      } else phase = event.phase;
    }
    return Object.fromEntries([...totals].map(([name, ms]) => [name, Math.round(ms)]));
  }
}

/** Assets per space in the cache's file index. */
function assetCounts(cacheFile: string): Map<string, number> {
  const db = new Database(cacheFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare<[], { space_id: string; n: number }>(
        "SELECT space_id, count(*) AS n FROM file_index WHERE kind = 'asset' GROUP BY space_id",
      )
      .all();
    return new Map(rows.map((row) => [row.space_id, row.n]));
  } finally {
    db.close();
  }
}

function maxRssMB(): number {
  // resourceUsage().maxRSS is in kilobytes.
  return Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
}

async function timedSync(
  engine: QuireEngine,
  args: Args,
  log: RequestLog,
  phases: PhaseClock,
  what: string,
): Promise<SyncRun> {
  const before = await readServerCounter(args.server);
  const first = log.calls.length;
  phases.start();
  const started = performance.now();
  const result = await engine.syncOnce();
  const wallMs = performance.now() - started;
  const after = await readServerCounter(args.server);
  checkSyncResult(result, what);
  const paths = log.calls.slice(first);
  const requests: RequestCount = {
    client: paths.length,
    server: serverCount(before, after),
    ...(paths.length <= 10 ? { paths } : {}),
  };
  return {
    wallMs,
    requests,
    spaces: result.spaces.filter((space) => space.outcome === 'pulled').length,
    filesWritten: result.spaces.reduce((n, space) => n + space.filesWritten, 0),
    phases: phases.result(assetCounts(quireHome(args.home).cacheFile)),
  };
}

/** The folders the spaces were mirrored into, relative to the mirror folder. */
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

async function measureFloors(args: Args, cacheFile: string): Promise<FloorTimes> {
  if (args.floorDir === undefined) throw new Error('--floor-dir is required for the floors');
  const mirror = snapshotMirror(args.folder, spaceFolders(cacheFile));
  const cache = snapshotCache(cacheFile);
  const atomicDir = path.join(args.floorDir, 'atomic');
  const plainDir = path.join(args.floorDir, 'plain');
  mkdirSync(atomicDir, { recursive: true });
  mkdirSync(plainDir, { recursive: true });
  const atomicMs = await atomicFloor(mirror, cache, atomicDir, path.join(args.floorDir, 'a.db'));
  const plainMs = plainFloor(mirror, cache, plainDir, path.join(args.floorDir, 'p.db'));
  return {
    atomicMs,
    plainMs,
    files: mirror.files.length,
    bytes: mirror.bytes,
    directories: mirror.directories.length,
    cacheRows: cache.rows,
  };
}

/**
 * The least an unchanged sync can do: the same listing requests (organizations, then each
 * organization's spaces) sent directly, their JSON parsed, and the spaces' revisions read from
 * the cache to compare with. Returns milliseconds.
 */
async function unchangedFloor(server: string, cacheFile: string): Promise<number> {
  const db = new Database(cacheFile, { readonly: true, fileMustExist: true });
  try {
    const headers = { authorization: `Bearer ${BENCH_TOKEN}` };
    const read = async (url: string) =>
      (await (await fetch(`${server}${url}`, { headers })).json()) as { items: { id: string }[] };
    const query = db.prepare('SELECT id, remote_revision, synced_revision FROM spaces');
    const started = performance.now();
    const orgs = await read('/v1/orgs?limit=1000');
    for (const org of orgs.items) await read(`/v1/orgs/${org.id}/spaces?limit=1000`);
    query.all();
    return performance.now() - started;
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  exitWithParent();
  const args = parse();
  const home = quireHome(args.home);
  const log = new RequestLog();
  const phases = new PhaseClock();
  // As createQuireServices' connect() builds it, with the counting fetch underneath.
  const remote = new WorkspaceClient({
    endpoint: args.server,
    token: BENCH_TOKEN,
    userAgent: 'quire-cli',
    fetch: log.fetch,
  });
  const config = {
    server: args.server,
    user: { id: SYNC_ADMIN, displayName: 'Sync Bench Admin' },
    folder: args.folder,
  };

  const setupStarted = performance.now();
  const engine = await createQuireServices(home).openEngine({
    config,
    remote,
    onProgress: phases.onProgress,
  });
  let report: SyncClientReport;
  try {
    if (args.mode !== 'cold') {
      // `quire login` lists the spaces; `quire spaces enable` picks them (the first listing
      // enables them all only below 20 spaces).
      const listed = await engine.refreshSpaces();
      for (const space of listed.spaces)
        if (!space.enabled) await engine.setSpaceEnabled(space.id, true);
    }
    const setupMs = performance.now() - setupStarted;
    const rssBeforeMB = Math.round((process.memoryUsage().rss / MB) * 10) / 10;
    const sync = await timedSync(engine, args, log, phases, `The ${args.mode} sync`);
    const unchanged: SyncRun[] = [];
    if (args.mode === 'unchanged') {
      // One unmeasured run first: the first sync with nothing to do runs code the mirror did not.
      await timedSync(engine, args, log, phases, 'The warm-up unchanged sync');
      for (let i = 0; i < args.repeats; i++)
        unchanged.push(await timedSync(engine, args, log, phases, 'An unchanged sync'));
    }
    const peak = maxRssMB();
    const tree = mirrorSize(args.folder);
    report = {
      mode: args.mode,
      setupMs,
      rssBeforeMB,
      maxRssMB: peak,
      sync,
      files: tree.files,
      bytes: tree.bytes,
      ...(args.mode === 'unchanged' ? { unchanged } : {}),
    };
  } finally {
    await engine.close();
  }

  if (args.mode !== 'cold') report.floor = await measureFloors(args, home.cacheFile);
  if (args.mode === 'unchanged') {
    report.unchangedFloorMs = [];
    await unchangedFloor(args.server, home.cacheFile);
    for (let i = 0; i < args.repeats; i++)
      report.unchangedFloorMs.push(await unchangedFloor(args.server, home.cacheFile));
  }
  await sendToParent({ type: 'ready', url: args.server, info: { report: JSON.stringify(report) } });
  process.exit(0);
}

main().catch(failToParent);
