import { readFile, stat } from 'node:fs/promises';
import { createIgnoreRules } from '../local/ignore-rules';
import { hostname } from 'node:os';
import path from 'node:path';
import type { ActivityEntry } from '../../shared/contract/activity';
import type {
  ChangeRequestDetail,
  ChangeRequestDiff,
  ChangeRequestRef,
  ChangeRequestSummary,
} from '../../shared/contract/change-requests';
import { CommandFailedError } from '../../shared/contract/command-error';
import type {
  ConflictListing,
  ConflictResolutionChoice,
  ConflictVersions,
} from '../../shared/contract/conflicts';
import type {
  RefusedChangeListing,
  UnsyncedEditListing,
} from '../../shared/contract/local-changes';
import type {
  SpaceList,
  SpaceStatus,
  SpaceSyncResult,
  SyncOnceResult,
  WorkingChangeRequestListing,
} from '../../shared/contract/spaces';
import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';
import { ActivityLog, type NewActivity } from '../cache/activity-log';
import { ChangeRequestViews } from '../change-requests/change-request-views';
import { WorkspaceChangeRequestRemote } from '../change-requests/workspace-change-request-remote';
import { LocalComments } from '../comments/local-comments';
import { WorkspaceCommentRemote } from '../comments/workspace-comment-remote';
import type { CacheDb } from '../cache/open-cache-database';
import { SyncedTexts } from '../cache/synced-texts';
import { ConflictResolutionError } from '../conflicts/conflict-resolver';
import { DrainLock, drainLockPath } from '../outbox/drain-lock';
import { WorkingChangeRequests } from '../outbox/working-change-requests';
import { WorkspaceOutboxRemote } from '../outbox/workspace-outbox-remote';
import { RemoteAuthError } from '../remote/errors';
import { WorkspaceClient } from '../remote/workspace-client';
import {
  UnknownRefusedChangeError as EngineUnknownRefusedChange,
  type RefusedChange,
} from '../sync/refused-changes';
import { SyncEngine, type SpaceConflict, type SyncLog, type SyncReport } from '../sync/sync-engine';
import { buildSyncStatus } from '../sync/sync-status-model';
import { SyncWatcher, TOKEN_REJECTED_MESSAGE } from '../sync/sync-watcher';
import type { ChangeRequestCheckout } from '../../shared/contract/review';
import { activityOfReport } from './activity-of-report';
import {
  UnknownConflictError,
  UnknownRefusedChangeError,
  UnknownSpaceError,
  type EngineSession,
  type OpenSessionOptions,
  type WatchOptions,
} from './app-services';
import type { ReviewActions } from '../review/review-actions';
import { workspaceReviewActions } from '../review/workspace-review-actions';
import { spaceSyncResult, watchRunSummary } from './sync-results';
import { WatchRuntimeRecord } from './watch-runtime';
import { isCheckoutKey } from '../checkouts/checkout-store';

/** The sync engine and its watcher over one cache, in the contract's terms. */
export class SyncEngineSession implements EngineSession {
  private readonly engine: SyncEngine;
  private readonly folder: string;
  private readonly activityLog: ActivityLog;
  private actions: ReviewActions | undefined;

  constructor(
    private readonly cache: CacheDb,
    private readonly options: OpenSessionOptions,
    private readonly log: SyncLog,
    private readonly homeRoot: string,
  ) {
    this.folder = options.config.folder;
    this.activityLog = new ActivityLog(cache);
    this.engine = new SyncEngine({
      cache,
      remote: options.remote,
      folder: options.config.folder,
      clock: { now: () => new Date() },
      log,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      // Pushing needs the outbox's calls, which only the real client has (a logged-out remote
      // cannot push: its sync refuses before anything is sent).
      ...(options.remote instanceof WorkspaceClient
        ? {
            push: {
              remote: new WorkspaceOutboxRemote(options.remote),
              deviceName: hostname(),
              ...(options.config.changeRequestSubject !== undefined
                ? { subject: options.config.changeRequestSubject }
                : {}),
              ...(options.config.ignorePatterns !== undefined
                ? { ignorePatterns: options.config.ignorePatterns }
                : {}),
              // Watching, the watcher backs off; a run must not sit in the drainer's waits.
              ...(options.watching ? { maxOfflineWaits: 0 } : {}),
            },
            changeRequests: {
              remote: new WorkspaceChangeRequestRemote(options.remote),
              sendQueued: () => this.sendQueuedReviewChanges(),
              // A one-off sync is the user asking for news: it reads the mirror fresh (only a
              // watcher, syncing on its own every few seconds, keeps to the interval).
              ...(options.watching ? {} : { intervalMs: 0 }),
            },
            comments: {
              remote: new WorkspaceCommentRemote(options.remote),
              userId: options.config.user.id,
            },
          }
        : {}),
    });
  }

  async refreshSpaces(): Promise<SpaceList> {
    const result = await this.engine.refreshSpaces();
    const organizations = new Map(result.organizations.map((org) => [org.id, org.title]));
    const spaces = result.spaces
      .filter((space) => space.removedAt === null)
      .map((space) => ({
        id: space.id,
        title: space.title,
        organizationId: space.organizationId,
        organization: organizations.get(space.organizationId) ?? space.organizationId,
        ...(space.emoji ? { emoji: space.emoji } : {}),
        enabled: space.enabled,
        folder: space.folderPath,
      }));
    return {
      organizations: result.organizations.map((org) => ({ id: org.id, title: org.title })),
      spaces,
      errors: result.errors.map((error) => error.message),
    };
  }

  async setSpaceEnabled(spaceId: string, enabled: boolean): Promise<void> {
    this.assertKnownSpace(spaceId);
    this.engine.setSpaceEnabled(spaceId, enabled);
  }

  async syncOnce(): Promise<SyncOnceResult> {
    // Checked here too so that a missing folder is a failure, not a "problem" of a finished sync.
    await this.assertFolder();
    const report = await this.engine.syncOnce();
    this.recordActivity(report);
    const errors = report.errors.map((error) => error.message);
    // A refused comment change is kept in its thread, with the reason; the run says it once.
    errors.push(...(report.comments?.refused ?? []));
    if (report.spaces.length === 0 && report.errors.length > 0) {
      // Nothing could be pulled at all: a failed command, with the typed error.
      const message = `sync failed: ${errors.join('; ')}`;
      throw new CommandFailedError({ kind: 'sync-failed', message, error: report.errors[0]! });
    }
    const sent = report.comments?.sent ?? 0;
    return { spaces: this.results(report), errors, ...(sent > 0 ? { commentsSent: sent } : {}) };
  }

  async status(): Promise<readonly SpaceStatus[]> {
    const working = this.workingChangeRequests();
    return this.engine.status().map((space) => ({
      ...(working.has(space.id) ? { changeRequest: working.get(space.id)! } : {}),
      id: space.id,
      title: space.title,
      organization: space.organization,
      folder: space.folder,
      enabled: space.enabled,
      state: space.state,
      revision: space.revision,
      remoteRevision: space.remoteRevision,
      pages: space.pages,
      lastSync: space.lastSync,
      errors: space.errors,
      ...(isCheckoutKey(space.id) ? { checkout: true as const } : {}),
    }));
  }

  /**
   * From the cache; while a watcher (`sync --watch`, the app) holds the drain lock, what only it
   * knows (syncing, offline, its last error) comes from the runtime state it records.
   */
  async syncStatus(): Promise<SyncStatusSnapshot> {
    const status = buildSyncStatus(this.engine);
    const holder = await DrainLock.holder(drainLockPath(this.homeRoot));
    const runtime = new WatchRuntimeRecord(this.cache).read();
    if (holder === undefined || runtime === undefined || runtime.pid !== holder.pid) return status;
    if (runtime.state === 'syncing' || runtime.state === 'offline' || runtime.state === 'error') {
      return { ...status, state: runtime.state, error: runtime.error ?? status.error };
    }
    return status;
  }

  async watch(options: WatchOptions): Promise<SyncStatusSnapshot> {
    await this.assertFolder();
    const watcher = new SyncWatcher({
      engine: this.engine,
      log: this.log,
      // The folder watcher ignores what the push ignores (Settings → ignore patterns).
      ignore: createIgnoreRules(this.options.config.ignorePatterns ?? []),
      ...(options.intervalMs !== undefined ? { pullIntervalMs: options.intervalMs } : {}),
    });
    const runtime = new WatchRuntimeRecord(this.cache);
    // A rejected token ends the watch (the watcher alone would wait for a new token).
    let tokenRejected = false;
    let onTokenRejected = () => {};
    const rejected = new Promise<void>((resolve) => (onTokenRejected = resolve));
    const unsubscribe = [
      watcher.on('status', (status) => {
        runtime.record(status);
        options.onStatus?.(status);
        if (status.tokenRejected) {
          tokenRejected = true;
          onTokenRejected();
        }
      }),
      watcher.on('run', (run) => {
        this.recordActivity(run.report);
        options.onRun?.(watchRunSummary(run));
      }),
    ];
    const stopped = new Promise<void>((resolve) => {
      if (options.signal.aborted) resolve();
      else options.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    try {
      // A stop during the start-up sync stops it after the request in flight.
      const started = watcher.start();
      // Started synchronously: from here on a sync request is taken (after the start-up sync).
      options.onStarted?.(watcher);
      await Promise.race([started, stopped, rejected]);
      await Promise.race([stopped, rejected]);
    } finally {
      await watcher.stop();
      for (const off of unsubscribe) off();
      runtime.clear();
    }
    if (tokenRejected) throw new RemoteAuthError(TOKEN_REJECTED_MESSAGE, { status: 401 });
    return buildSyncStatus(this.engine);
  }

  async pause(until?: Date): Promise<void> {
    this.engine.pause(until);
  }

  async resume(): Promise<void> {
    this.engine.resume();
  }

  async pauseState(): Promise<{ paused: boolean; until: Date | null }> {
    return this.engine.pauseState();
  }

  async confirmDeletes(spaceId: string): Promise<void> {
    this.assertKnownSpace(spaceId);
    this.engine.confirmDeletes(spaceId);
  }

  async conflicts(): Promise<readonly ConflictListing[]> {
    return this.engine.conflicts().map((conflict) => this.conflictListing(conflict));
  }

  async conflictVersions(id: number): Promise<ConflictVersions> {
    const open = this.openConflict(id);
    const listing = this.conflictListing(open);
    const texts = new SyncedTexts(this.cache);
    const text = (hash: string | null) => (hash === null ? null : (texts.get(hash) ?? null));
    return {
      conflict: listing,
      base: text(open.baseHash),
      mine: await readText(listing.file),
      theirs: open.kind === 'deleted-remotely' ? null : text(open.remoteHash),
      binary: open.kind === 'asset',
    };
  }

  async unsyncedEdits(): Promise<readonly UnsyncedEditListing[]> {
    const folders = new Map(this.engine.status().map((space) => [space.id, space.folder]));
    const inFolder = (spaceId: string, file: string) => `${folders.get(spaceId) ?? ''}/${file}`;
    return (await this.engine.unsyncedEdits()).map((edit) => ({
      spaceId: edit.spaceId,
      path: inFolder(edit.spaceId, edit.path),
      change: edit.change,
      ...(edit.from !== undefined ? { from: inFolder(edit.spaceId, edit.from) } : {}),
    }));
  }

  async resolveConflict(id: number, choice: ConflictResolutionChoice): Promise<ConflictListing> {
    const open = this.openConflict(id);
    try {
      await this.engine.resolveConflict(id, choice);
    } catch (error) {
      if (error instanceof ConflictResolutionError) throw new UnknownConflictError(error.message);
      throw error;
    }
    const listing = this.conflictListing(open);
    const folder = open.spaceFolder ?? '';
    this.addActivity([
      {
        at: new Date().toISOString(),
        kind: 'resolved',
        spaceId: open.spaceId,
        spaceTitle: open.spaceTitle,
        summary: `Resolved conflict #${id} (${choice.mode})`,
        files: [folder === '' ? open.path : `${folder}/${open.path}`],
      },
    ]);
    return listing;
  }

  async refusedChanges(): Promise<readonly RefusedChangeListing[]> {
    return this.refusedListings(this.engine.refusedChanges());
  }

  async retryRefused(id?: number): Promise<number> {
    return unknownRefusedAsOurs(() => this.engine.retryRefused(id));
  }

  async dropRefused(id: number): Promise<RefusedChangeListing> {
    return unknownRefusedAsOurs(() => this.refusedListings([this.engine.dropRefused(id)])[0]!);
  }

  async activity(limit?: number): Promise<readonly ActivityEntry[]> {
    return this.activityLog.list(limit);
  }

  async changeRequests(userId: string): Promise<readonly ChangeRequestSummary[]> {
    return new ChangeRequestViews(this.cache).inbox(userId);
  }

  async changeRequest(ref: ChangeRequestRef, userId: string): Promise<ChangeRequestDetail> {
    return new ChangeRequestViews(this.cache).detail(ref, userId);
  }

  async changeRequestDiff(ref: ChangeRequestRef): Promise<ChangeRequestDiff> {
    return new ChangeRequestViews(this.cache).diff(ref);
  }

  async pinChangeRequest(ref: ChangeRequestRef, pinned: boolean): Promise<void> {
    new ChangeRequestViews(this.cache).pin(ref, pinned, new Date().toISOString());
  }

  async close(): Promise<void> {
    this.cache.close();
  }

  reviewActions(): ReviewActions {
    if (!(this.options.remote instanceof WorkspaceClient)) {
      throw new Error('review actions need the server: log in first');
    }
    this.actions ??= workspaceReviewActions(this.cache, this.options.remote, this.log);
    return this.actions;
  }

  /** What the review actions queued offline; a refusal goes to the activity log, not lost. */
  private async sendQueuedReviewChanges(): Promise<readonly string[]> {
    const refused = await this.reviewActions().sendQueued();
    const titles = new Map(this.engine.status().map((space) => [space.id, space.title]));
    this.addActivity(
      refused.map((refusal) => ({
        at: new Date().toISOString(),
        kind: 'failed',
        spaceId: refusal.spaceId,
        spaceTitle: titles.get(refusal.spaceId) ?? null,
        summary: refusal.message,
        files: [],
      })),
    );
    return refused.map((refusal) => refusal.message);
  }

  comments(): LocalComments {
    return new LocalComments(this.cache, this.options.config.user, () => new Date().toISOString());
  }

  async checkoutChangeRequest(ref: ChangeRequestRef): Promise<ChangeRequestCheckout> {
    const space = new ChangeRequestViews(this.cache).resolveSpace(ref.space);
    return this.engine.checkout(space.id, ref.number);
  }

  async checkouts(): Promise<readonly ChangeRequestCheckout[]> {
    return this.engine.checkouts();
  }

  private recordActivity(report: SyncReport): void {
    this.addActivity(activityOfReport(report));
    this.announceComments(report);
  }

  /** What the comment step of a run brought: notifications, and the threads that changed. */
  private announceComments(report: SyncReport): void {
    for (const notification of report.comments?.notifications ?? []) {
      this.options.onNotification?.(notification);
    }
    for (const scope of report.comments?.changed ?? []) {
      this.options.onReviewChanged?.({ spaceId: scope.spaceId, number: scope.changeRequest });
    }
  }

  private addActivity(entries: readonly NewActivity[]): void {
    for (const entry of this.activityLog.add(entries)) this.options.onActivity?.(entry);
  }

  private assertKnownSpace(spaceId: string): void {
    if (!this.engine.status().some((space) => space.id === spaceId)) {
      throw new UnknownSpaceError(spaceId);
    }
  }

  private async assertFolder(): Promise<void> {
    const folder = await stat(this.folder).catch(() => undefined);
    if (folder?.isDirectory()) return;
    throw new CommandFailedError({
      kind: 'folder-missing',
      folder: this.folder,
      message:
        `the mirror folder ${this.folder} is missing (moved, deleted or not mounted?); ` +
        'create it again or log in with another --folder and --home',
    });
  }

  private openConflict(id: number): SpaceConflict {
    const open = this.engine.conflicts().find((conflict) => conflict.id === id);
    if (open === undefined) throw new UnknownConflictError(`no open conflict #${id}`);
    return open;
  }

  /** Each space's working change request, once the server has numbered it. */
  private workingChangeRequests(): Map<string, WorkingChangeRequestListing> {
    const listed = new Map<string, WorkingChangeRequestListing>();
    for (const working of new WorkingChangeRequests(this.cache).list()) {
      if (working.number === null) continue;
      listed.set(working.spaceId, {
        number: working.number,
        subject: working.subject,
        url: working.url,
      });
    }
    return listed;
  }

  /** Paths made relative to the mirror folder, as `quire status` prints problems. */
  private refusedListings(refused: readonly RefusedChange[]): RefusedChangeListing[] {
    const folders = new Map(this.engine.status().map((space) => [space.id, space.folder]));
    return refused.map((change) => {
      const folder = folders.get(change.spaceId) ?? '';
      const inFolder = (file: string) => (folder === '' ? file : `${folder}/${file}`);
      return {
        id: change.id,
        spaceId: change.spaceId,
        kind: change.kind,
        path: change.path === null ? folder : inFolder(change.path),
        reason: change.reason,
        holds: change.holds.map(inFolder),
      };
    });
  }

  private conflictListing(conflict: SpaceConflict): ConflictListing {
    const folder = conflict.spaceFolder ?? '';
    return {
      id: conflict.id,
      spaceId: conflict.spaceId,
      spaceTitle: conflict.spaceTitle,
      pageId: conflict.pageId,
      pageTitle: conflict.pageId === null ? '' : conflict.title,
      path: conflict.path,
      file: path.join(this.folder, ...folder.split('/'), ...conflict.path.split('/')),
      kind: conflict.kind,
      message: conflict.message,
      createdAt: conflict.createdAt,
    };
  }

  /** One entry per space the run touched, then every other enabled space as unchanged. */
  private results(report: SyncReport): SpaceSyncResult[] {
    // Conflicts count while they are open, whichever run recorded them.
    const open = new Map<string, number>();
    for (const conflict of this.engine.conflicts()) {
      open.set(conflict.spaceId, (open.get(conflict.spaceId) ?? 0) + 1);
    }
    const working = this.workingChangeRequests();
    const results: SpaceSyncResult[] = report.spaces.map(spaceSyncResult).map((result) => ({
      ...result,
      conflicts: open.get(result.id) ?? 0,
      ...(working.has(result.id) ? { changeRequest: working.get(result.id)! } : {}),
    }));
    const touched = new Set(results.map((result) => result.id));
    for (const space of this.engine.status()) {
      if (!space.enabled || space.state === 'removed' || touched.has(space.id)) continue;
      results.push({
        id: space.id,
        title: space.title,
        outcome: 'unchanged',
        revision: space.revision,
        filesWritten: 0,
        filesRemoved: 0,
        conflicts: open.get(space.id) ?? 0,
        problems: [],
        ...(working.has(space.id) ? { changeRequest: working.get(space.id)! } : {}),
      });
    }
    return results;
  }
}

/** The engine's "no such refused change", as the session's error. */
function unknownRefusedAsOurs<T>(task: () => T): T {
  try {
    return task();
  } catch (error) {
    if (error instanceof EngineUnknownRefusedChange) {
      throw new UnknownRefusedChangeError(error.message);
    }
    throw error;
  }
}

/** A file's text, or null when it is gone (a local deletion) or cannot be read. */
async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}
