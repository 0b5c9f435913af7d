// Child process: the Quire sync client pushing local edits, built as the `quire` CLI builds it
// (createQuireServices → openEngine over <home>/cache.db, WorkspaceClient with the CLI's options,
// a counting transport underneath). Started by the push scenarios of the sync benchmark (see
// push-client.ts); sends its report over IPC in the "ready" message and exits.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import type { EngineSession as QuireEngine } from '../../src/main/app/app-services';
import type { SyncStatusSnapshot } from '../../src/shared/contract/sync-status';
import { quireHome } from '../../src/main/config/quire-home';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import { exitWithParent, failToParent, sendToParent } from './bench-child';
import { BENCH_TOKEN } from './bench-fixture';
import {
  callKind,
  NEW_TEXT,
  OLD_TEXT,
  type HttpCall,
  type PushClientMode,
  type PushClientReport,
  type SaveSample,
} from './push-client';
import { SYNC_ADMIN } from './sync-fixture';
import { checkSyncResult } from './check-sync-result';

/** No save may take longer than this; the drain and burst waits are bounded the same way. */
const SAVE_TIMEOUT_MS = 30_000;
const DRAIN_TIMEOUT_MS = 180_000;
/** The watch counts as settled after this long without a run (its debounce, with margin). */
const QUIET_MS = 1_500;

interface Args {
  mode: PushClientMode;
  server: string;
  home: string;
  folder: string;
  count: number;
  pollMs: number;
}

function parse(): Args {
  const { values } = parseArgs({
    options: {
      mode: { type: 'string' },
      server: { type: 'string' },
      home: { type: 'string' },
      folder: { type: 'string' },
      count: { type: 'string' },
      'poll-ms': { type: 'string' },
    },
  });
  const mode = values.mode;
  if (mode !== 'latency' && mode !== 'burst' && mode !== 'drain')
    throw new Error('--mode must be latency, burst or drain');
  if (!values.server || !values.home || !values.folder)
    throw new Error('--server, --home and --folder are required');
  const count = Number(values.count ?? 100);
  const pollMs = Number(values['poll-ms'] ?? 10);
  if (!Number.isInteger(count) || count < 1) throw new Error('--count must be a positive integer');
  if (!Number.isFinite(pollMs) || pollMs < 1) throw new Error('--poll-ms must be positive');
  return {
    mode,
    server: values.server,
    home: path.resolve(values.home),
    folder: path.resolve(values.folder),
    count,
    pollMs,
  };
}

/**
 * The transport under the rate-limited fetch: every call (retries included) is numbered, sent
 * with that number in `x-bench-seq` and recorded with its times, status and pacing headers.
 */
class CallRecorder {
  readonly calls: HttpCall[] = [];

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const call: HttpCall = {
      seq: this.calls.length + 1,
      method,
      kind: callKind(method, url.pathname),
      sentAt: performance.now(),
      receivedAt: Number.NaN,
      status: 0,
      retryAfter: null,
      rateLimitRemaining: null,
      rateLimitReset: null,
    };
    this.calls.push(call);
    const headers = new Headers(init?.headers);
    headers.set('x-bench-seq', String(call.seq));
    try {
      const response = await fetch(input, { ...init, headers });
      call.receivedAt = performance.now();
      call.status = response.status;
      call.retryAfter = response.headers.get('retry-after');
      call.rateLimitRemaining = response.headers.get('x-ratelimit-remaining');
      call.rateLimitReset = response.headers.get('x-ratelimit-reset');
      return response;
    } catch (error) {
      call.receivedAt = performance.now();
      throw error;
    }
  };

  since(at: number): HttpCall[] {
    return this.calls.filter((call) => call.sentAt >= at);
  }
}

/**
 * `quire sync --watch` as the CLI runs it (QuireEngine.watch: SyncWatcher over the engine, its
 * folder watcher and defaults), in the background until stop(). Its runs are told apart by the
 * status model's `syncing` state, which every run sets while it lasts.
 */
class WatchSession {
  /** Start and end (performance.now()) of every run that has ended. */
  readonly runs: { startedAt: number; endedAt: number }[] = [];
  /** Start of every run, the one going on included (a save is on the server before its run ends). */
  readonly starts: number[] = [];
  private current: number | undefined;
  private last: SyncStatusSnapshot | undefined;
  private failure: unknown;
  private readonly controller = new AbortController();
  private readonly done: Promise<unknown>;

  constructor(engine: QuireEngine) {
    this.done = engine
      .watch({ signal: this.controller.signal, onStatus: (status) => this.observe(status) })
      .catch((error: unknown) => {
        this.failure ??= error;
      });
  }

  /** Resolves once the start-up sync of the watch is over (its folders are watched by then). */
  started(): Promise<void> {
    return waitFor('the watch start-up sync', DRAIN_TIMEOUT_MS, () => {
      this.check();
      return this.runs.length > 0 && !this.busy();
    });
  }

  busy(): boolean {
    return this.current !== undefined;
  }

  /** Local changes not yet acknowledged, as the last status said. */
  pending(): number {
    return this.last?.pending ?? Number.NaN;
  }

  /** Throws what made the watch fail, or a run end in error. */
  check(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.last?.state === 'error')
      throw new Error(`The watch loop failed: ${this.last.error ?? 'no message'}`);
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.done;
  }

  private observe(status: SyncStatusSnapshot): void {
    this.last = status;
    const now = performance.now();
    if (status.state === 'syncing') {
      if (this.current === undefined) {
        this.current = now;
        this.starts.push(now);
      }
    } else if (this.current !== undefined) {
      this.runs.push({ startedAt: this.current, endedAt: now });
      this.current = undefined;
    }
  }
}

interface MirroredSpace {
  id: string;
  /** The space folder (absolute). */
  root: string;
  /** Page files, relative to the space folder, in path order. */
  pages: { path: string; pageId: string }[];
}

/** The one space the fixture has, as the initial sync mirrored it. */
function mirroredSpace(cache: Database.Database, folder: string): MirroredSpace {
  const spaces = cache
    .prepare<[], { id: string; folder_path: string }>('SELECT id, folder_path FROM spaces')
    .all();
  if (spaces.length !== 1) throw new Error(`Expected one space, the cache has ${spaces.length}`);
  const space = spaces[0]!;
  const pages = cache
    .prepare<[string], { path: string; page_id: string }>(
      "SELECT path, page_id FROM file_index WHERE space_id = ? AND kind = 'page' AND path LIKE '%.md' ORDER BY path",
    )
    .all(space.id)
    .map((row) => ({ path: row.path, pageId: row.page_id }));
  return { id: space.id, root: path.join(folder, ...space.folder_path.split('/')), pages };
}

function outboxRows(cache: Database.Database, spaceId: string): number {
  return cache
    .prepare<[string], { n: number }>('SELECT count(*) AS n FROM outbox WHERE space_id = ?')
    .get(spaceId)!.n;
}

function workingChangeRequest(cache: Database.Database, spaceId: string): string | undefined {
  const row = cache
    .prepare<[string], { change_request_id: string | null }>(
      'SELECT change_request_id FROM working_change_requests WHERE space_id = ?',
    )
    .get(spaceId);
  return row?.change_request_id ?? undefined;
}

/**
 * A GET of the API with the benchmark's token, outside the client under test (not counted). A
 * 429 (the rate-limited scenario) is waited out as its Retry-After says.
 */
async function readApi(server: string, pathAndQuery: string): Promise<unknown> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const response = await fetch(`${server}${pathAndQuery}`, {
      headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    });
    if (response.status === 429) {
      await response.arrayBuffer();
      await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000 + 50);
      continue;
    }
    if (!response.ok) return { status: response.status };
    return response.json();
  }
  throw new Error(`GET ${pathAndQuery} was refused 20 times`);
}

/** The page's Markdown in the change request, or undefined while it has none. */
async function pageMarkdown(
  server: string,
  spaceId: string,
  changeRequestId: string,
  pageId: string,
): Promise<string | undefined> {
  const page = (await readApi(
    server,
    `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}?format=markdown`,
  )) as { markdown?: unknown };
  return typeof page.markdown === 'string' ? page.markdown : undefined;
}

/** Every page of the change request: how many carry the new text, and how many the old. */
async function verifyReplaced(
  server: string,
  spaceId: string,
  changeRequestId: string | undefined,
): Promise<{ pages: number; replaced: number; old: number }> {
  if (changeRequestId === undefined) return { pages: 0, replaced: 0, old: 0 };
  const revision = (await readApi(
    server,
    `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content?format=markdown`,
  )) as { pages?: unknown };
  const counts = { pages: 0, replaced: 0, old: 0 };
  const visit = (pages: unknown) => {
    if (!Array.isArray(pages)) return;
    for (const page of pages as { markdown?: unknown; pages?: unknown }[]) {
      if (typeof page.markdown === 'string') {
        counts.pages++;
        if (page.markdown.includes(NEW_TEXT)) counts.replaced++;
        if (page.markdown.includes(OLD_TEXT)) counts.old++;
      }
      visit(page.pages);
    }
  };
  visit(revision.pages);
  return counts;
}

/** Polls `ready` every 20 ms until it is true; throws after `timeoutMs`. */
async function waitFor(what: string, timeoutMs: number, ready: () => boolean): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!ready()) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Saves a page file with a new last paragraph, as an editor does (the whole file rewritten). */
function savePage(root: string, page: { path: string }, marker: string): void {
  const file = path.join(root, ...page.path.split('/'));
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, `${text.endsWith('\n') ? text : `${text}\n`}\n${marker}\n`);
}

/** Replaces OLD_TEXT with NEW_TEXT in the first `count` page files (read first, then written). */
function searchAndReplace(space: MirroredSpace, count: number): number {
  if (space.pages.length < count)
    throw new Error(`The space has ${space.pages.length} page files, fewer than ${count}`);
  const edits = space.pages.slice(0, count).map((page) => {
    const file = path.join(space.root, ...page.path.split('/'));
    const text = readFileSync(file, 'utf8');
    if (!text.includes(OLD_TEXT)) throw new Error(`${page.path} does not mention ${OLD_TEXT}`);
    return { file, text: text.replaceAll(OLD_TEXT, NEW_TEXT) };
  });
  const started = performance.now();
  for (const edit of edits) writeFileSync(edit.file, edit.text);
  return performance.now() - started;
}

/** Waits until a run has started since `since`, none is going on, nothing is pending, and quiet. */
async function waitUntilSettled(watch: WatchSession, since: number): Promise<void> {
  await waitFor('the watch loop to push the burst', DRAIN_TIMEOUT_MS, () => {
    watch.check();
    if (watch.busy() || !watch.runs.some((run) => run.startedAt >= since)) return false;
    if (watch.pending() !== 0) return false;
    return performance.now() - watch.runs.at(-1)!.endedAt >= QUIET_MS;
  });
}

async function latency(
  args: Args,
  engine: QuireEngine,
  cache: Database.Database,
  space: MirroredSpace,
): Promise<Pick<PushClientReport, 'warmupMs' | 'samples' | 'syncs'>> {
  if (space.pages.length < args.count + 1)
    throw new Error(`The space has ${space.pages.length} page files, fewer than ${args.count + 1}`);
  const watch = new WatchSession(engine);
  try {
    await watch.started();
    const save = async (index: number): Promise<SaveSample> => {
      const page = space.pages[index]!;
      const marker = `Bench save ${index} of the latency run.`;
      savePage(space.root, page, marker);
      const written = performance.now();
      let polls = 0;
      for (;;) {
        watch.check();
        const changeRequest = workingChangeRequest(cache, space.id);
        if (changeRequest !== undefined) {
          polls++;
          const markdown = await pageMarkdown(args.server, space.id, changeRequest, page.pageId);
          if (markdown?.includes(marker)) break;
        }
        if (performance.now() - written > SAVE_TIMEOUT_MS)
          throw new Error(`Save ${index} (${page.path}) not on the server after 30 s`);
        await sleep(args.pollMs);
      }
      const seen = performance.now();
      // A run already queued may pick the save up before its own debounce: then no run started
      // after the write, and detection is counted as nothing.
      const run = watch.starts.find((at) => at >= written && at <= seen) ?? written;
      return { totalMs: seen - written, detectMs: run - written, polls };
    };
    // The first save creates the working change request: not a save like the others.
    const warmup = await save(0);
    const samples: SaveSample[] = [];
    for (let i = 1; i <= args.count; i++) samples.push(await save(i));
    return { warmupMs: warmup.totalMs, samples, syncs: watch.runs.length - 1 };
  } finally {
    await watch.stop();
  }
}

async function burst(
  args: Args,
  engine: QuireEngine,
  cache: Database.Database,
  space: MirroredSpace,
  recorder: CallRecorder,
): Promise<Partial<PushClientReport>> {
  const watch = new WatchSession(engine);
  try {
    await watch.started();
    const started = performance.now();
    const writeMs = searchAndReplace(space, args.count);
    await waitUntilSettled(watch, started);
    const updates = recorder
      .since(started)
      .filter((call) => call.method === 'POST' && call.kind.endsWith('/content'));
    return {
      writeMs,
      updatesDoneMs: Math.max(...updates.map((call) => call.receivedAt)) - started,
      drainMs: watch.runs.at(-1)!.endedAt - started,
      syncs: watch.runs.filter((run) => run.startedAt >= started).length,
      calls: recorder.since(started),
      verified: await verifyReplaced(args.server, space.id, workingChangeRequest(cache, space.id)),
    };
  } finally {
    await watch.stop();
  }
}

async function drain(
  args: Args,
  engine: QuireEngine,
  cache: Database.Database,
  space: MirroredSpace,
  recorder: CallRecorder,
): Promise<Partial<PushClientReport>> {
  const started = performance.now();
  const writeMs = searchAndReplace(space, args.count);
  checkSyncResult(await engine.syncOnce(), 'The rate-limited push');
  const drainMs = performance.now() - started;
  return {
    writeMs,
    drainMs,
    // Every call, the mirror's included: no request of the run may beat a Retry-After.
    calls: recorder.calls,
    verified: await verifyReplaced(args.server, space.id, workingChangeRequest(cache, space.id)),
  };
}

async function main(): Promise<void> {
  exitWithParent();
  const args = parse();
  const home = quireHome(args.home);
  const recorder = new CallRecorder();
  const pacing = { retries: 0, pauses: 0 };
  // As createQuireServices' connect() builds it, with the recording transport underneath.
  const remote = new WorkspaceClient({
    endpoint: args.server,
    token: BENCH_TOKEN,
    userAgent: 'quire-cli',
    fetch: recorder.fetch,
    http: {
      onEvent: (event) => {
        if (event.type === 'retry') pacing.retries++;
        else pacing.pauses++;
      },
    },
  });
  const config = {
    server: args.server,
    user: { id: SYNC_ADMIN, displayName: 'Sync Bench Admin' },
    folder: args.folder,
  };
  // As `quire sync --watch` opens it for the watching modes.
  const engine = await createQuireServices(home).openEngine({
    config,
    remote,
    ...(args.mode === 'drain' ? {} : { watching: true }),
  });
  let report: PushClientReport;
  let cache: Database.Database | undefined;
  try {
    const mirrorStarted = performance.now();
    const listed = await engine.refreshSpaces();
    for (const space of listed.spaces)
      if (!space.enabled) await engine.setSpaceEnabled(space.id, true);
    checkSyncResult(await engine.syncOnce(), 'The initial mirror');
    const mirrorMs = performance.now() - mirrorStarted;
    cache = new Database(home.cacheFile, { readonly: true, fileMustExist: true });
    const space = mirroredSpace(cache, args.folder);
    const base = { mode: args.mode, mirrorMs, pageFiles: space.pages.length, pacing };
    let result: Partial<PushClientReport>;
    if (args.mode === 'latency') result = await latency(args, engine, cache, space);
    else if (args.mode === 'burst') result = await burst(args, engine, cache, space, recorder);
    else result = await drain(args, engine, cache, space, recorder);
    report = {
      ...base,
      calls: [],
      ...result,
      outboxLeft: outboxRows(cache, space.id),
    };
  } finally {
    cache?.close();
    await engine.close();
  }
  await sendToParent({ type: 'ready', url: args.server, info: { report: JSON.stringify(report) } });
  process.exit(0);
}

main().catch(failToParent);
