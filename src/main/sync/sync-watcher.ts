/**
 * The sync loop behind `quire sync --watch`, the desktop app and the benchmark (no Electron).
 *
 * - Start: a full sync (push then pull); its push scans every space folder against the file
 *   index, so edits made while Quire was not running are found.
 * - The synced space folders are watched (FolderWatcher: chokidar, write-finish detection, a short
 *   debounce); a settled burst runs a push only: no listing, no pull, no request at all when the
 *   scan finds nothing (the engine's own writes come back as events and cost nothing).
 * - A heartbeat tick pulls every `pullIntervalMs`. A tick arriving much later than scheduled means
 *   the machine slept: a full sync (rescan and pull) runs at once and any offline backoff restarts.
 * - One run at a time: a change or a due pull during a run schedules one more run after it (a full
 *   sync absorbs a pending push).
 * - The server unreachable: the state goes `offline`, edits stay in the durable outbox, full syncs
 *   are retried with exponential backoff; the loop never gives up.
 * - A rejected token (401): the state goes `error` (status `tokenRejected`) and no run is scheduled
 *   (no change, interval, wake or retry would get through) until syncNow(), which the owner calls
 *   once the user has signed in again.
 * - stop(): no new run starts; the current one stops after the request in flight (the engine
 *   checks the watcher's signal between requests), which is answered and recorded; the folder
 *   watcher closes. Closing the engine and database is the owner's job.
 */
import { EventEmitter } from 'node:events';
import type { WatchRunReason, WatchRunSummary } from '../../shared/contract/activity';
import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';
import { messageOf } from '../../shared/message-of';
import { FolderWatcher, type WatchBatch, type WatcherTimers } from '../local/folder-watcher';
import type { IgnoreRule } from '../local/ignore-rules';
import type { SyncLog, SyncReport, SyncRunOptions } from './sync-engine';
import { syncErrorOf } from './sync-error-of';
import { buildSyncStatus, type SyncRuntimeState, type SyncStatusSource } from './sync-status-model';

/** What the watcher needs of the engine (SyncEngine fits). */
export interface WatchedEngine extends SyncStatusSource {
  syncOnce(options?: SyncRunOptions): Promise<SyncReport>;
  pushOnce(options?: SyncRunOptions): Promise<SyncReport>;
  syncedFolders(): { spaceId: string; root: string }[];
}

/** The folder watcher's surface (FolderWatcher fits; tests hand in a fake). */
export interface SpaceFolderWatcher {
  watchSpace(spaceId: string, root: string): Promise<void>;
  unwatchSpace(spaceId: string): Promise<void>;
  watchedSpaces(): string[];
  close(): Promise<void>;
}

export type WatchRunKind = WatchRunSummary['kind'];
export type { WatchRunReason };

export interface WatchRun {
  kind: WatchRunKind;
  reason: WatchRunReason;
  report: SyncReport;
}

export interface SyncWatcherEvents {
  status: [SyncStatusSnapshot];
  run: [WatchRun];
}

export interface SyncWatcherOptions {
  engine: WatchedEngine;
  /** Injectable for tests (fake clock); also drives the folder watcher's debounce. */
  timers?: WatcherTimers;
  /** Quiet time after the last file event before pushing. Default 100 ms. */
  debounceMs?: number;
  /** How long a file's size must stay put before its write counts as finished. Default 200 ms. */
  stabilityThresholdMs?: number;
  /** Full sync (pull) interval. Default 30 s. */
  pullIntervalMs?: number;
  /** Heartbeat period: checks for a due pull and for a wake. Default 5 s. */
  tickMs?: number;
  /** A tick this much later than scheduled means the machine slept. Default 30 s. */
  wakeAfterMs?: number;
  /** First retry while offline (default 2 s), doubled per failure up to offlineMaxDelayMs. */
  offlineBaseDelayMs?: number;
  /** Default 5 min. */
  offlineMaxDelayMs?: number;
  /** Polling for network file systems. */
  usePolling?: boolean;
  /** The folder watcher's ignore rules (default: the built-in ones); match the engine's. */
  ignore?: IgnoreRule;
  /** Default: a FolderWatcher over chokidar. */
  createWatcher?: (handlers: {
    onBatch: (batch: WatchBatch) => void;
    onError: (spaceId: string, error: Error) => void;
  }) => SpaceFolderWatcher;
  log?: SyncLog;
}

export const DEFAULT_WATCH_DEBOUNCE_MS = 100;
export const DEFAULT_PULL_INTERVAL_MS = 30_000;
export const DEFAULT_TICK_MS = 5_000;
export const DEFAULT_WAKE_AFTER_MS = 30_000;
export const DEFAULT_OFFLINE_BASE_DELAY_MS = 2_000;
export const DEFAULT_OFFLINE_MAX_DELAY_MS = 5 * 60_000;
export const TOKEN_REJECTED_MESSAGE =
  'The server rejected the token (revoked or expired); sign in again to resume syncing';

const realTimers: WatcherTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

export class SyncWatcher {
  private readonly engine: WatchedEngine;
  private readonly timers: WatcherTimers;
  private readonly settings: {
    pullIntervalMs: number;
    tickMs: number;
    wakeAfterMs: number;
    offlineBaseDelayMs: number;
    offlineMaxDelayMs: number;
  };
  private readonly log: SyncLog;
  private readonly emitter = new EventEmitter<SyncWatcherEvents>();
  private readonly watcher: SpaceFolderWatcher;
  private runtime: SyncRuntimeState = {
    syncing: false,
    offline: false,
    error: null,
    lastRun: null,
  };
  /** The run loop while it runs. */
  private loop: Promise<void> | undefined;
  private pending: { kind: WatchRunKind; reason: WatchRunReason } | undefined;
  private tickHandle: unknown;
  /** When the heartbeat should fire (wall clock), to notice a late one. */
  private tickDueAt = 0;
  /** When the next full sync is due (wall clock); +Infinity before start. */
  private nextSyncAt = Number.POSITIVE_INFINITY;
  /** Consecutive runs that found the server unreachable. */
  private offlineRuns = 0;
  private started = false;
  private stopping = false;
  /** Aborted by stop(): the engine stops its run after the request in flight. */
  private readonly stopSignal = new AbortController();
  /** The last run found the token rejected: nothing but syncNow() starts a run. */
  private tokenRejected = false;
  private lastStatusJson = '';

  constructor(options: SyncWatcherOptions) {
    this.engine = options.engine;
    this.timers = options.timers ?? realTimers;
    this.settings = {
      pullIntervalMs: options.pullIntervalMs ?? DEFAULT_PULL_INTERVAL_MS,
      tickMs: options.tickMs ?? DEFAULT_TICK_MS,
      wakeAfterMs: options.wakeAfterMs ?? DEFAULT_WAKE_AFTER_MS,
      offlineBaseDelayMs: options.offlineBaseDelayMs ?? DEFAULT_OFFLINE_BASE_DELAY_MS,
      offlineMaxDelayMs: options.offlineMaxDelayMs ?? DEFAULT_OFFLINE_MAX_DELAY_MS,
    };
    this.log = options.log ?? (() => {});
    const handlers = {
      onBatch: (batch: WatchBatch) => this.request('push', 'change', batch.spaceId),
      onError: (spaceId: string, error: Error) => {
        this.log('warn', 'watching a space folder failed', {
          space: spaceId,
          error: error.message,
        });
        // The folder may have vanished (an unmounted disk): a full sync reports it.
        this.request('sync', 'change', spaceId);
      },
    };
    this.watcher =
      options.createWatcher?.(handlers) ??
      new FolderWatcher({
        ...handlers,
        debounceMs: options.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS,
        ...(options.stabilityThresholdMs !== undefined
          ? { stabilityThresholdMs: options.stabilityThresholdMs }
          : {}),
        ...(options.usePolling ? { usePolling: true } : {}),
        ...(options.ignore ? { ignore: options.ignore } : {}),
        timers: this.timers,
      });
  }

  /** Typed listeners: `status` on every change of the status, `run` after every run. */
  on<E extends keyof SyncWatcherEvents>(
    event: E,
    listener: (...args: SyncWatcherEvents[E]) => void,
  ): () => void {
    this.emitter.on(event, listener as never);
    return () => this.emitter.off(event, listener as never);
  }

  /**
   * Starts watching and runs the start-up sync; resolves once it is done and the synced folders
   * are watched. Call once.
   */
  async start(): Promise<void> {
    if (this.started) throw new Error('The sync watcher was already started');
    this.started = true;
    // Folders known from earlier runs are watched first, so an edit during the start-up sync
    // is not missed; spaces pulled for the first time are added after each run.
    await this.updateWatchedFolders();
    this.scheduleTick();
    this.request('sync', 'start');
    await this.idle();
  }

  /**
   * A full sync as soon as possible (after the current run). Also how to resume after a rejected
   * token, once the user has signed in again.
   */
  syncNow(): void {
    this.request('sync', 'request');
  }

  /** Resolves when no run is going on and none is waiting. */
  async idle(): Promise<void> {
    while (this.loop !== undefined) await this.loop;
  }

  status(): SyncStatusSnapshot {
    return buildSyncStatus(this.engine, this.runtime);
  }

  /**
   * Stops: no new run, the current one stops after the request in flight (its report says
   * `stopped`), the folder watcher closes. Idempotent.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.pending = undefined;
    this.stopSignal.abort();
    if (this.tickHandle !== undefined) this.timers.clearTimeout(this.tickHandle);
    this.tickHandle = undefined;
    await this.watcher.close();
    await this.idle();
  }

  private request(kind: WatchRunKind, reason: WatchRunReason, spaceId?: string): void {
    if (this.stopping || !this.started) return;
    // Every request would be refused the same way: only an explicit syncNow() tries again.
    if (this.tokenRejected && reason !== 'request') return;
    if (this.pending === undefined || (kind === 'sync' && this.pending.kind === 'push')) {
      this.pending = { kind, reason };
    }
    if (spaceId !== undefined)
      this.log('debug', 'sync requested', { kind, reason, space: spaceId });
    this.loop ??= this.runLoop().finally(() => {
      this.loop = undefined;
    });
  }

  private async runLoop(): Promise<void> {
    // Let the caller's stack finish first: requests made in the same tick join this run.
    await Promise.resolve();
    while (this.pending !== undefined && !this.stopping) {
      const next = this.pending;
      this.pending = undefined;
      await this.runOne(next.kind, next.reason);
    }
  }

  private async runOne(kind: WatchRunKind, reason: WatchRunReason): Promise<void> {
    this.runtime = { ...this.runtime, syncing: true };
    this.emitStatus();
    let report: SyncReport;
    try {
      // What the user asked for refreshes the change requests too, whatever their interval.
      const options = {
        signal: this.stopSignal.signal,
        ...(kind === 'sync' && reason === 'request' ? { refreshChangeRequests: true } : {}),
      };
      report =
        kind === 'sync' ? await this.engine.syncOnce(options) : await this.engine.pushOnce(options);
    } catch (error) {
      // The engine reports failures in its report; a throw is unexpected, but must not end the loop.
      const now = new Date(this.timers.now()).toISOString();
      report = {
        startedAt: now,
        finishedAt: now,
        spaces: [],
        errors: [syncErrorOf(error)],
        filesWritten: 0,
        filesRemoved: 0,
      };
    }
    const now = this.timers.now();
    const failed = report.errors.length > 0;
    this.tokenRejected = report.tokenRejected === true;
    if (this.tokenRejected) {
      this.nextSyncAt = Number.POSITIVE_INFINITY;
      this.offlineRuns = 0;
      // Runs asked for by changes or timers would fail the same way; an explicit syncNow() stays.
      if (this.pending?.reason !== 'request') this.pending = undefined;
      this.log('error', 'the server rejected the token; syncing stops until signed in again', {
        kind,
      });
    } else if (report.offline) {
      this.offlineRuns++;
      const delay = Math.min(
        this.settings.offlineMaxDelayMs,
        this.settings.offlineBaseDelayMs * 2 ** (this.offlineRuns - 1),
      );
      this.nextSyncAt = now + delay;
      this.log('warn', 'server unreachable, retrying later', { kind, retryInMs: delay });
    } else {
      if (this.offlineRuns > 0 && kind === 'push') {
        // Back online (a push got through): pull what was missed without waiting for the interval.
        this.nextSyncAt = now;
      } else if (kind === 'sync') {
        this.nextSyncAt = now + (failed ? this.failureDelay() : this.settings.pullIntervalMs);
      }
      this.offlineRuns = 0;
    }
    const offlineMessage = report.offline
      ? (report.errors[0]?.message ??
        report.spaces.find((space) => space.error !== undefined)?.error?.message ??
        'The server could not be reached; local edits stay queued')
      : null;
    this.runtime = {
      syncing: false,
      offline: !this.tokenRejected && report.offline === true,
      error: this.tokenRejected
        ? TOKEN_REJECTED_MESSAGE
        : (offlineMessage ??
          (failed ? report.errors.map((error) => error.message).join('; ') : null)),
      lastRun: report.finishedAt || new Date(now).toISOString(),
      ...(this.tokenRejected ? { tokenRejected: true } : {}),
    };
    if (
      kind === 'push' &&
      !this.tokenRejected &&
      !report.offline &&
      report.spaces.some((space) => space.mainMoved === true)
    ) {
      // The save waits for a pull of the new main (merged first, never sent over it): now.
      this.request('sync', 'change');
    }
    this.log('info', 'watch run finished', {
      kind,
      reason,
      spaces: report.spaces.length,
      offline: report.offline === true,
      stopped: report.stopped === true,
      errors: report.errors.length,
    });
    try {
      await this.updateWatchedFolders();
    } catch (error) {
      this.log('warn', 'updating the watched folders failed', {
        error: messageOf(error),
      });
    }
    this.emitter.emit('run', { kind, reason, report });
    this.emitStatus();
  }

  /** A failed full sync that was not about the network (a missing folder...): retry slower. */
  private failureDelay(): number {
    return Math.max(this.settings.pullIntervalMs, this.settings.offlineBaseDelayMs);
  }

  /** Watches every synced space folder, unwatches the others. New ones get a push (a rescan). */
  private async updateWatchedFolders(): Promise<void> {
    if (this.stopping) return;
    const wanted = new Map(this.engine.syncedFolders().map((space) => [space.spaceId, space.root]));
    const watched = new Set(this.watcher.watchedSpaces());
    for (const spaceId of watched) {
      if (!wanted.has(spaceId)) await this.watcher.unwatchSpace(spaceId);
    }
    let added = false;
    for (const [spaceId, root] of wanted) {
      if (watched.has(spaceId) || this.stopping) continue;
      try {
        await this.watcher.watchSpace(spaceId, root);
        added = true;
      } catch (error) {
        this.log('warn', 'cannot watch a space folder', {
          space: spaceId,
          error: messageOf(error),
        });
      }
    }
    // Edits made between the pull that created the folder and the watch starting are found by
    // a scan; it costs no request when there are none. (Not at start: the start-up sync scans.)
    if (added && this.loop !== undefined && this.runtime.lastRun !== null) {
      this.request('push', 'change');
    }
  }

  private scheduleTick(): void {
    if (this.stopping) return;
    this.tickDueAt = this.timers.now() + this.settings.tickMs;
    this.tickHandle = this.timers.setTimeout(() => this.tick(), this.settings.tickMs);
  }

  private tick(): void {
    this.tickHandle = undefined;
    if (this.stopping) return;
    const now = this.timers.now();
    const late = now - this.tickDueAt;
    if (late > this.settings.wakeAfterMs) {
      // Timers stand still while the machine sleeps, the wall clock does not.
      this.log('info', 'woke from sleep, rescanning', { lateMs: late });
      this.offlineRuns = 0;
      this.request('sync', 'wake');
    } else if (now >= this.nextSyncAt) {
      this.request('sync', this.runtime.offline ? 'retry' : 'interval');
    }
    this.scheduleTick();
  }

  private emitStatus(): void {
    let snapshot: SyncStatusSnapshot;
    try {
      snapshot = this.status();
    } catch (error) {
      // The database closed under us (shutting down): nothing to report.
      this.log('debug', 'status unavailable', {
        error: messageOf(error),
      });
      return;
    }
    const json = JSON.stringify(snapshot);
    if (json === this.lastStatusJson) return;
    this.lastStatusJson = json;
    this.emitter.emit('status', snapshot);
  }
}
