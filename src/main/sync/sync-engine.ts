import path from 'node:path';
import type { ChangeRequestCheckout } from '../../shared/contract/review';
import { UnknownChangeRequestError } from '../change-requests/change-request-views';
import { CheckoutRefusedError, checkOut } from '../checkouts/check-out';
import { checkoutFolders, checkoutView, checkoutViews } from '../checkouts/checkout-views';
import { runCheckoutPush, runCheckoutSync } from '../checkouts/sync-checkouts';
import type { CachedSpace } from '../cache/space-cache';
import type { PauseState } from '../cache/sync-pause';
import { ConflictResolver, type ConflictResolutionRequest } from '../conflicts/conflict-resolver';
import type { Conflict } from '../conflicts/conflict-store';
import type { SpaceState } from '../../shared/contract/space-state';
import {
  createEngineContext,
  heldFiles,
  nowOf,
  spaceRootOf,
  type EngineContext,
  type SyncEngineOptions,
} from './engine-context';
import { allowMassDeleteOnce } from './push-space';
import type { RefusedChange } from './refused-changes';
import { runPush } from './run-push';
import { runSync } from './run-sync';
import { refreshSpaces, type RefreshResult } from './space-listing';
import {
  spaceConflicts,
  spaceStatuses,
  type SpaceConflict,
  type SpaceStatus,
} from './space-status';
import { isWithin } from './sync-fs-helpers';
import { messageOf } from '../../shared/message-of';
import type { SyncReport } from './sync-report';
import { SyncRun, type SyncRunOptions } from './sync-run';
import { findUnsyncedEdits, type UnsyncedEdit } from './unsynced-edits';

export type { SyncEngineOptions, SyncLog, SyncLogLevel, SyncPushOptions } from './engine-context';
export { AUTO_ENABLE_SPACE_LIMIT, type RefreshResult } from './space-listing';
export type { SpaceConflict, SpaceStatus } from './space-status';
export type { ReportedProblem, SpaceSyncReport, SyncReport } from './sync-report';
export type { SyncRunOptions } from './sync-run';
export type { SpaceState };

/**
 * The sync engine's façade: lists organizations and spaces, pushes local edits, fetches the
 * revisions that moved and mirrors them into `<folder>/<organization>/<space>/` in Git Sync's
 * layout (run-sync.ts, run-push.ts, pull/), and answers status and conflict queries.
 *
 * Runs never overlap: syncOnce, pushOnce and resolveConflict go one at a time, in call order;
 * concurrent syncOnce calls share one run. Each run's state (its signal, its report) is a SyncRun
 * of its own.
 */
export class SyncEngine {
  private readonly ctx: EngineContext;
  private readonly resolver: ConflictResolver;
  /** Settles when the last queued run (or resolution) is over. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The sync queued or running, which concurrent syncOnce calls share. */
  private sharedSync: Promise<SyncReport> | undefined;

  constructor(options: SyncEngineOptions) {
    if (!path.isAbsolute(options.folder)) {
      throw new TypeError(`The sync folder must be an absolute path, got ${options.folder}`);
    }
    const folder = path.resolve(options.folder);
    const cacheFile = options.cache.name;
    // The cache must never be mirrored, watched or pushed: it lives in the home directory.
    if (cacheFile && path.isAbsolute(cacheFile) && isWithin(folder, path.resolve(cacheFile))) {
      throw new Error(`The cache ${cacheFile} must not be inside the sync folder ${folder}`);
    }
    const ctx = createEngineContext(options, folder);
    this.ctx = ctx;
    this.resolver = new ConflictResolver({
      db: ctx.db,
      index: ctx.index,
      edits: ctx.edits,
      store: ctx.conflictStore,
      texts: ctx.texts,
      outbox: ctx.outbox,
      spaceRoot: (spaceId) => {
        const space = ctx.spaces.getSpace(spaceId);
        if (space === undefined || space.removedAt !== null || space.syncedRevision === null) {
          return undefined;
        }
        return spaceRootOf(ctx, space);
      },
      downloadAsset: async (spaceId, fileId) => {
        const file = ctx.content.files(spaceId).find((cached) => cached.id === fileId);
        if (file === undefined) throw new Error(`The file ${fileId} is no longer on the server`);
        return ctx.remote.downloadFile(file);
      },
      now: () => nowOf(ctx),
    });
  }

  /** Stops pushing (kept in the cache, so it holds across runs) until `until` or resume(). */
  pause(until?: Date): void {
    this.ctx.pauses.pause(until);
  }

  resume(): void {
    this.ctx.pauses.resume();
  }

  pauseState(): PauseState {
    return this.ctx.pauses.state();
  }

  /** The next push of the space may delete more than half of its pages (once). */
  confirmDeletes(spaceId: string): void {
    if (this.ctx.spaces.getSpace(spaceId) === undefined)
      throw new Error(`Unknown space ${spaceId}`);
    allowMassDeleteOnce(this.ctx.state, spaceId);
  }

  /** Changes the server refused, of every space, oldest first (see RefusedChanges). */
  refusedChanges(): RefusedChange[] {
    return this.ctx.refused.list(this.ctx.outbox.spaces());
  }

  /**
   * Re-queues a refused change (or, without an id, every one): the next push sends it, alone.
   * Throws UnknownRefusedChangeError for an id that names none. Returns how many.
   */
  retryRefused(id?: number): number {
    const count = this.ctx.refused.retry(this.ctx.outbox.spaces(), id);
    this.refreshRefusalProblems();
    return count;
  }

  /**
   * Drops a refused change from the outbox, keeping its file as a local-only edit (pushed again
   * only once edited). Throws UnknownRefusedChangeError for an id that names none.
   */
  dropRefused(id: number): RefusedChange {
    const dropped = this.ctx.refused.drop(this.ctx.outbox.spaces(), id);
    this.refreshRefusalProblems();
    return dropped;
  }

  /**
   * Refusal problems are read from the outbox (space-status.ts); rows an older version recorded
   * are removed so they cannot outlive a retry or drop.
   */
  private refreshRefusalProblems(): void {
    const { db, problems } = this.ctx;
    db.transaction(() => {
      for (const existing of problems.list()) {
        if (existing.kind === 'push-failed') problems.remove(existing.id);
      }
    })();
  }

  /**
   * Lists organizations and their spaces (one request each) and records them. The first listing
   * ever enables every space when there are fewer than 20; spaces seen later start disabled.
   */
  refreshSpaces(): Promise<RefreshResult> {
    return refreshSpaces(this.ctx);
  }

  /** Open conflicts (and edit-against-delete notes) of every space, oldest first. */
  conflicts(): SpaceConflict[] {
    return spaceConflicts(this.ctx);
  }

  /**
   * Resolves an open conflict (see ConflictResolutionRequest): writes the file at once, records
   * the outcome, and queues what must be pushed (sent by the next sync). Throws
   * ConflictResolutionError, having changed nothing, for an unknown or resolved id.
   */
  resolveConflict(id: number, request: ConflictResolutionRequest): Promise<Conflict> {
    // Never while a sync writes the same folder and cache.
    return this.exclusive(async () => {
      const resolved = await this.resolver.resolve(id, request);
      const space = this.ctx.spaces.getSpace(resolved.spaceId);
      if (space !== undefined) await this.queueResolved(space);
      return resolved;
    });
  }

  private async queueResolved(space: CachedSpace): Promise<void> {
    if (this.ctx.pusher === undefined) return;
    try {
      await this.ctx.pusher.push(space, spaceRootOf(this.ctx, space), {
        drain: false,
        held: heldFiles(this.ctx, space.id),
      });
    } catch (error) {
      // Queued by the next sync's scan instead: the resolution itself is recorded.
      this.ctx.log('warn', 'queueing a resolved conflict failed', { error: messageOf(error) });
    }
  }

  /** Selective sync. A disabled space keeps its folder as it is; it is simply no longer synced. */
  setSpaceEnabled(spaceId: string, enabled: boolean): void {
    if (!this.ctx.spaces.setEnabled(spaceId, enabled)) throw new Error(`Unknown space ${spaceId}`);
  }

  /**
   * One sync: refreshes the space list, pushes, then mirrors every enabled space whose revision
   * moved and cleans up spaces removed remotely. It starts once the runs before it are over;
   * concurrent calls share one run (and the first's signal).
   */
  syncOnce(options: SyncRunOptions = {}): Promise<SyncReport> {
    this.sharedSync ??= this.startRun(options, async (run) => {
      await runSync(this.ctx, run);
      await runCheckoutSync(this.ctx, run);
    }).finally(() => {
      this.sharedSync = undefined;
    });
    return this.sharedSync;
  }

  /**
   * Only the push side, without listing or pulling: what a watcher runs when files change, so a
   * save costs no request besides the push itself (and none when nothing changed). A sync in
   * progress is waited for: this push then sees what it left.
   */
  pushOnce(options: SyncRunOptions = {}): Promise<SyncReport> {
    return this.startRun(options, async (run) => {
      await runPush(this.ctx, run);
      await runCheckoutPush(this.ctx, run);
    });
  }

  /** Queues a run after the ones before it, with a SyncRun of its own. */
  private startRun(
    options: SyncRunOptions,
    body: (run: SyncRun) => Promise<void>,
  ): Promise<SyncReport> {
    return this.exclusive(async () => {
      const run = new SyncRun(options.signal, nowOf(this.ctx), options.refreshChangeRequests);
      await body(run);
      if (run.stopRequested) run.report.stopped = true;
      return run.report;
    });
  }

  /** Runs `task` once every task queued before it is over (whether it failed or not). */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Local changes still to go out (waiting or being sent), of one space or of every space. Those
   * the server refused, and those held back by one, are not counted: they go out only once the
   * user acts, and are listed as problems (refusedChanges) instead.
   */
  pendingChanges(spaceId?: string): number {
    const spaces = spaceId === undefined ? this.ctx.outbox.spaces() : [spaceId];
    return spaces.reduce((sum, id) => sum + this.ctx.outbox.unsent(id), 0);
  }

  /** Edits in the space folders that no push has recorded yet (a read-only quick scan). */
  unsyncedEdits(): Promise<UnsyncedEdit[]> {
    const { index, edits, ignore, problems, refused } = this.ctx;
    const reportedPaths = (spaceId: string) =>
      [...problems.list(spaceId), ...refused.problems(spaceId)].flatMap((p) => p.path ?? []);
    return findUnsyncedEdits(
      { index, edits, ignore, reportedPaths },
      this.syncedFolders().map(({ spaceId, root }) => ({
        spaceId,
        root,
        held: heldFiles(this.ctx, spaceId),
      })),
    );
  }

  /**
   * The folders that sync, absolute: the spaces' (enabled and pulled at least once), then the
   * checked-out change requests' (keyed by their checkout key).
   */
  syncedFolders(): { spaceId: string; root: string }[] {
    return [
      ...this.ctx.spaces
        .listSpaces()
        .filter(
          (space) => space.removedAt === null && space.enabled && space.syncedRevision !== null,
        )
        .map((space) => ({ spaceId: space.id, root: spaceRootOf(this.ctx, space) })),
      ...checkoutFolders(this.ctx),
    ];
  }

  /**
   * Checks change request `number` of the space out into
   * `<organization>/<space> (change requests)/<number> <subject>/` (asks the server for it, then
   * pulls its revision there); its edits then go to it. Throws UnknownChangeRequestError,
   * CheckoutRefusedError when it is merged or archived, RemoteUnavailableError offline. Runs after the queued runs.
   */
  checkout(spaceId: string, number: number): Promise<ChangeRequestCheckout> {
    return this.exclusive(async () => {
      const space = this.ctx.spaces.getSpace(spaceId);
      const remote = this.ctx.changeRequests?.remote;
      if (space === undefined || space.removedAt !== null) {
        throw new CheckoutRefusedError(`no synced space ${spaceId}`);
      }
      if (remote === undefined) throw new CheckoutRefusedError('checkouts need the server');
      const changeRequest = await remote.getChangeRequest(spaceId, String(number));
      if (changeRequest === undefined) throw new UnknownChangeRequestError(space.title, number);
      const run = new SyncRun(undefined, nowOf(this.ctx));
      const { checkout } = await checkOut(this.ctx, run, space, changeRequest);
      return checkoutView(this.ctx, checkout);
    });
  }

  /** Every checked-out change request, with its folder and pending edits. From the cache. */
  checkouts(): ChangeRequestCheckout[] {
    return checkoutViews(this.ctx);
  }

  status(): SpaceStatus[] {
    return spaceStatuses(this.ctx);
  }
}
