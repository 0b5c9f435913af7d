import { appendFileSync } from 'node:fs';
import { chmod, readFile, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { openCacheDatabase, type CacheDb } from '../cache/open-cache-database';
import { ensureQuireHome, type QuireHome } from '../config/quire-home';
import { WorkspaceOutboxRemote } from '../outbox/workspace-outbox-remote';
import { RemoteAuthError } from '../remote/errors';
import { WorkspaceClient } from '../remote/workspace-client';
import { FileSecretStore } from '../secrets/file-secret-store';
import {
  SyncEngine,
  type SpaceConflict,
  type SpaceSyncReport,
  type SyncLog,
  type SyncReport,
} from '../sync/sync-engine';
import { SyncStateStore } from '../cache/sync-state-store';
import { SyncedTexts } from '../cache/synced-texts';
import { WorkingChangeRequests } from '../outbox/working-change-requests';
import { DrainLock, drainLockPath } from '../outbox/drain-lock';
import { problemText } from '../sync/problem-text';
import { buildSyncStatus } from '../sync/sync-status-model';
import { SyncWatcher, TOKEN_REJECTED_MESSAGE, type WatchRun } from '../sync/sync-watcher';
import type { SyncStatusSnapshot } from '../../shared/sync-status';
import { ConflictResolutionError } from '../conflicts/conflict-resolver';
import { UnknownRefusedChangeError, type RefusedChange } from '../sync/refused-changes';
import {
  UnknownConflictError,
  UnknownRefusedChangeError as UnknownRefusedChange,
  type RefusedChangeListing,
  SyncFailedError,
  UnknownSpaceError,
  type ConflictListing,
  type ConflictResolutionChoice,
  type ConflictVersions,
  type OpenEngineOptions,
  type QuireEngine,
  type QuireServices,
  type SpaceList,
  type SpaceStatus,
  type SpaceSyncResult,
  type SyncOnceResult,
  type UnsyncedEditListing,
  type WatchOptions,
  type WorkingChangeRequestListing,
} from './quire-services';

/** Login fails fast on an unreachable server: one retry, a shorter timeout. */
const LOGIN_HTTP = { maxAttempts: 2, timeoutMs: 15_000 } as const;

/**
 * The composition root of the headless `quire`: the file secret store in the home, the HTTP
 * client, and the sync engine over `<home>/cache.db`, logging to `<home>/logs/sync.log`.
 */
export function createQuireServices(home: QuireHome): QuireServices {
  return {
    home,
    secrets: new FileSecretStore(home.secretsFile),
    connect: (server, token, options = {}) =>
      new WorkspaceClient({
        endpoint: server,
        token,
        userAgent: 'quire-cli',
        ...(options.quick ? { http: LOGIN_HTTP } : {}),
      }),
    openEngine: async (options) => {
      await ensureQuireHome(home);
      const cache = openCacheDatabase(home.cacheFile);
      try {
        // The cache holds page content: owner-only, like the rest of the home. SQLite gives its
        // -wal and -shm files the database file's permissions.
        if (process.platform !== 'win32') await chmod(home.cacheFile, 0o600);
        return new CliEngine(
          cache,
          options,
          fileLog(path.join(home.logsDir, 'sync.log')),
          home.root,
        );
      } catch (error) {
        cache.close();
        throw error;
      }
    },
  };
}

/** The sync engine behind the CLI's `QuireEngine` view. */
class CliEngine implements QuireEngine {
  private readonly engine: SyncEngine;
  private readonly folder: string;
  private readonly log: SyncLog;

  constructor(
    private readonly cache: CacheDb,
    options: OpenEngineOptions,
    log: SyncLog,
    private readonly homeRoot: string,
  ) {
    this.folder = options.config.folder;
    this.log = log;
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
              // Watching, the watcher backs off; a run must not sit in the drainer's waits.
              ...(options.watching ? { maxOfflineWaits: 0 } : {}),
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
    return { spaces, errors: result.errors.map((error) => error.message) };
  }

  async setSpaceEnabled(spaceId: string, enabled: boolean): Promise<void> {
    if (!this.engine.status().some((space) => space.id === spaceId)) {
      throw new UnknownSpaceError(spaceId);
    }
    this.engine.setSpaceEnabled(spaceId, enabled);
  }

  async syncOnce(): Promise<SyncOnceResult> {
    // Checked here too so that a missing folder is a failure, not a "problem" of a finished sync.
    const folder = await stat(this.folder).catch(() => undefined);
    if (!folder?.isDirectory()) {
      throw new Error(
        `the mirror folder ${this.folder} is missing (moved, deleted or not mounted?); ` +
          'create it again or log in with another --folder and --home',
      );
    }
    const report = await this.engine.syncOnce();
    const errors = report.errors.map((error) => error.message);
    if (report.spaces.length === 0 && report.errors.length > 0) {
      // Nothing could be pulled at all: a failed command, with the typed error.
      throw new SyncFailedError(report.errors[0]!, `sync failed: ${errors.join('; ')}`);
    }
    return { spaces: this.results(report), errors };
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
    }));
  }

  /**
   * From the cache; while a `sync --watch` (or the app) holds the drain lock, what only it knows
   * (syncing, offline, its last error) comes from the runtime state it records.
   */
  async syncStatus(): Promise<SyncStatusSnapshot> {
    const status = buildSyncStatus(this.engine);
    const holder = await DrainLock.holder(drainLockPath(this.homeRoot));
    const runtime = parseRuntime(new SyncStateStore(this.cache).get(WATCH_RUNTIME_KEY));
    if (holder === undefined || runtime === undefined || runtime.pid !== holder.pid) return status;
    if (runtime.state === 'syncing' || runtime.state === 'offline' || runtime.state === 'error') {
      return { ...status, state: runtime.state, error: runtime.error ?? status.error };
    }
    return status;
  }

  async watch(options: WatchOptions): Promise<SyncStatusSnapshot> {
    const folder = await stat(this.folder).catch(() => undefined);
    if (!folder?.isDirectory()) {
      throw new Error(
        `the mirror folder ${this.folder} is missing (moved, deleted or not mounted?); ` +
          'create it again or log in with another --folder and --home',
      );
    }
    const watcher = new SyncWatcher({
      engine: this.engine,
      log: this.log,
      ...(options.intervalMs !== undefined ? { pullIntervalMs: options.intervalMs } : {}),
    });
    const runtime = new SyncStateStore(this.cache);
    // A rejected token ends the command (the watcher alone would wait for a new token).
    let tokenRejected = false;
    let onTokenRejected = () => {};
    const rejected = new Promise<void>((resolve) => (onTokenRejected = resolve));
    const unsubscribe = [
      watcher.on('status', (status) => {
        runtime.set(
          WATCH_RUNTIME_KEY,
          JSON.stringify({ pid: process.pid, state: status.state, error: status.error }),
        );
        options.onStatus?.(status);
        if (status.tokenRejected) {
          tokenRejected = true;
          onTokenRejected();
        }
      }),
      watcher.on('run', (run) => {
        const summary = runSummary(run);
        if (summary !== undefined) options.onRun?.(summary);
      }),
    ];
    const stopped = new Promise<void>((resolve) => {
      if (options.signal.aborted) resolve();
      else options.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    try {
      // A stop during the start-up sync stops it after the request in flight.
      await Promise.race([watcher.start(), stopped, rejected]);
      await Promise.race([stopped, rejected]);
    } finally {
      await watcher.stop();
      for (const off of unsubscribe) off();
      runtime.set(WATCH_RUNTIME_KEY, '');
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
    if (!this.engine.status().some((space) => space.id === spaceId)) {
      throw new UnknownSpaceError(spaceId);
    }
    this.engine.confirmDeletes(spaceId);
  }

  async conflicts(): Promise<readonly ConflictListing[]> {
    return this.engine.conflicts().map((conflict) => this.conflictListing(conflict));
  }

  async conflictVersions(id: number): Promise<ConflictVersions> {
    const open = this.engine.conflicts().find((conflict) => conflict.id === id);
    if (open === undefined) throw new UnknownConflictError(`no open conflict #${id}`);
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
    const open = this.engine.conflicts().find((conflict) => conflict.id === id);
    if (open === undefined) throw new UnknownConflictError(`no open conflict #${id}`);
    try {
      await this.engine.resolveConflict(id, choice);
    } catch (error) {
      if (error instanceof ConflictResolutionError) throw new UnknownConflictError(error.message);
      throw error;
    }
    return this.conflictListing(open);
  }

  async refusedChanges(): Promise<readonly RefusedChangeListing[]> {
    return this.refusedListings(this.engine.refusedChanges());
  }

  async retryRefused(id?: number): Promise<number> {
    try {
      return this.engine.retryRefused(id);
    } catch (error) {
      if (error instanceof UnknownRefusedChangeError) {
        throw new UnknownRefusedChange(error.message);
      }
      throw error;
    }
  }

  async dropRefused(id: number): Promise<RefusedChangeListing> {
    try {
      return this.refusedListings([this.engine.dropRefused(id)])[0]!;
    } catch (error) {
      if (error instanceof UnknownRefusedChangeError) {
        throw new UnknownRefusedChange(error.message);
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    this.cache.close();
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
    const results: SpaceSyncResult[] = report.spaces.map(spaceResult).map((result) => ({
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

/** A file's text, or null when it is gone (a local deletion) or cannot be read. */
async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}

/** What a running `sync --watch` last knew, for `quire status` in another process. */
const WATCH_RUNTIME_KEY = 'watch-runtime';

function parseRuntime(
  text: string | undefined,
): { pid: number; state: string; error: string | null } | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as { pid?: unknown; state?: unknown; error?: unknown };
    if (typeof value.pid !== 'number' || typeof value.state !== 'string') return undefined;
    return {
      pid: value.pid,
      state: value.state,
      error: typeof value.error === 'string' ? value.error : null,
    };
  } catch {
    return undefined;
  }
}

/** One line for a watch run that did something; quiet runs (nothing changed) say nothing. */
function runSummary(run: WatchRun): string | undefined {
  const { report } = run;
  let pushed = 0;
  let written = 0;
  let removed = 0;
  const failures: string[] = report.errors.map((error) => error.message);
  for (const space of report.spaces) {
    pushed += space.pushed ?? 0;
    written += space.pulled ? space.written.length : 0;
    removed += space.removed.length;
    if (space.error !== undefined) failures.push(`${space.title}: ${space.error.message}`);
  }
  const facts = [
    pushed > 0 ? `${pushed} change${pushed === 1 ? '' : 's'} pushed` : undefined,
    written > 0 ? `${written} file${written === 1 ? '' : 's'} written` : undefined,
    removed > 0 ? `${removed} file${removed === 1 ? '' : 's'} removed` : undefined,
    report.offline ? 'server unreachable, retrying later' : undefined,
    ...failures.map((failure) => `failed: ${failure}`),
  ].filter((fact) => fact !== undefined);
  if (facts.length === 0) return undefined;
  return `${report.finishedAt} ${run.kind === 'sync' ? 'sync' : 'push'} (${run.reason}): ${facts.join(', ')}`;
}

function spaceResult(space: SpaceSyncReport): SpaceSyncResult {
  const conflicts = space.problems.filter((problem) => problem.kind === 'conflict').length;
  const problems = space.problems
    .filter((problem) => problem.kind !== 'conflict')
    .map((problem) => problemText(problem.path, problem.message));
  if (space.error !== undefined) problems.unshift(space.error.message);
  let outcome: SpaceSyncResult['outcome'] = space.pulled ? 'pulled' : 'pushed';
  if (space.removedSpace) outcome = 'removed';
  else if (space.error !== undefined) outcome = 'failed';
  else if (!space.pulled && !space.pushed) outcome = 'unchanged';
  return {
    id: space.spaceId,
    title: space.title,
    outcome,
    revision: space.toRevision,
    filesWritten: space.written.length,
    filesRemoved: space.removed.length,
    conflicts,
    problems,
    ...(space.pushed ? { pushed: space.pushed } : {}),
  };
}

/**
 * Engine events as JSON lines in a 0600 file. Synchronous appends keep the lines in order and
 * survive a crash right after; a CLI run logs a handful of lines. Debug lines are left out.
 */
function fileLog(file: string): SyncLog {
  return (level, message, fields) => {
    if (level === 'debug') return;
    const entry = { time: new Date().toISOString(), level, message, ...fields };
    try {
      appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch {
      // Logging must never fail a sync.
    }
  };
}
