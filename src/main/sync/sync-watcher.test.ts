import { describe, expect, it } from 'vitest';
import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';
import type { WatchBatch, WatcherTimers } from '../local/folder-watcher';
import type { SyncReport, SyncRunOptions } from './sync-engine';
import {
  SyncWatcher,
  type SpaceFolderWatcher,
  type WatchedEngine,
  type WatchRun,
} from './sync-watcher';

/** Timers on a fake clock: advance() fires them in order, sleep() jumps like a suspended laptop. */
class FakeTimers implements WatcherTimers {
  time = 1_000_000;
  private nextId = 1;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.pending.set(id, { at: this.time + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  now(): number {
    return this.time;
  }

  count(): number {
    return this.pending.size;
  }

  /** Moves time forward, firing every timer due on the way at its own time. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.pending.entries()]
        .filter(([, timer]) => timer.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      this.pending.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].callback();
      await settle();
    }
    this.time = end;
    await settle();
  }

  /** The machine sleeps `ms`: no timer fires meanwhile; on wake the overdue ones fire late. */
  async sleep(ms: number): Promise<void> {
    this.time += ms;
    await this.advance(0);
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

interface Call {
  kind: 'sync' | 'push';
  at: number;
  /** What the watcher handed the run to stop it. */
  signal: AbortSignal | undefined;
  /** Whether the run refreshes the change requests whatever their interval. */
  refresh: boolean;
  finish: (report?: Partial<SyncReport>) => void;
}

/** An engine whose runs finish when the test says so (or at once with `auto`). */
class FakeEngine implements WatchedEngine {
  calls: Call[] = [];
  active = 0;
  maxActive = 0;
  auto = true;
  offline = false;
  /** Runs report the token rejected (401), as the engine does when listing fails with it. */
  tokenRejected = false;
  /** Push runs report that main moved since the last pull (their edits wait for one). */
  mainMoved = false;
  folders = [{ spaceId: 's-1', root: '/mirror/acme/one' }];

  constructor(private readonly timers: FakeTimers) {}

  syncOnce(options?: SyncRunOptions): Promise<SyncReport> {
    return this.run('sync', options);
  }

  pushOnce(options?: SyncRunOptions): Promise<SyncReport> {
    return this.run('push', options);
  }

  syncedFolders() {
    return this.folders;
  }

  status() {
    return [];
  }

  pendingChanges() {
    return 0;
  }

  pauseState() {
    return { paused: false, until: null };
  }

  kinds(): string[] {
    return this.calls.map((call) => call.kind);
  }

  private run(kind: 'sync' | 'push', options: SyncRunOptions = {}): Promise<SyncReport> {
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    return new Promise((resolve) => {
      const finish = (extra: Partial<SyncReport> = {}) => {
        this.active--;
        const now = new Date(this.timers.now()).toISOString();
        resolve({
          startedAt: now,
          finishedAt: now,
          spaces: [],
          errors: this.offline
            ? [{ kind: 'offline', message: 'cannot reach the server', status: null }]
            : this.tokenRejected
              ? [{ kind: 'token-rejected', message: 'Unknown or revoked token' }]
              : [],
          filesWritten: 0,
          filesRemoved: 0,
          ...(this.offline ? { offline: true } : {}),
          ...(this.tokenRejected ? { tokenRejected: true } : {}),
          ...(this.mainMoved && kind === 'push'
            ? {
                spaces: [
                  {
                    spaceId: 's-1',
                    title: 'One',
                    folder: 'acme/one',
                    fromRevision: null,
                    toRevision: null,
                    written: [],
                    removed: [],
                    problems: [],
                    mainMoved: true,
                  },
                ],
              }
            : {}),
          ...extra,
        });
      };
      this.calls.push({
        kind,
        at: this.timers.now(),
        signal: options.signal,
        refresh: options.refreshChangeRequests === true,
        finish,
      });
      if (this.auto) finish();
    });
  }
}

class FakeFolderWatcher implements SpaceFolderWatcher {
  watched = new Map<string, string>();
  closed = false;

  constructor(
    readonly handlers: {
      onBatch: (batch: WatchBatch) => void;
      onError: (spaceId: string, error: Error) => void;
    },
  ) {}

  async watchSpace(spaceId: string, root: string): Promise<void> {
    this.watched.set(spaceId, root);
  }

  async unwatchSpace(spaceId: string): Promise<void> {
    this.watched.delete(spaceId);
  }

  watchedSpaces(): string[] {
    return [...this.watched.keys()];
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watched.clear();
  }

  change(spaceId = 's-1'): void {
    this.handlers.onBatch({ spaceId, root: '/mirror', paths: ['page.md'] });
  }
}

function setup(options: { pullIntervalMs?: number } = {}) {
  const timers = new FakeTimers();
  const engine = new FakeEngine(timers);
  let folders: FakeFolderWatcher | undefined;
  const watcher = new SyncWatcher({
    engine,
    timers,
    pullIntervalMs: options.pullIntervalMs ?? 30_000,
    tickMs: 1_000,
    wakeAfterMs: 10_000,
    offlineBaseDelayMs: 2_000,
    offlineMaxDelayMs: 16_000,
    createWatcher: (handlers) => (folders = new FakeFolderWatcher(handlers)),
  });
  const statuses: SyncStatusSnapshot[] = [];
  watcher.on('status', (status) => statuses.push(status));
  const reasons: string[] = [];
  const runs: WatchRun[] = [];
  watcher.on('run', (run) => {
    reasons.push(`${run.kind}:${run.reason}`);
    runs.push(run);
  });
  return { timers, engine, watcher, folders: () => folders!, statuses, reasons, runs };
}

describe('SyncWatcher', () => {
  it('syncs fully at start (the start-up scan), then watches the synced folders', async () => {
    const { engine, watcher, folders, reasons } = setup();
    await watcher.start();
    expect(engine.kinds()).toEqual(['sync']);
    expect(reasons).toEqual(['sync:start']);
    expect(folders().watched).toEqual(new Map([['s-1', '/mirror/acme/one']]));
    await watcher.stop();
  });

  it('pushes (without a pull) after a settled burst, and watches spaces pulled for the first time', async () => {
    const { engine, watcher, folders, reasons } = setup();
    engine.folders = [];
    await watcher.start();
    expect(folders().watchedSpaces()).toEqual([]);
    engine.folders = [{ spaceId: 's-1', root: '/mirror/acme/one' }];
    watcher.syncNow();
    await watcher.idle();
    // A space watched for the first time gets a rescan: edits made before its watch started.
    expect(reasons).toEqual(['sync:start', 'sync:request', 'push:change']);
    folders().change();
    await watcher.idle();
    expect(engine.kinds()).toEqual(['sync', 'sync', 'push', 'push']);
    await watcher.stop();
  });

  it('never runs two at once: changes during a run make exactly one more run after it', async () => {
    const { engine, watcher, folders, timers } = setup();
    await watcher.start();
    engine.auto = false;
    folders().change();
    await settle();
    expect(engine.kinds()).toEqual(['sync', 'push']);
    for (let i = 0; i < 5; i++) folders().change();
    await timers.advance(500);
    expect(engine.active).toBe(1);
    engine.calls[1]!.finish();
    await settle();
    expect(engine.kinds()).toEqual(['sync', 'push', 'push']);
    engine.calls[2]!.finish();
    await settle();
    expect(engine.kinds()).toEqual(['sync', 'push', 'push']);
    expect(engine.maxActive).toBe(1);
    await watcher.stop();
  });

  it('a due full sync absorbs a waiting push', async () => {
    const { engine, watcher, folders, timers } = setup({ pullIntervalMs: 5_000 });
    await watcher.start();
    engine.auto = false;
    folders().change();
    await settle();
    folders().change();
    await timers.advance(6_000);
    engine.calls[1]!.finish();
    await settle();
    expect(engine.kinds()).toEqual(['sync', 'push', 'sync']);
    engine.calls[2]!.finish();
    await watcher.stop();
  });

  it('pulls on the interval', async () => {
    const { engine, watcher, timers, reasons } = setup({ pullIntervalMs: 10_000 });
    await watcher.start();
    await timers.advance(9_000);
    expect(engine.kinds()).toEqual(['sync']);
    await timers.advance(2_000);
    expect(reasons).toEqual(['sync:start', 'sync:interval']);
    await timers.advance(10_000);
    expect(reasons).toEqual(['sync:start', 'sync:interval', 'sync:interval']);
    await watcher.stop();
  });

  it('a sync the user asks for refreshes the change requests; the timed ones keep their interval', async () => {
    const { engine, watcher, timers, reasons } = setup({ pullIntervalMs: 10_000 });
    await watcher.start();
    await timers.advance(11_000);
    watcher.syncNow();
    await watcher.idle();
    expect(reasons).toEqual(['sync:start', 'sync:interval', 'sync:request']);
    expect(engine.calls.map((call) => call.refresh)).toEqual([false, false, true]);
    await watcher.stop();
  });

  it('rescans at once after a wake from sleep (a tick arriving much later than scheduled)', async () => {
    const { engine, watcher, timers, reasons } = setup({ pullIntervalMs: 3_600_000 });
    await watcher.start();
    await timers.advance(5_000);
    expect(engine.kinds()).toEqual(['sync']);
    await timers.sleep(20 * 60_000);
    expect(reasons).toEqual(['sync:start', 'sync:wake']);
    await watcher.stop();
  });

  it('offline: backs off exponentially, keeps waiting, and resumes the interval once back', async () => {
    const { engine, watcher, timers, statuses } = setup({ pullIntervalMs: 60_000 });
    engine.offline = true;
    await watcher.start();
    expect(watcher.status().state).toBe('offline');
    expect(watcher.status().error).toBe('cannot reach the server');
    const start = timers.now();
    await timers.advance(60_000);
    const retries = engine.calls.slice(1).map((call) => call.at - start);
    // Ticks every second: each retry lands on the first tick after its delay (2, 4, 8, 16, 16 s).
    expect(retries).toEqual([2_000, 6_000, 14_000, 30_000, 46_000]);
    engine.offline = false;
    await timers.advance(16_000);
    expect(watcher.status().state).toBe('idle');
    // Back online: the next pull comes a full interval after the sync that got through.
    const online = engine.calls.at(-1)!.at;
    const calls = engine.calls.length;
    await timers.advance(online + 59_000 - timers.now());
    expect(engine.calls.length).toBe(calls);
    await timers.advance(2_000);
    expect(engine.calls.length).toBe(calls + 1);
    expect(statuses.map((status) => status.state)).toContain('offline');
    await watcher.stop();
  });

  it('a push that gets through while offline brings a full sync at the next tick', async () => {
    const { engine, watcher, folders, timers, reasons } = setup({ pullIntervalMs: 60_000 });
    engine.offline = true;
    await watcher.start();
    engine.offline = false;
    folders().change();
    await settle();
    await timers.advance(1_000);
    expect(reasons).toEqual(['sync:start', 'push:change', 'sync:interval']);
    await watcher.stop();
  });

  it('emits syncing then idle around a run', async () => {
    const { engine, watcher, folders, statuses } = setup();
    await watcher.start();
    statuses.length = 0;
    engine.auto = false;
    folders().change();
    await settle();
    expect(statuses.map((status) => status.state)).toEqual(['syncing']);
    engine.calls[1]!.finish();
    await settle();
    expect(statuses.map((status) => status.state)).toEqual(['syncing', 'idle']);
    expect(watcher.status().lastSync).not.toBeNull();
    await watcher.stop();
  });

  it('stop() lets the current run finish, then runs nothing more and closes the watcher', async () => {
    const { engine, watcher, folders, timers } = setup({ pullIntervalMs: 5_000 });
    await watcher.start();
    engine.auto = false;
    folders().change();
    await settle();
    const watching = folders();
    let stopped = false;
    const stopping = watcher.stop().then(() => (stopped = true));
    folders().change();
    await settle();
    expect(stopped).toBe(false);
    engine.calls[1]!.finish();
    await stopping;
    expect(watching.closed).toBe(true);
    await timers.advance(60_000);
    expect(engine.kinds()).toEqual(['sync', 'push']);
    expect(timers.count()).toBe(0);
  });

  it('stop() aborts the run signal: the engine stops after the request in flight, not an error', async () => {
    const { engine, watcher, folders, runs } = setup();
    await watcher.start();
    engine.auto = false;
    folders().change();
    await settle();
    const run = engine.calls[1]!;
    expect(run.signal?.aborted).toBe(false);
    const stopping = watcher.stop();
    // The engine sees the stop at once (between its requests), not when the run is over.
    expect(run.signal?.aborted).toBe(true);
    run.finish({ stopped: true });
    await stopping;
    expect(runs.at(-1)?.report.stopped).toBe(true);
    expect(watcher.status()).toMatchObject({ state: 'idle', error: null });
    expect(engine.kinds()).toEqual(['sync', 'push']);
  });

  it('a rejected token: error saying so, no run scheduled (changes, interval, wake) until syncNow()', async () => {
    const { engine, watcher, folders, timers, statuses } = setup({ pullIntervalMs: 5_000 });
    engine.tokenRejected = true;
    await watcher.start();
    expect(watcher.status()).toMatchObject({ state: 'error', tokenRejected: true });
    expect(watcher.status().error).toMatch(/rejected the token.*sign in again/);
    expect(statuses.at(-1)?.tokenRejected).toBe(true);

    folders().change();
    await timers.advance(10 * 60_000);
    await timers.sleep(20 * 60_000);
    await watcher.idle();
    expect(engine.kinds()).toEqual(['sync']);

    // Signed in again: the owner asks for a sync, and the schedule resumes.
    engine.tokenRejected = false;
    watcher.syncNow();
    await watcher.idle();
    expect(watcher.status()).toMatchObject({ state: 'idle', error: null, tokenRejected: false });
    await timers.advance(6_000);
    expect(engine.kinds()).toEqual(['sync', 'sync', 'sync']);
    await watcher.stop();
  });

  it('a push that finds the token rejected stops the schedule too', async () => {
    const { engine, watcher, folders, timers } = setup({ pullIntervalMs: 5_000 });
    await watcher.start();
    engine.tokenRejected = true;
    folders().change();
    await watcher.idle();
    expect(watcher.status()).toMatchObject({ state: 'error', tokenRejected: true });
    await timers.advance(60_000);
    expect(engine.kinds()).toEqual(['sync', 'push']);
    await watcher.stop();
  });

  it('a save held back because main moved brings a full sync at once, not at the interval', async () => {
    const { engine, watcher, folders, reasons } = setup({ pullIntervalMs: 60_000 });
    await watcher.start();
    engine.mainMoved = true;
    folders().change();
    await watcher.idle();
    expect(reasons).toEqual(['sync:start', 'push:change', 'sync:change']);
    await watcher.stop();
  });

  it('a run that throws does not end the loop', async () => {
    const { engine, watcher, folders } = setup();
    await watcher.start();
    engine.pushOnce = () => Promise.reject(new Error('disk on fire'));
    folders().change();
    await watcher.idle();
    expect(watcher.status()).toMatchObject({ state: 'error', error: 'disk on fire' });
    engine.pushOnce = FakeEngine.prototype.pushOnce.bind(engine);
    folders().change();
    await watcher.idle();
    expect(watcher.status().state).toBe('idle');
    await watcher.stop();
  });
});
