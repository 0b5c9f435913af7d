import type { Stats } from 'node:fs';
import { lstat, readFile, readdir, rename, rmdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { ContentCache } from '../cache/content-cache';
import { contentHash } from '../cache/content-hash';
import { FileIndex, type FileIndexEntry } from '../cache/file-index';
import type { CacheDb } from '../cache/open-cache-database';
import { SpaceCache, type CachedOrganization, type CachedSpace } from '../cache/space-cache';
import {
  PUSH_PROBLEM_KINDS,
  SyncProblems,
  type SyncProblem,
  type SyncProblemKind,
} from '../cache/sync-problems';
import { SyncStateStore } from '../cache/sync-state-store';
import { SyncedTexts } from '../cache/synced-texts';
import { ConflictResolver, type ConflictResolutionRequest } from '../conflicts/conflict-resolver';
import {
  ConflictStore,
  INFORMATIONAL_CONFLICT_KINDS,
  type Conflict,
} from '../conflicts/conflict-store';
import { PullConflicts } from '../conflicts/pull-conflicts';
import {
  atomicRemove,
  atomicWriteFile,
  ensureDir,
  fsyncDirectory,
  removeStaleTempFiles,
} from '../mirror/atomic-write';
import { NameAllocator } from '../mirror/name-allocator';
import { assertInside, assertNoSymlinkOnPath, resolveInside } from '../mirror/resolve-inside';
import { createIgnoreRules, type IgnoreRule } from '../local/ignore-rules';
import { isTokenRejected, RemoteUnavailableError } from '../remote/errors';
import { Outbox } from '../outbox/outbox';
import { OutboxDrainer } from '../outbox/outbox-drainer';
import type { OutboxRemote } from '../outbox/outbox-remote';
import { SyncPause, type PauseState } from '../cache/sync-pause';
import type { SpaceState } from '../../shared/contract/space-state';
import type { SyncError } from '../../shared/contract/sync-error';
import { SyncFolderMissingError, syncErrorOf, withContext } from './sync-error-of';
import { LocalEdits, type LocalEdit } from '../cache/local-edits';
import { allowMassDeleteOnce, SpacePusher } from './push-space';
import { RefusedChanges, type RefusedChange } from './refused-changes';
import { spaceLayout, type LayoutEntry } from './space-layout';
import { findUnsyncedEdits, type UnsyncedEdit } from './unsynced-edits';
import type {
  Clock,
  RemoteFile,
  RemoteOrganization,
  RemotePage,
  RemoteRevision,
  RemoteSpace,
  RemoteWorkspace,
  SyncProgress,
} from '../sync-ports';

/** Below this many spaces, the first listing enables them all; otherwise the user chooses. */
export const AUTO_ENABLE_SPACE_LIMIT = 20;

const SPACES_LISTED_KEY = 'spaces-listed';

export type SyncLogLevel = 'debug' | 'info' | 'warn' | 'error';
export type SyncLog = (
  level: SyncLogLevel,
  message: string,
  fields?: Record<string, unknown>,
) => void;

export interface SyncEngineOptions {
  cache: CacheDb;
  remote: RemoteWorkspace;
  /** The mirror root (absolute). It must exist: a missing root may be an unmounted disk. */
  folder: string;
  clock: Clock;
  onProgress?: (progress: SyncProgress) => void;
  log?: SyncLog;
  /** Set to push local edits (before each space's pull); without it the engine only pulls. */
  push?: SyncPushOptions;
}

export interface SyncPushOptions {
  /** The outbox's calls (WorkspaceOutboxRemote over the same WorkspaceClient). */
  remote: OutboxRemote;
  /** Names the working change requests "Edits from <deviceName>" (default os.hostname()). */
  deviceName?: string;
  /** The subject of new working change requests instead ("Edits from <deviceName>"). */
  subject?: string;
  /** Extra ignore patterns for the space folders (see createIgnoreRules). */
  ignorePatterns?: readonly string[];
  /** Waits for an unreachable server before a drain gives up (default 2; edits stay queued). */
  maxOfflineWaits?: number;
  /** First wait while offline (the drainer's default otherwise). */
  offlineBaseDelayMs?: number;
}

/** Something a sync left for the user: a kept file, a conflict, a failed write. */
export interface ReportedProblem {
  kind: SyncProblemKind;
  /** Relative to the space folder. */
  path: string | null;
  pageId: string | null;
  message: string;
}

export interface SpaceSyncReport {
  spaceId: string;
  title: string;
  /** The space folder, relative to the mirror root. */
  folder: string;
  /** The revision the folder reflected before and after (unchanged after an error). */
  fromRevision: string | null;
  toRevision: string | null;
  /** Paths relative to the space folder. */
  written: string[];
  removed: string[];
  problems: ReportedProblem[];
  /** Local changes queued, and acknowledged by the server, by this run's push. */
  queued?: number;
  pushed?: number;
  /** Whether the pull ran (its revision had moved). */
  pulled?: boolean;
  /** Files the pull three-way merged (local and remote edits), to be pushed. */
  merged?: string[];
  /** The space was removed remotely and its folder cleaned up. */
  removedSpace?: boolean;
  /** The server could not be reached while pushing or pulling this space. */
  offline?: boolean;
  /** The run was stopped while on this space (see SyncReport.stopped); not an error. */
  stopped?: boolean;
  /**
   * Main moved since the space's last pull (seen before sending, or when the working change
   * request was created from it): queued edits wait for the pull that merges it (the next
   * syncOnce, which runs it at once when the push saw it).
   */
  mainMoved?: boolean;
  error?: SyncError;
}

export interface SyncReport {
  startedAt: string;
  finishedAt: string;
  spaces: SpaceSyncReport[];
  /** Failures outside one space (listing organizations or spaces). */
  errors: SyncError[];
  filesWritten: number;
  filesRemoved: number;
  /** The server could not be reached at some point of this run (edits stay queued). */
  offline?: boolean;
  /**
   * The run's `signal` aborted: it stopped after the request in flight. What it finished is
   * recorded; the rest (spaces not reached, queued batches, a pull cut short) is left for the next
   * run, which redoes an unfinished pull (its written files are recognised by the journal).
   */
  stopped?: boolean;
  /** The server rejected the token (401): nothing more can sync until the user signs in again. */
  tokenRejected?: boolean;
}

/** What a run takes: `signal` stops it between requests (see SyncReport.stopped). */
export interface SyncRunOptions {
  signal?: AbortSignal;
}

/** Thrown inside a pull when the run's signal aborted; its space is reported stopped. */
class SyncStopped extends Error {
  constructor() {
    super('The sync was stopped');
  }
}

export interface RefreshResult {
  organizations: CachedOrganization[];
  spaces: CachedSpace[];
  /** Spaces seen for the first time by this listing. */
  added: string[];
  /** Spaces that disappeared from a successful listing. */
  removed: string[];
  /** Why an organization's space list could not be read (its spaces are left as they were). */
  errors: SyncError[];
}

export type { SpaceState };

/** An open conflict as the CLI and the app list it. */
export interface SpaceConflict extends Conflict {
  spaceTitle: string;
  /** The space folder, relative to the mirror root (null once the space is forgotten). */
  spaceFolder: string | null;
}

export interface SpaceStatus {
  id: string;
  organizationId: string;
  organization: string;
  title: string;
  /** The space folder, relative to the mirror root. */
  folder: string;
  enabled: boolean;
  /**
   * `pending`: enabled, never synced; `outdated`: the remote revision moved since the last sync;
   * `removed`: gone remotely, locally edited files kept (see `problems`).
   */
  state: SpaceState;
  /** The revision the folder reflects. */
  revision: string | null;
  remoteRevision: string | null;
  pages: number;
  lastSync: string | null;
  errors: string[];
  problems: SyncProblem[];
  /** Open conflicts (`conflicts()`), edit-against-delete notes included. */
  conflicts: number;
}

/** What a file in the folder is, relative to what the engine last wrote there. */
type LocalState =
  | { kind: 'missing' }
  /** Bytes equal to what the engine wrote (or was about to write when it stopped). */
  | { kind: 'ours'; hash: string; stats: Stats }
  /** Bytes the engine did not write: a local edit, or a file the engine never wrote. */
  | { kind: 'foreign'; hash: string; stats: Stats };

/** A file to write: text with its bytes and hash, or an asset downloaded when its turn comes. */
interface PlannedWrite {
  entry: LayoutEntry;
  hash: string | undefined;
  data: string | undefined;
}

/**
 * The pull side of the sync: lists organizations and spaces, fetches the revisions that moved and
 * mirrors them into `<folder>/<organization>/<space>/` in Git Sync's layout.
 *
 * Safety rules: a file is only rewritten or removed when its bytes are what the engine last wrote
 * (so local edits are never lost); every write is atomic; files are written before the cache
 * records them, and a journal of pending writes lets a sync killed midway recognise its own work,
 * so a re-sync converges. Page identity is the page id in the file index, never the path.
 */
export class SyncEngine {
  private readonly spaces: SpaceCache;
  private readonly content: ContentCache;
  private readonly index: FileIndex;
  private readonly problems: SyncProblems;
  private readonly state: SyncStateStore;
  private readonly db: CacheDb;
  private readonly remote: RemoteWorkspace;
  private readonly folder: string;
  private readonly clock: Clock;
  private readonly onProgress: (progress: SyncProgress) => void;
  private readonly log: SyncLog;
  private running: Promise<SyncReport> | undefined;
  /**
   * The signal of the run going on (syncOnce/pushOnce; one at a time), read between requests.
   * A field rather than a parameter so the pull and push steps need no extra argument.
   */
  private signal: AbortSignal | undefined;
  private readonly edits: LocalEdits;
  private readonly pauses: SyncPause;
  private readonly pusher: SpacePusher | undefined;
  private readonly drainer: OutboxDrainer | undefined;
  private readonly conflictStore: ConflictStore;
  private readonly texts: SyncedTexts;
  private readonly resolver: ConflictResolver;
  /** The durable queue of local changes (the pusher's drainer, conflicts and status share it). */
  private readonly outbox: Outbox;
  private readonly refused: RefusedChanges;
  /** Which files in the space folders are not synced (editor temp files, hidden files…). */
  private readonly ignore: IgnoreRule;

  constructor(options: SyncEngineOptions) {
    if (!path.isAbsolute(options.folder)) {
      throw new TypeError(`The sync folder must be an absolute path, got ${options.folder}`);
    }
    this.folder = path.resolve(options.folder);
    const cacheFile = options.cache.name;
    // The cache must never be mirrored, watched or pushed: it lives in the home directory.
    if (cacheFile && path.isAbsolute(cacheFile) && isWithin(this.folder, path.resolve(cacheFile))) {
      throw new Error(`The cache ${cacheFile} must not be inside the sync folder ${this.folder}`);
    }
    this.db = options.cache;
    this.ignore = createIgnoreRules(options.push?.ignorePatterns ?? []);
    this.spaces = new SpaceCache(options.cache);
    this.content = new ContentCache(options.cache);
    this.index = new FileIndex(options.cache);
    this.problems = new SyncProblems(options.cache);
    this.state = new SyncStateStore(options.cache);
    this.remote = options.remote;
    this.clock = options.clock;
    this.onProgress = options.onProgress ?? (() => {});
    this.log = options.log ?? (() => {});
    this.edits = new LocalEdits(options.cache);
    this.pauses = new SyncPause(options.cache, options.clock);
    this.outbox = new Outbox({ db: options.cache, clock: options.clock });
    this.refused = new RefusedChanges({
      db: options.cache,
      outbox: this.outbox,
      edits: this.edits,
      index: this.index,
    });
    this.conflictStore = new ConflictStore(options.cache);
    this.texts = new SyncedTexts(options.cache);
    this.resolver = new ConflictResolver({
      db: options.cache,
      index: this.index,
      edits: this.edits,
      store: this.conflictStore,
      texts: this.texts,
      outbox: this.outbox,
      spaceRoot: (spaceId) => {
        const space = this.spaces.getSpace(spaceId);
        if (space === undefined || space.removedAt !== null || space.syncedRevision === null) {
          return undefined;
        }
        return resolveInside(this.folder, ...space.folderPath.split('/'));
      },
      downloadAsset: async (spaceId, fileId) => {
        const file = this.content.files(spaceId).find((cached) => cached.id === fileId);
        if (file === undefined) throw new Error(`The file ${fileId} is no longer on the server`);
        return this.remote.downloadFile(file);
      },
      now: () => this.now(),
    });
    if (options.push !== undefined) {
      const outbox = this.outbox;
      const subject = options.push.subject;
      const drainer = new OutboxDrainer({
        db: options.cache,
        outbox,
        client: options.push.remote,
        deviceName: options.push.deviceName ?? hostname(),
        clock: options.clock,
        maxOfflineWaits: options.push.maxOfflineWaits ?? 2,
        expectedBase: (spaceId) => this.spaces.getSpace(spaceId)?.syncedRevision,
        ...(subject !== undefined ? { subject: () => subject } : {}),
        ...(options.push.offlineBaseDelayMs !== undefined
          ? { offlineBaseDelayMs: options.push.offlineBaseDelayMs }
          : {}),
      });
      this.drainer = drainer;
      this.pusher = new SpacePusher({
        db: options.cache,
        index: this.index,
        content: this.content,
        edits: this.edits,
        state: this.state,
        outbox,
        drainer,
        ignore: this.ignore,
        now: () => options.clock.now(),
      });
    }
  }

  /** Stops pushing (kept in the cache, so it holds across runs) until `until` or resume(). */
  pause(until?: Date): void {
    this.pauses.pause(until);
  }

  resume(): void {
    this.pauses.resume();
  }

  pauseState(): PauseState {
    return this.pauses.state();
  }

  /** The next push of the space may delete more than half of its pages (once). */
  confirmDeletes(spaceId: string): void {
    if (this.spaces.getSpace(spaceId) === undefined) throw new Error(`Unknown space ${spaceId}`);
    allowMassDeleteOnce(this.state, spaceId);
  }

  /** Changes the server refused, of every space, oldest first (see RefusedChanges). */
  refusedChanges(): RefusedChange[] {
    return this.refused.list(this.outbox.spaces());
  }

  /**
   * Re-queues a refused change (or, without an id, every one): the next push sends it, alone.
   * Throws UnknownRefusedChangeError for an id that names none. Returns how many.
   */
  retryRefused(id?: number): number {
    const count = this.refused.retry(this.outbox.spaces(), id);
    this.refreshRefusalProblems();
    return count;
  }

  /**
   * Drops a refused change from the outbox, keeping its file as a local-only edit (pushed again
   * only once edited). Throws UnknownRefusedChangeError for an id that names none.
   */
  dropRefused(id: number): RefusedChange {
    const dropped = this.refused.drop(this.outbox.spaces(), id);
    this.refreshRefusalProblems();
    return dropped;
  }

  /** The recorded refusal problems, after a retry or drop, without waiting for the next push. */
  private refreshRefusalProblems(): void {
    const now = this.now();
    this.db.transaction(() => {
      for (const existing of this.problems.list()) {
        if (existing.kind === 'push-failed') this.problems.remove(existing.id);
      }
      for (const spaceId of this.outbox.spaces()) {
        for (const problem of this.refused.problems(spaceId)) {
          this.problems.add({ ...problem, kind: 'push-failed', spaceId, createdAt: now });
        }
      }
    })();
  }

  /**
   * Lists organizations and their spaces (one request each) and records them. The first listing
   * ever enables every space when there are fewer than 20; spaces seen later start disabled.
   */
  async refreshSpaces(): Promise<RefreshResult> {
    const organizations = await this.remote.listOrganizations();
    this.onProgress({ phase: 'listing', done: 0, total: organizations.length });
    const listed = new Map<string, RemoteSpace[]>();
    const errors: SyncError[] = [];
    const firstListing = this.state.get(SPACES_LISTED_KEY) === undefined;
    for (const [i, organization] of organizations.entries()) {
      try {
        listed.set(organization.id, await this.remote.listSpaces(organization.id));
      } catch (error) {
        // A first listing decides which spaces to enable: it must see them all.
        if (firstListing) throw error;
        errors.push(
          withContext(syncErrorOf(error), `Listing the spaces of ${organization.title}: `),
        );
        this.log('warn', 'listing spaces failed', {
          organization: organization.id,
          error: messageOf(error),
        });
      }
      this.onProgress({ phase: 'listing', done: i + 1, total: organizations.length });
    }
    const { added, removed } = this.db.transaction(() =>
      this.recordListing(organizations, listed, firstListing),
    )();
    return {
      organizations: this.spaces.listOrganizations(),
      spaces: this.spaces.listSpaces(),
      added,
      removed,
      errors,
    };
  }

  /** Open conflicts (and edit-against-delete notes) of every space, oldest first. */
  conflicts(): SpaceConflict[] {
    return this.conflictStore.open().map((conflict) => {
      const space = this.spaces.getSpace(conflict.spaceId);
      return {
        ...conflict,
        spaceTitle: space?.title ?? conflict.spaceId,
        spaceFolder: space?.folderPath ?? null,
      };
    });
  }

  /**
   * Resolves an open conflict (see ConflictResolutionRequest): writes the file at once, records
   * the outcome, and queues what must be pushed (sent by the next sync). Throws
   * ConflictResolutionError, having changed nothing, for an unknown or resolved id.
   */
  async resolveConflict(id: number, request: ConflictResolutionRequest): Promise<Conflict> {
    // Never while a sync writes the same folder and cache.
    await this.running?.catch(() => undefined);
    const resolved = await this.resolver.resolve(id, request);
    const space = this.spaces.getSpace(resolved.spaceId);
    if (this.pusher !== undefined && space !== undefined) {
      try {
        const spaceRoot = resolveInside(this.folder, ...space.folderPath.split('/'));
        await this.pusher.push(space, spaceRoot, { drain: false, held: this.held(space.id) });
      } catch (error) {
        // Queued by the next sync's scan instead: the resolution itself is recorded.
        this.log('warn', 'queueing a resolved conflict failed', { error: messageOf(error) });
      }
    }
    return resolved;
  }

  /** Selective sync. A disabled space keeps its folder as it is; it is simply no longer synced. */
  setSpaceEnabled(spaceId: string, enabled: boolean): void {
    if (!this.spaces.setEnabled(spaceId, enabled)) throw new Error(`Unknown space ${spaceId}`);
  }

  /**
   * One pull: refreshes the space list, then mirrors every enabled space whose revision moved and
   * cleans up spaces removed remotely. Concurrent calls share one run (and the first's signal).
   */
  syncOnce(options: SyncRunOptions = {}): Promise<SyncReport> {
    this.running ??= this.withSignal(options.signal, () => this.runOnce()).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * Only the push side, without listing or pulling: what a watcher runs when files change, so a
   * save costs no request besides the push itself (and none when nothing changed). Not to be run
   * concurrently with syncOnce: SyncWatcher runs one at a time.
   */
  pushOnce(options: SyncRunOptions = {}): Promise<SyncReport> {
    return this.withSignal(options.signal, () => this.pushAll());
  }

  private async withSignal(
    signal: AbortSignal | undefined,
    run: () => Promise<SyncReport>,
  ): Promise<SyncReport> {
    this.signal = signal;
    try {
      const report = await run();
      if (signal?.aborted) report.stopped = true;
      return report;
    } finally {
      this.signal = undefined;
    }
  }

  /** Whether the run's signal aborted: checked before each request that starts new work. */
  private stopRequested(): boolean {
    return this.signal?.aborted === true;
  }

  /** A run's report before anything happened. */
  private newRunReport(): SyncReport {
    return {
      startedAt: this.now(),
      finishedAt: '',
      spaces: [],
      errors: [],
      filesWritten: 0,
      filesRemoved: 0,
    };
  }

  private async pushAll(): Promise<SyncReport> {
    const report = this.newRunReport();
    if (this.pusher !== undefined) {
      try {
        await this.assertFolderExists();
        for (const space of this.spaces.listSpaces()) {
          if (space.removedAt !== null || !space.enabled || space.syncedRevision === null) continue;
          if (this.stopRequested()) break;
          // Queued first; sent only if the space has not moved on the server since the last
          // pull (see movedSincePull): otherwise the next syncOnce pulls, then sends it.
          let spaceReport = await this.pushSpace(space, { drain: false, placeAgainstServer: true });
          if (this.pendingChanges(space.id) > 0 && !this.stopRequested()) {
            if (await this.movedSincePull(space)) {
              spaceReport.mainMoved = true;
            } else {
              const queued = spaceReport.queued ?? 0;
              spaceReport = await this.pushSpace(space);
              spaceReport.queued = (spaceReport.queued ?? 0) + queued;
            }
          }
          if (spaceReport.offline) report.offline = true;
          report.filesWritten += spaceReport.written.length;
          report.spaces.push(spaceReport);
        }
      } catch (error) {
        report.errors.push(syncErrorOf(error));
        if (isTokenRejected(error)) report.tokenRejected = true;
      }
    }
    report.finishedAt = this.now();
    return report;
  }

  /**
   * Local changes still to go out (waiting or being sent), of one space or of every space. Those
   * the server refused, and those held back by one, are not counted: they go out only once the
   * user acts, and are listed as problems (refusedChanges) instead.
   */
  pendingChanges(spaceId?: string): number {
    const spaces = spaceId === undefined ? this.outbox.spaces() : [spaceId];
    return spaces.reduce((sum, id) => sum + this.outbox.unsent(id), 0);
  }

  /** Edits in the space folders that no push has recorded yet (a read-only quick scan). */
  unsyncedEdits(): Promise<UnsyncedEdit[]> {
    return findUnsyncedEdits(
      { index: this.index, edits: this.edits, ignore: this.ignore, problems: this.problems },
      this.syncedFolders().map(({ spaceId, root }) => ({
        spaceId,
        root,
        held: this.held(spaceId),
      })),
    );
  }

  /** The folders of the spaces that sync (enabled and pulled at least once), absolute. */
  syncedFolders(): { spaceId: string; root: string }[] {
    return this.spaces
      .listSpaces()
      .filter((space) => space.removedAt === null && space.enabled && space.syncedRevision !== null)
      .map((space) => ({
        spaceId: space.id,
        root: resolveInside(this.folder, ...space.folderPath.split('/')),
      }));
  }

  status(): SpaceStatus[] {
    const organizations = new Map(this.spaces.listOrganizations().map((org) => [org.id, org]));
    const result: SpaceStatus[] = [];
    for (const space of this.spaces.listSpaces()) {
      const problems = this.problems.list(space.id);
      if (space.removedAt !== null && problems.length === 0) continue;
      const conflicts = this.conflictStore.open(space.id);
      result.push({
        id: space.id,
        organizationId: space.organizationId,
        organization: organizations.get(space.organizationId)?.title ?? space.organizationId,
        title: space.title,
        folder: space.folderPath,
        enabled: space.enabled,
        state: stateOf(space),
        revision: space.syncedRevision,
        remoteRevision: space.remoteRevision,
        pages: this.content.pageCount(space.id),
        lastSync: space.lastSyncAt,
        errors: [
          ...(space.lastError !== null ? [space.lastError] : []),
          ...problems.map((problem) => problem.message),
          ...conflicts.map((conflict) => conflict.message),
        ],
        problems,
        conflicts: conflicts.length,
      });
    }
    return result;
  }

  private async runOnce(): Promise<SyncReport> {
    const report = this.newRunReport();
    if (this.stopRequested()) {
      report.finishedAt = this.now();
      return report;
    }
    try {
      await this.assertFolderExists();
      const refresh = await this.refreshSpaces();
      report.errors.push(...refresh.errors);
    } catch (error) {
      report.errors.push(syncErrorOf(error));
      if (error instanceof RemoteUnavailableError) report.offline = true;
      if (isTokenRejected(error)) report.tokenRejected = true;
      this.log('error', 'sync aborted', { error: messageOf(error) });
      report.finishedAt = this.now();
      this.onProgress({ phase: 'done', done: 0, total: 0 });
      return report;
    }

    const all = this.spaces.listSpaces();
    for (const space of all.filter((s) => s.removedAt !== null && this.hasMirror(s))) {
      report.spaces.push(await this.removeSpace(space));
    }
    // Push first: the pull then sees what was pushed as local edits waiting in the working
    // change request (kept), never as files to overwrite. A space that moved on the server since
    // its last pull only queues here and sends after its pull: its working change request may be
    // created from (or hold) the new main, and a local file sent as it is would silently replace
    // the remote edits there; the pull merges them first or records a conflict (held back).
    const pushed = new Map<string, SpaceSyncReport>();
    const deferred = new Set<string>();
    if (this.pusher !== undefined) {
      for (const space of all) {
        if (space.removedAt !== null || !space.enabled || space.syncedRevision === null) continue;
        if (this.stopRequested()) break;
        const moved =
          space.remoteRevision !== null && space.remoteRevision !== space.syncedRevision;
        if (moved) deferred.add(space.id);
        pushed.set(space.id, await this.pushSpace(space, moved ? { drain: false } : {}));
      }
    }
    let current = all;
    const movedMeanwhile = [...pushed.values()].filter((pushedSpace) => pushedSpace.mainMoved);
    if (movedMeanwhile.length > 0 && !this.stopRequested()) {
      // Main moved between the listing and the creation of a working change request: list again
      // so that this run pulls it, then sends the edits (see OutboxDrainer's expectedBase).
      const refresh = await this.refreshSpaces();
      report.errors.push(...refresh.errors);
      for (const moved of movedMeanwhile) deferred.add(moved.spaceId);
      current = this.spaces.listSpaces();
    }
    const due = current.filter(
      (space) =>
        space.removedAt === null &&
        space.enabled &&
        space.remoteRevision !== null &&
        (space.remoteRevision !== space.syncedRevision || this.downloadsFailed(space.id)),
    );
    for (const space of due) {
      if (this.stopRequested()) break;
      const spaceReport = await this.syncSpace(space, pushed.get(space.id), deferred.has(space.id));
      pushed.delete(space.id);
      report.spaces.push(spaceReport);
    }
    for (const spaceReport of pushed.values()) {
      const busy =
        (spaceReport.pushed ?? 0) > 0 ||
        (spaceReport.queued ?? 0) > 0 ||
        spaceReport.problems.length > 0 ||
        spaceReport.written.length > 0 ||
        spaceReport.error !== undefined;
      if (busy) report.spaces.push(spaceReport);
    }
    for (const space of report.spaces) {
      report.filesWritten += space.written.length;
      report.filesRemoved += space.removed.length;
      if (space.offline) report.offline = true;
    }
    report.finishedAt = this.now();
    this.markChecked(report);
    this.onProgress({ phase: 'done', done: due.length, total: due.length });
    return report;
  }

  /**
   * A run that listed every organization has checked each synced space it did not fail on: its
   * last sync moves even when nothing was pulled (the folder is known to be current then).
   */
  private markChecked(report: SyncReport): void {
    if (report.errors.length > 0 || report.offline || this.stopRequested()) return;
    const failed = new Set(
      report.spaces.filter((space) => space.error !== undefined).map((space) => space.spaceId),
    );
    for (const space of this.spaces.listSpaces()) {
      if (space.removedAt !== null || !space.enabled || space.syncedRevision === null) continue;
      if (failed.has(space.id) || space.remoteRevision !== space.syncedRevision) continue;
      this.spaces.markChecked(space.id, report.finishedAt);
    }
  }

  private recordListing(
    organizations: readonly RemoteOrganization[],
    listed: ReadonlyMap<string, readonly RemoteSpace[]>,
    firstListing: boolean,
  ): { added: string[]; removed: string[] } {
    const now = this.now();
    const known = new Map(this.spaces.listOrganizations().map((org) => [org.id, org]));
    const orgFolders = new NameAllocator({ reserved: [] });
    for (const org of known.values()) orgFolders.reserve(org.folderName);
    organizations.forEach((org, position) => {
      if (known.has(org.id)) {
        this.spaces.updateOrganization({ id: org.id, title: org.title, position });
      } else {
        const folderName = orgFolders.allocate({ stem: org.title });
        this.spaces.insertOrganization({ id: org.id, title: org.title, folderName, position });
      }
    });
    const present = new Set(organizations.map((org) => org.id));
    // An empty list while spaces are known is more likely a wrong token than a user who left
    // every organization: never treat it as a removal of everything.
    const trustMissing = organizations.length > 0;
    const removed: string[] = [];
    if (trustMissing) {
      for (const org of known.values()) {
        if (present.has(org.id)) continue;
        this.spaces.markOrganizationRemoved(org.id, now);
        for (const space of this.spaces.listSpaces(org.id)) {
          if (space.removedAt === null) {
            this.spaces.markSpaceRemoved(space.id, now);
            removed.push(space.id);
          }
        }
      }
    }

    const total = [...listed.values()].reduce((n, spaces) => n + spaces.length, 0);
    const enableNew = firstListing && total < AUTO_ENABLE_SPACE_LIMIT;
    const added: string[] = [];
    const allSpaces = this.spaces.listSpaces();
    const byId = new Map(allSpaces.map((space) => [space.id, space]));
    for (const [organizationId, spaces] of listed) {
      const org = this.spaces.getOrganization(organizationId)!;
      const spaceFolders = new NameAllocator({ reserved: [] });
      for (const space of allSpaces) {
        if (path.posix.dirname(space.folderPath) === org.folderName) {
          spaceFolders.reserve(path.posix.basename(space.folderPath));
        }
      }
      spaces.forEach((remote, position) => {
        const listing = {
          id: remote.id,
          organizationId,
          title: remote.title,
          emoji: remote.emoji ?? null,
          parentId: remote.parent ?? null,
          position,
          remoteRevision: remote.revision,
        };
        if (byId.has(remote.id)) {
          this.spaces.updateSpaceListing(listing);
        } else {
          const folderName = spaceFolders.allocate({ stem: remote.title });
          this.spaces.insertSpace({
            ...listing,
            folderPath: `${org.folderName}/${folderName}`,
            enabled: enableNew,
            discoveredAt: now,
          });
          added.push(remote.id);
        }
      });
      const ids = new Set(spaces.map((space) => space.id));
      for (const space of this.spaces.listSpaces(organizationId)) {
        if (!ids.has(space.id) && space.removedAt === null) {
          this.spaces.markSpaceRemoved(space.id, now);
          removed.push(space.id);
        }
      }
    }
    if (firstListing) this.state.set(SPACES_LISTED_KEY, now);
    return { added, removed };
  }

  /** Files in open content conflicts (path → local hash): never pushed until resolved. */
  private held(spaceId: string): Map<string, string | null> {
    return new Map(
      this.conflictStore
        .open(spaceId)
        .filter((conflict) => !INFORMATIONAL_CONFLICT_KINDS.has(conflict.kind))
        .map((conflict) => [conflict.path, conflict.localHash] as const),
    );
  }

  /**
   * Whether the space's revision on the server differs from the one last pulled (one listing
   * request; true when it cannot be told, so nothing is sent on a guess). pushOnce asks before
   * sending: the working change request may be created from the new main, or the drainer find
   * it merged and create another, and queued files sent as they are would replace the remote
   * edits there without a merge.
   */
  private async movedSincePull(space: CachedSpace): Promise<boolean> {
    try {
      const listed = await this.remote.listSpaces(space.organizationId);
      const remote = listed.find((candidate) => candidate.id === space.id);
      return remote === undefined || remote.revision !== space.syncedRevision;
    } catch (error) {
      // A refused token fails every request to come: the run says so (pushOnce reports it).
      if (isTokenRejected(error)) throw error;
      this.log('warn', 'checking the space revision before a push failed', {
        space: space.id,
        error: messageOf(error),
      });
      return true;
    }
  }

  /**
   * Pushes one space's local edits (see push-space.ts), leaving out files in open conflicts.
   * `drain: false` only queues them. Errors end up in the report.
   */
  private async pushSpace(
    space: CachedSpace,
    options: { drain?: boolean; placeAgainstServer?: boolean } = {},
  ): Promise<SpaceSyncReport> {
    const report = emptyReport(space);
    try {
      const spaceRoot = resolveInside(this.folder, ...space.folderPath.split('/'));
      const result = await this.pusher!.push(space, spaceRoot, {
        ...options,
        held: this.held(space.id),
        ...(this.signal ? { signal: this.signal } : {}),
      });
      report.queued = result.queued;
      report.pushed = result.pushed;
      if (result.stopped === 'offline') report.offline = true;
      if (result.stopped === 'stopped') report.stopped = true;
      if (result.stopped === 'moved') report.mainMoved = true;
      report.written.push(...result.written);
      for (const problem of result.problems) {
        this.problem(report, space, problem.kind, problem.path, problem.pageId, problem.message);
      }
      const now = this.now();
      this.db.transaction(() => {
        // Each push re-evaluates the space's push problems: those not seen again are resolved.
        for (const existing of this.problems.list(space.id)) {
          if (PUSH_PROBLEM_KINDS.has(existing.kind)) this.problems.remove(existing.id);
        }
        for (const problem of report.problems) {
          this.problems.add({ ...problem, spaceId: space.id, createdAt: now });
        }
      })();
      this.log('info', 'space pushed', {
        space: space.id,
        queued: result.queued,
        pushed: result.pushed,
        stopped: result.stopped,
      });
    } catch (error) {
      report.error = syncErrorOf(error);
      if (error instanceof RemoteUnavailableError) report.offline = true;
      this.log('error', 'space push failed', { space: space.id, error: report.error });
    }
    return report;
  }

  /**
   * Mirrors one space at its listed remote revision. Errors end up in the report, not thrown.
   * `drainAfter`: its push only queued (the space moved remotely): sent once pulled.
   */
  private async syncSpace(
    space: CachedSpace,
    pushed?: SpaceSyncReport,
    drainAfter = false,
  ): Promise<SpaceSyncReport> {
    const report = pushed ?? emptyReport(space);
    report.pulled = true;
    try {
      const needsPush = await this.pullSpace(space, report);
      this.log('info', 'space synced', {
        space: space.id,
        revision: report.toRevision,
        written: report.written.length,
        removed: report.removed.length,
      });
      const synced = this.spaces.getSpace(space.id);
      if ((needsPush || drainAfter) && this.pusher !== undefined && synced !== undefined) {
        // Merged files and re-created pages are pushed by this run, not the next one; so are
        // the edits queued before the pull.
        const again = await this.pushSpace(synced);
        report.queued = (report.queued ?? 0) + (again.queued ?? 0);
        report.pushed = (report.pushed ?? 0) + (again.pushed ?? 0);
        report.written.push(...again.written.filter((path) => !report.written.includes(path)));
        // The second push scanned the folder as the pull left it: its push problems replace the
        // first one's (a file no page owned may have gained its owner with the pull).
        report.problems = report.problems.filter(
          (problem) => !PUSH_PROBLEM_KINDS.has(problem.kind),
        );
        const seen = new Set(report.problems.map((problem) => `${problem.kind}\0${problem.path}`));
        for (const problem of again.problems) {
          if (!seen.has(`${problem.kind}\0${problem.path}`)) report.problems.push(problem);
        }
        if (again.offline) report.offline = true;
        if (again.error !== undefined) report.error = again.error;
      }
      if (this.drainer !== undefined && space.syncedRevision !== null && !this.stopRequested()) {
        // Main moved: this device's working change request follows it (one request, only when
        // there is one), so merging it later does not conflict with what was just pulled.
        await this.drainer.followMain(space.id);
      }
    } catch (error) {
      if (error instanceof SyncStopped) {
        // Not a failure: the pull is redone by the next run (its files are in the journal).
        report.stopped = true;
        this.log('info', 'space sync stopped', { space: space.id });
        return report;
      }
      report.error = syncErrorOf(error);
      if (error instanceof RemoteUnavailableError) report.offline = true;
      this.spaces.setError(space.id, report.error.message);
      this.log('error', 'space sync failed', { space: space.id, error: report.error });
    }
    return report;
  }

  /** Returns whether the pull left something to push (a merged file, a page to re-create). */
  private async pullSpace(space: CachedSpace, report: SpaceSyncReport): Promise<boolean> {
    // Files this run's push rewrote (read-back) are pushed edits, not pulled content.
    const pushWritten = new Set(report.written);
    const revisionId = space.remoteRevision!;
    this.onProgress({ phase: 'fetching', space: space.id, done: 0, total: 1 });
    const revision = await this.fetchRevision(space.id, revisionId);
    this.onProgress({ phase: 'fetching', space: space.id, done: 1, total: 1 });
    const layout = spaceLayout(revision);

    const spaceRoot = resolveInside(this.folder, ...space.folderPath.split('/'));
    const folderExisted = (await lstatOrNull(spaceRoot)) !== null;
    await ensureDir(spaceRoot, { root: this.folder });
    await this.removeStaleTemps(spaceRoot);
    if (folderExisted) await this.followPlacedPages(space.id, spaceRoot, layout);

    // A space folder deleted as a whole is mirrored afresh: pushing the removal of every page
    // of a space from one folder deletion would be too destructive to infer.
    const indexEntries = folderExisted ? this.index.entries(space.id) : [];
    const byPath = new Map(indexEntries.map((entry) => [entry.path, entry]));
    const byPage = new Map(
      indexEntries.filter((e) => e.pageId !== null).map((e) => [e.pageId!, e] as const),
    );
    const pending = this.index.pendingWrites(space.id);
    const cachedFiles = new Map(this.content.files(space.id).map((file) => [file.id, file]));
    const remoteFiles = new Map(revision.files.map((file) => [file.id, file]));
    // Edits queued or pushed but not in this revision yet are local edits: kept, never replaced.
    const held = new Set(this.edits.list(space.id).map((edit) => edit.path));
    const inspect = async (relativePath: string): Promise<LocalState> => {
      const local = await this.inspect(
        spaceRoot,
        relativePath,
        byPath.get(relativePath),
        pending.get(relativePath),
      );
      return local.kind === 'ours' && held.has(relativePath)
        ? { kind: 'foreign', hash: local.hash, stats: local.stats }
        : local;
    };
    // Both-changed files: merged, or recorded as conflicts (see pull-conflicts.ts).
    const localEdits = this.edits.list(space.id);
    let rendered: Map<string, string> | undefined;
    const renderedBase = () => (rendered ??= layoutTexts(this.content.loadRevision(space.id)));
    const titles = pageTitles(revision.pages);
    const conflicts = new PullConflicts({
      spaceId: space.id,
      spaceRoot,
      store: this.conflictStore,
      texts: this.texts,
      edits: this.edits,
      outbox: this.outbox,
      localEdits,
      baseText: (hash) => this.texts.get(hash) ?? renderedBase().get(hash),
      title: (pageId) =>
        (pageId === null ? undefined : titles.get(pageId)) ??
        pageTitles(this.content.loadRevision(space.id)?.pages ?? []).get(pageId ?? '') ??
        '',
      report: (kind, problemPath, pageId, message) =>
        this.problem(report, space, kind, problemPath, pageId, message),
    });
    /** Text files of the revision by hash: the bases the next pull merges against. */
    const syncedTexts = new Map<string, string>();

    const layoutPaths = new Set(layout.map((entry) => entry.path));
    /** The new index, by path. */
    const next = new Map<string, FileIndexEntry>();
    /** Old paths that stay (a locally edited page, moved remotely, kept where it is). */
    const retained = new Set<string>();
    const writes: PlannedWrite[] = [];
    const renames: { from: string; to: string; entry: FileIndexEntry }[] = [];
    const fileHashes = new Map<string, string>();

    // Files this device uploaded, by the server's id: their bytes are known without a download.
    const uploads = uploadedHashes(localEdits);
    // A folder this home has never synced (a new home on it): its page files that are at no
    // page's path, by hash, to be matched with pages whose own path is empty.
    let strays: Promise<Map<string, string[]>> | undefined;
    const strayPageFiles = () =>
      (strays ??=
        space.syncedRevision === null && folderExisted
          ? this.unindexedPageFiles(spaceRoot, layoutPaths)
          : Promise.resolve(new Map<string, string[]>()));

    for (const entry of layout) {
      const base = byPath.get(entry.path);
      const target = targetOf(entry, cachedFiles, remoteFiles, uploads);

      // A page that moved: its old file decides what happens to the new one.
      const old = entry.pageId !== undefined ? byPage.get(entry.pageId) : undefined;
      if (old !== undefined && old.path !== entry.path && !layoutPaths.has(old.path)) {
        const oldLocal = await inspect(old.path);
        if (oldLocal.kind === 'foreign') {
          const newLocal = await inspect(entry.path);
          if (target.hash === old.contentHash && newLocal.kind === 'missing') {
            // Moved remotely, edited locally, content unchanged remotely: move the edited file.
            renames.push({ from: old.path, to: entry.path, entry: { ...old, path: entry.path } });
            next.set(entry.path, { ...old, ...indexFields(entry), path: entry.path });
          } else {
            retained.add(old.path);
            next.set(old.path, { ...old, ...indexFields(entry), path: old.path });
            if (newLocal.kind === 'missing' && entry.text !== undefined && oldLocal.hash !== '') {
              // Moved and changed remotely, edited locally: merged into the page's new path.
              await conflicts.planMerge(entry, old, old.path, oldLocal.hash, {
                writePath: entry.path,
              });
            } else {
              conflicts.recordUnmerged(
                entry,
                old.path,
                oldLocal.hash,
                `${old.path} was edited locally and the page changed remotely (now ${entry.path}); the local file was kept and the remote version not written`,
              );
            }
          }
          continue;
        }
      }

      if (target.data !== undefined && target.hash !== undefined) {
        syncedTexts.set(target.hash, target.data);
      }
      const local = await inspect(entry.path);
      if (local.kind === 'ours' && local.hash === target.hash) {
        next.set(entry.path, indexEntry(entry, local.hash, local.stats));
        if (entry.fileId !== undefined) fileHashes.set(entry.fileId, local.hash);
        continue;
      }
      if (local.kind === 'foreign') {
        if (target.hash !== undefined && local.hash === target.hash) {
          // Already what the server has (e.g. the same edit made on both sides).
          next.set(entry.path, indexEntry(entry, local.hash, local.stats));
          if (entry.fileId !== undefined) fileHashes.set(entry.fileId, local.hash);
          continue;
        }
        if (base === undefined) {
          if (target.hash === undefined && entry.kind === 'asset' && local.hash !== '') {
            // Neither side's bytes are known (a new home on an existing folder): the download
            // decides (see writeOne) whether the file is adopted or a conflict.
            writes.push({ entry, hash: undefined, data: undefined });
          } else {
            const rebased = this.unsyncedFileDiffers(
              report,
              space,
              conflicts,
              localEdits,
              entry,
              local.hash,
            );
            if (rebased !== undefined) next.set(entry.path, rebased);
          }
          continue;
        }
        if (target.hash === base.contentHash) {
          // Edited locally, unchanged remotely: a local change waiting to be pushed.
          next.set(entry.path, { ...base, ...indexFields(entry) });
          if (entry.fileId !== undefined) fileHashes.set(entry.fileId, base.contentHash);
          continue;
        }
        if (target.hash === undefined && entry.kind === 'asset') {
          // The remote file changed and must be downloaded before it can be compared.
          writes.push({ entry, hash: undefined, data: undefined });
          continue;
        }
        next.set(entry.path, { ...base, ...indexFields(entry) });
        if (local.hash === '') {
          conflicts.recordUnmerged(
            entry,
            entry.path,
            local.hash,
            `${entry.path} is not a file but the page changed remotely; the remote version was not written`,
          );
        } else if (entry.text !== undefined) {
          await conflicts.planMerge(entry, base, entry.path, local.hash);
        } else {
          conflicts.recordAsset(entry, local.hash);
        }
        continue;
      }
      if (local.kind === 'missing' && base === undefined && entry.kind === 'page' && target.hash) {
        const elsewhere = (await strayPageFiles()).get(target.hash)?.shift();
        if (elsewhere !== undefined) {
          // The page's file, moved before this home knew the folder: indexed where the page is,
          // so the push sends the move instead of writing it back here and a second page there.
          next.set(entry.path, {
            ...indexFields(entry),
            path: entry.path,
            contentHash: target.hash,
            size: -1,
            mtimeMs: -1,
          });
          continue;
        }
      }
      if (local.kind === 'missing' && base !== undefined && target.hash === base.contentHash) {
        // Deleted locally, unchanged remotely: a local deletion waiting to be pushed.
        next.set(entry.path, { ...base, ...indexFields(entry) });
        continue;
      }
      if (local.kind === 'missing' && base !== undefined && entry.kind === 'page') {
        const moved = localEdits.find(
          (edit) =>
            edit.pageId === entry.pageId && edit.contentHash !== null && edit.path !== entry.path,
        );
        if (moved !== undefined && entry.text !== undefined) {
          // Moved locally, changed remotely: the moved file is the local version, merged there.
          next.set(entry.path, { ...base, ...indexFields(entry) });
          const movedLocal = await inspect(moved.path);
          if (movedLocal.kind !== 'missing' && movedLocal.hash !== '') {
            await conflicts.planMerge(entry, base, moved.path, movedLocal.hash);
          }
          continue;
        }
        // Deleted locally, edited remotely: the remote edit wins (written below).
        conflicts.deletedLocally(entry);
      }
      writes.push({ entry, hash: target.hash, data: target.data });
    }

    // Remote deletions (and the old paths of moved pages).
    const renamed = new Set(renames.map((move) => move.from));
    const removals: string[] = [];
    for (const entry of indexEntries) {
      if (layoutPaths.has(entry.path) || retained.has(entry.path)) continue;
      if (renamed.has(entry.path)) continue;
      const local = await inspect(entry.path);
      if (local.kind === 'foreign' && entry.kind === 'page' && entry.pageId !== null) {
        if (local.hash !== '') {
          // The edit wins: kept, and pushed again as a new page.
          conflicts.deletedRemotely(entry, local.hash);
          continue;
        }
      }
      if (local.kind === 'foreign') {
        const what = entry.pageId !== null ? 'page' : 'file';
        this.problem(
          report,
          space,
          'kept-deleted',
          entry.path,
          entry.pageId,
          `The ${what} of ${entry.path} was deleted remotely, but the file was edited locally: it was kept`,
        );
        continue;
      }
      if (local.kind === 'ours') removals.push(entry.path);
    }
    // Files a killed sync wrote but never recorded, for pages gone since: still the engine's own.
    for (const pendingPath of pending.keys()) {
      if (layoutPaths.has(pendingPath) || byPath.has(pendingPath)) continue;
      if ((await inspect(pendingPath)).kind === 'ours') removals.push(pendingPath);
    }

    const total = writes.length + removals.length + renames.length;
    let done = 0;
    const tick = () => this.onProgress({ phase: 'writing', space: space.id, done: ++done, total });
    this.onProgress({ phase: 'writing', space: space.id, done, total });
    const writeOne = async (entry: LayoutEntry, data: string | Uint8Array, hash: string) => {
      const local = await inspect(entry.path);
      if (local.kind !== 'missing' && local.hash === hash) {
        // Already there (a downloaded asset whose bytes did not change, say).
        next.set(entry.path, indexEntry(entry, hash, local.stats));
        if (entry.fileId !== undefined) fileHashes.set(entry.fileId, hash);
        return;
      }
      if (local.kind === 'foreign') {
        // Edited since the plan was made (or an asset found to differ once downloaded).
        const base = byPath.get(entry.path);
        if (base !== undefined) next.set(entry.path, { ...base, ...indexFields(entry) });
        if (base === undefined) {
          const rebased = this.unsyncedFileDiffers(
            report,
            space,
            conflicts,
            localEdits,
            entry,
            local.hash,
          );
          if (rebased !== undefined) next.set(entry.path, rebased);
        } else if (entry.kind === 'asset' && local.hash !== '') {
          conflicts.recordAsset(entry, local.hash);
        } else {
          conflicts.recordUnmerged(
            entry,
            entry.path,
            local.hash,
            `${entry.path} was edited locally while the sync ran and changed remotely; the local file was kept and the remote version not written`,
          );
        }
        return;
      }
      const absolute = resolveInside(spaceRoot, entry.path);
      await ensureDir(path.dirname(absolute), { root: spaceRoot });
      await atomicWriteFile(absolute, data, { root: spaceRoot });
      next.set(entry.path, indexEntry(entry, hash, await stat(absolute)));
      if (entry.fileId !== undefined) fileHashes.set(entry.fileId, hash);
      report.written.push(entry.path);
    };

    // Journal the writes before the first byte lands, so a crash cannot make them look local.
    const texts = writes.filter((write) => write.data !== undefined);
    this.index.addPendingWrites(
      space.id,
      texts.map((write) => ({ path: write.entry.path, contentHash: write.hash! })),
    );
    for (const write of texts) {
      await writeOne(write.entry, write.data!, write.hash!);
      tick();
    }
    // Assets one at a time (download, journal, write), so large files are never all in memory.
    // An unreachable server fails the space (what was written is journaled and recognised); a
    // file the server cannot serve is one problem, and the rest of the space syncs.
    for (const write of writes.filter((w) => w.data === undefined)) {
      // Stopped: what is written is journaled, and the pull is redone like after a crash.
      if (this.stopRequested()) throw new SyncStopped();
      const bytes = await this.download(report, space, write.entry);
      if (bytes === undefined) {
        const base = byPath.get(write.entry.path);
        if (base !== undefined)
          next.set(write.entry.path, { ...base, ...indexFields(write.entry) });
        tick();
        continue;
      }
      const hash = contentHash(bytes);
      this.index.addPendingWrites(space.id, [{ path: write.entry.path, contentHash: hash }]);
      await writeOne(write.entry, bytes, hash);
      tick();
    }
    const merges = await conflicts.writeMerges(
      async (relativePath) => {
        const local = await inspect(relativePath);
        return local.kind === 'missing' ? undefined : local.hash;
      },
      (relativePath) => this.removeEmptyParents(spaceRoot, relativePath),
    );
    for (const merged of merges.index) next.set(merged.path, merged);
    for (const removedPath of merges.removed) next.delete(removedPath);
    report.removed.push(...merges.removed);
    report.written.push(...conflicts.merged);
    if (conflicts.merged.length > 0) report.merged = [...conflicts.merged];
    for (const move of renames) {
      const from = resolveInside(spaceRoot, move.from);
      const to = resolveInside(spaceRoot, move.to);
      await ensureDir(path.dirname(to), { root: spaceRoot });
      await assertNoSymlinkOnPath(spaceRoot, from);
      await assertNoSymlinkOnPath(spaceRoot, to);
      await rename(from, to);
      await fsyncDirectory(path.dirname(to));
      await fsyncDirectory(path.dirname(from));
      await this.removeEmptyParents(spaceRoot, move.from);
      tick();
    }
    for (const removal of removals) {
      await atomicRemove(resolveInside(spaceRoot, removal), { root: spaceRoot });
      await this.removeEmptyParents(spaceRoot, removal);
      report.removed.push(removal);
      tick();
    }

    // Everything is on disk: record it in one transaction.
    const now = this.now();
    this.db.transaction(() => {
      this.index.replaceSpace(space.id, [...next.values()]);
      this.content.replaceSpaceContent(space.id, revision, fileHashes, now);
      this.spaces.markSynced(space.id, revisionId, now);
      this.index.clearPending(space.id);
      this.moveEditRows(space.id, renames);
      this.edits.settle(
        space.id,
        next,
        new Set(
          report.written.filter(
            // A merged file is a local edit still to push, not pulled content.
            (written) => !pushWritten.has(written) && !conflicts.merged.includes(written),
          ),
        ),
      );
      // Conflicts are listed by the conflict store until resolved, not as sync problems.
      const conflictPaths = conflicts.conflictPaths;
      this.recordProblems(
        space.id,
        report.problems.filter(
          (problem) =>
            !PUSH_PROBLEM_KINDS.has(problem.kind) &&
            !(problem.path !== null && conflictPaths.has(problem.path)),
        ),
        now,
      );
      conflicts.commit(now);
      this.texts.putAll(
        [...next.values()].flatMap((entry) => {
          const text = syncedTexts.get(entry.contentHash) ?? rendered?.get(entry.contentHash);
          return text === undefined ? [] : [[entry.contentHash, text] as const];
        }),
      );
      this.texts.collect();
    })();
    report.toRevision = revisionId;
    return conflicts.needsPush;
  }

  /**
   * Markdown files of a space folder outside every layout path (hidden and ignored ones left
   * out), by content hash: what a home that never synced the folder cannot place by path.
   */
  private async unindexedPageFiles(
    spaceRoot: string,
    layoutPaths: ReadonlySet<string>,
  ): Promise<Map<string, string[]>> {
    const byHash = new Map<string, string[]>();
    // Editor temp files are never a page's file (the user's own patterns only narrow this).
    const ignored = createIgnoreRules();
    const visit = async (relativeDir: string): Promise<void> => {
      const absolute = relativeDir === '' ? spaceRoot : resolveInside(spaceRoot, relativeDir);
      for (const item of await readdir(absolute, { withFileTypes: true })) {
        const relative = relativeDir === '' ? item.name : `${relativeDir}/${item.name}`;
        if (item.name.startsWith('.') || ignored(relative, item.isDirectory())) continue;
        if (item.isDirectory()) await visit(relative);
        else if (item.isFile() && item.name.endsWith('.md') && !layoutPaths.has(relative)) {
          const hash = contentHash(await readFile(resolveInside(spaceRoot, relative)));
          byHash.set(hash, [...(byHash.get(hash) ?? []), relative]);
        }
      }
    };
    await visit('');
    return byHash;
  }

  /**
   * An edited file the pull moved with its page keeps its edit row: left at the old path, the
   * next push would take the page's file for deleted there (and delete the page).
   */
  private moveEditRows(spaceId: string, renames: readonly { from: string; to: string }[]): void {
    if (renames.length === 0) return;
    const byPath = new Map(this.edits.list(spaceId).map((edit) => [edit.path, edit]));
    for (const move of renames) {
      const edit = byPath.get(move.from);
      if (edit === undefined) continue;
      this.edits.remove(spaceId, move.from);
      this.edits.put(spaceId, { ...edit, path: move.to });
    }
  }

  /**
   * A file at a path the engine has no synced version of (a new home on an existing folder, an
   * upload changed after it was sent) differs from the remote one. Nothing says which side is
   * newer, so it is a conflict: the local file is kept as it is and the remote version saved for
   * `quire resolve`. A page this device created and edited again since is its pending edit: the
   * remote version becomes its base (returned, to index), and the push sends the file. A path
   * that holds another page's or file's local edit (a page created locally where a remote page
   * now lands), or a folder, is reported as taken instead.
   */
  private unsyncedFileDiffers(
    report: SpaceSyncReport,
    space: CachedSpace,
    conflicts: PullConflicts,
    localEdits: readonly LocalEdit[],
    entry: LayoutEntry,
    localHash: string,
  ): FileIndexEntry | undefined {
    const edit = localEdits.find((candidate) => candidate.path === entry.path);
    if (edit?.contentHash && entry.text !== undefined && editIsOf(edit, entry)) {
      // Never the size and mtime of a real file: the file is a local edit on top of it.
      const remoteHash = contentHash(entry.text);
      return {
        ...indexFields(entry),
        path: entry.path,
        contentHash: remoteHash,
        size: -1,
        mtimeMs: -1,
      };
    }
    if (localHash !== '' && (edit === undefined || editIsOf(edit, entry))) {
      conflicts.recordUnmerged(
        entry,
        entry.path,
        localHash,
        `${entry.path} differs from the remote version and was never synced from it, so the two cannot be merged: the local file was kept as it is (see \`quire resolve\`)`,
      );
      return undefined;
    }
    this.problem(
      report,
      space,
      'path-taken',
      entry.path,
      entry.pageId ?? null,
      `${entry.path} exists but was not written by Quire; the remote version was not written`,
    );
    return undefined;
  }

  /** Whether the space's last pull left files it could not download: the next sync tries again. */
  private downloadsFailed(spaceId: string): boolean {
    return this.problems.list(spaceId).some((problem) => problem.kind === 'download-failed');
  }

  /**
   * An asset's bytes, or undefined when the server cannot serve this one file (not found, an
   * unsafe download URL, too large, a 5xx...): reported as one problem on its path, the rest of
   * the space goes on and the next sync pulls the space again to retry it. An unreachable server,
   * rate limiting or a refused token still fail the run (the pull is redone).
   */
  private async download(
    report: SpaceSyncReport,
    space: CachedSpace,
    entry: LayoutEntry,
  ): Promise<Uint8Array | undefined> {
    const file = entry.file!;
    try {
      return await this.remote.downloadFile(file);
    } catch (error) {
      if (
        isTokenRejected(error) ||
        (error instanceof RemoteUnavailableError && !serverFault(error))
      ) {
        throw error;
      }
      this.problem(
        report,
        space,
        'download-failed',
        entry.path,
        null,
        `${entry.path} was not written${named(entry.path, file.name)}: ${messageOf(error)}`,
      );
      return undefined;
    }
  }

  /** The revision with every document page's Markdown (cached bodies fill in unchanged pages). */
  private async fetchRevision(spaceId: string, revisionId: string): Promise<RemoteRevision> {
    const revision = await this.remote.getRevision(
      spaceId,
      revisionId,
      this.content.knownPages(spaceId),
    );
    const fill = (pages: RemotePage[]) => {
      for (const page of pages) {
        if (page.type === 'document' && page.markdown === undefined) {
          const cached = this.content.pageMarkdown(spaceId, page.id);
          if (cached === undefined) {
            throw new Error(`Page ${page.id} came without its Markdown and is not cached`);
          }
          page.markdown = cached;
        }
        fill(page.pages);
      }
    };
    fill(revision.pages);
    return revision;
  }

  /** Cleans up a space removed remotely: unchanged files go, locally edited ones stay. */
  private async removeSpace(space: CachedSpace): Promise<SpaceSyncReport> {
    const report: SpaceSyncReport = { ...emptyReport(space), toRevision: null, removedSpace: true };
    try {
      const spaceRoot = resolveInside(this.folder, ...space.folderPath.split('/'));
      if ((await lstatOrNull(spaceRoot)) !== null) {
        await this.removeStaleTemps(spaceRoot);
        const pending = this.index.pendingWrites(space.id);
        for (const entry of this.index.entries(space.id)) {
          const local = await this.inspect(spaceRoot, entry.path, entry, pending.get(entry.path));
          if (local.kind === 'foreign') {
            this.problem(
              report,
              space,
              'kept-deleted',
              entry.path,
              entry.pageId,
              `The space ${space.title} was deleted remotely, but ${entry.path} was edited locally: it was kept`,
            );
          } else if (local.kind === 'ours') {
            await atomicRemove(resolveInside(spaceRoot, entry.path), { root: spaceRoot });
            await this.removeEmptyParents(spaceRoot, entry.path);
            report.removed.push(entry.path);
          }
        }
        await removeDirIfEmpty(this.folder, spaceRoot);
      }
      const now = this.now();
      this.db.transaction(() => {
        this.index.clearSpace(space.id);
        this.edits.clearSpace(space.id);
        this.content.clearSpace(space.id);
        if (report.problems.length === 0) {
          this.spaces.deleteSpace(space.id);
        } else {
          this.spaces.forgetMirror(space.id);
          this.recordProblems(space.id, report.problems, now);
        }
      })();
    } catch (error) {
      report.error = syncErrorOf(error);
      this.spaces.setError(space.id, report.error.message);
    }
    return report;
  }

  /**
   * Classifies the file at `relativePath`. Unchanged size and mtime since the engine's write mean
   * its bytes are the indexed ones without reading them.
   */
  private async inspect(
    spaceRoot: string,
    relativePath: string,
    base: FileIndexEntry | undefined,
    pending: ReadonlySet<string> | undefined,
  ): Promise<LocalState> {
    const absolute = resolveInside(spaceRoot, relativePath);
    const stats = await lstatOrNull(absolute);
    if (stats === null) return { kind: 'missing' };
    if (!stats.isFile()) {
      // A folder or a link where a file belongs is never the engine's: leave it alone.
      return { kind: 'foreign', hash: '', stats };
    }
    if (base !== undefined && stats.size === base.size && stats.mtimeMs === base.mtimeMs) {
      return { kind: 'ours', hash: base.contentHash, stats };
    }
    await assertNoSymlinkOnPath(spaceRoot, absolute);
    const hash = contentHash(await readFile(absolute));
    if (hash === base?.contentHash || pending?.has(hash)) return { kind: 'ours', hash, stats };
    return { kind: 'foreign', hash, stats };
  }

  /**
   * A page created or moved locally can land at another path than its file (its folder gained
   * the page's children, a parent moved out of a deleted page): once the revision holds the
   * file's bytes, the file moves to the page's path and its edit row with it, so the pull below
   * finds it there instead of writing a second copy. The rename goes first: a crash before the
   * row moves leaves a file the next push sees as moved to where the server has it (a no-op).
   */
  private async followPlacedPages(
    spaceId: string,
    spaceRoot: string,
    layout: readonly LayoutEntry[],
  ): Promise<void> {
    const layoutPaths = new Set(layout.map((entry) => entry.path));
    const byPage = new Map(
      layout.filter((entry) => entry.pageId !== undefined).map((e) => [e.pageId!, e] as const),
    );
    let open: Promise<boolean> | undefined;
    let queued: Set<string | null> | undefined;
    const queuedPages = () =>
      (queued ??= new Set(this.outbox.pending(spaceId).map((item) => item.pageId)));
    const workingOpen = () =>
      (open ??= this.drainer?.workingChangeRequestOpen(spaceId) ?? Promise.resolve(false));
    for (const edit of this.edits.list(spaceId)) {
      if (edit.kind !== 'page' || edit.pageId === null || edit.contentHash === null) continue;
      const entry = byPage.get(edit.pageId);
      if (entry === undefined || entry.text === undefined || entry.path === edit.path) continue;
      // The revision has the page where the last sync put it. Same bytes there prove nothing
      // for a moved page: its move may not be in the revision yet (still queued, or pushed to a
      // working change request not merged), and moving the file back would undo the user's move
      // (and place what is created in its folder later under the wrong page). Only once the
      // working change request is merged is this where the server put the page (a parent
      // deleted with it lifted it out, say).
      if (this.index.get(spaceId, entry.path)?.pageId === edit.pageId) {
        if (queuedPages().has(edit.pageId) || (await workingOpen())) continue;
      }
      // A row at the page's path blocks the move, unless it is the page's own old path (deleted).
      const atTarget = this.edits.list(spaceId).find((e) => e.path === entry.path);
      if (
        layoutPaths.has(edit.path) ||
        (atTarget !== undefined &&
          (atTarget.contentHash !== null || atTarget.pageId !== edit.pageId))
      ) {
        continue;
      }
      if (contentHash(entry.text) !== edit.contentHash) continue;
      const from = resolveInside(spaceRoot, edit.path);
      const to = resolveInside(spaceRoot, entry.path);
      const fromStats = await lstatOrNull(from);
      if (fromStats === null || !fromStats.isFile() || (await lstatOrNull(to)) !== null) continue;
      await assertNoSymlinkOnPath(spaceRoot, from);
      if (contentHash(await readFile(from)) !== edit.contentHash) continue;
      await ensureDir(path.dirname(to), { root: spaceRoot });
      await assertNoSymlinkOnPath(spaceRoot, to);
      await rename(from, to);
      await fsyncDirectory(path.dirname(to));
      await fsyncDirectory(path.dirname(from));
      await this.removeEmptyParents(spaceRoot, edit.path);
      this.db.transaction(() => {
        this.edits.remove(spaceId, edit.path);
        this.edits.put(spaceId, { ...edit, path: entry.path });
      })();
    }
  }

  /** Deletes temp files a killed write left behind, in every folder of the space. */
  private async removeStaleTemps(spaceRoot: string): Promise<void> {
    const visit = async (directory: string): Promise<void> => {
      await removeStaleTempFiles(directory, { root: spaceRoot });
      for (const entry of await readdir(directory, { withFileTypes: true })) {
        if (entry.isDirectory()) await visit(path.join(directory, entry.name));
      }
    };
    await visit(spaceRoot);
  }

  /** Removes the folders a removal left empty, up to (not including) the space folder. */
  private async removeEmptyParents(spaceRoot: string, relativePath: string): Promise<void> {
    let directory = path.dirname(resolveInside(spaceRoot, relativePath));
    while (directory !== spaceRoot && isWithin(spaceRoot, directory)) {
      if (!(await removeDirIfEmpty(spaceRoot, directory))) return;
      directory = path.dirname(directory);
    }
  }

  /**
   * Records this sync's problems for a space. Conflicts and blocked paths are re-evaluated on
   * every sync of the space, so those not seen again are resolved; a kept file stays reported
   * until the user deals with it (removes it or the space comes back).
   */
  private recordProblems(spaceId: string, problems: readonly ReportedProblem[], now: string): void {
    const seen = new Set(problems.map((problem) => `${problem.kind}\0${problem.path}`));
    for (const existing of this.problems.list(spaceId)) {
      if (
        existing.kind === 'kept-deleted' &&
        existing.path !== null &&
        this.index.get(spaceId, existing.path)
      ) {
        // The path is the engine's again (the page came back): nothing is kept any more.
        this.problems.remove(existing.id);
      } else if (
        existing.kind !== 'kept-deleted' &&
        !PUSH_PROBLEM_KINDS.has(existing.kind) &&
        !seen.has(`${existing.kind}\0${existing.path}`)
      ) {
        this.problems.remove(existing.id);
      }
    }
    for (const problem of problems) this.problems.add({ ...problem, spaceId, createdAt: now });
  }

  private hasMirror(space: CachedSpace): boolean {
    return space.syncedRevision !== null || this.index.entries(space.id).length > 0;
  }

  private problem(
    report: SpaceSyncReport,
    space: CachedSpace,
    kind: SyncProblemKind,
    problemPath: string | null,
    pageId: string | null,
    message: string,
  ): void {
    report.problems.push({ kind, path: problemPath, pageId, message });
    this.log('warn', message, { space: space.id, kind, path: problemPath });
  }

  private async assertFolderExists(): Promise<void> {
    const stats = await lstatOrNull(this.folder);
    if (stats === null || !stats.isDirectory()) {
      // Recreating it could mirror into an unmounted disk's mount point, or "push" mass deletes.
      throw new SyncFolderMissingError(this.folder);
    }
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

/** Text file hash → text, as the engine rendered a (cached) revision. */
function layoutTexts(revision: RemoteRevision | undefined): Map<string, string> {
  const texts = new Map<string, string>();
  if (revision === undefined) return texts;
  try {
    for (const entry of spaceLayout(revision)) {
      if (entry.text !== undefined) texts.set(contentHash(entry.text), entry.text);
    }
  } catch {
    // A cached revision the layout cannot render has no bases to offer: conflicts are recorded.
  }
  return texts;
}

function pageTitles(pages: readonly RemotePage[], titles = new Map<string, string>()) {
  for (const page of pages) {
    titles.set(page.id, page.title);
    pageTitles(page.pages, titles);
  }
  return titles;
}

function stateOf(space: CachedSpace): SpaceState {
  if (space.removedAt !== null) return 'removed';
  if (!space.enabled) return 'disabled';
  if (space.lastError !== null) return 'error';
  if (space.syncedRevision === null) return 'pending';
  return space.syncedRevision === space.remoteRevision ? 'synced' : 'outdated';
}

/** The bytes (or their hash) a layout entry should have on disk, as far as known before fetching. */
function targetOf(
  entry: LayoutEntry,
  cachedFiles: ReadonlyMap<string, { contentHash: string | null } & RemoteFile>,
  remoteFiles: ReadonlyMap<string, RemoteFile>,
  uploads: ReadonlyMap<string, string>,
): { hash: string | undefined; data: string | undefined } {
  if (entry.text !== undefined) return { hash: contentHash(entry.text), data: entry.text };
  // The server keeps an upload's bytes as they were sent.
  const uploaded = entry.fileId !== undefined ? uploads.get(entry.fileId) : undefined;
  if (uploaded !== undefined) return { hash: uploaded, data: undefined };
  const cached = entry.fileId !== undefined ? cachedFiles.get(entry.fileId) : undefined;
  const remote = entry.fileId !== undefined ? remoteFiles.get(entry.fileId) : undefined;
  // Download URLs may carry expiring signatures, so only their path identifies the bytes.
  if (cached?.contentHash && remote && sameFile(cached, remote)) {
    return { hash: cached.contentHash, data: undefined };
  }
  return { hash: undefined, data: undefined };
}

/** Server file id → the hash of the bytes this device uploaded as it (acknowledged uploads). */
function uploadedHashes(edits: readonly LocalEdit[]): Map<string, string> {
  const uploads = new Map<string, string>();
  for (const edit of edits) {
    // '' is a conflict's held-back edit: its bytes are no longer what was sent.
    if (edit.kind === 'asset' && edit.fileId && edit.contentHash) {
      uploads.set(edit.fileId, edit.contentHash);
    }
  }
  return uploads;
}

/** A 5xx for one file (after the client's retries): that file's problem, not an outage. */
function serverFault(error: RemoteUnavailableError): boolean {
  return error.status !== undefined && error.status >= 500;
}

/** ` (the server names it "…")` when the name did not become the file name as it is. */
function named(relativePath: string, name: string): string {
  return path.posix.basename(relativePath) === name ? '' : ` (the server names it "${name}")`;
}

/** Whether a local edit row is about the page or file a layout entry holds. */
function editIsOf(edit: LocalEdit, entry: LayoutEntry): boolean {
  if (edit.kind !== entry.kind) return false;
  if (entry.kind === 'layout') return true;
  if (entry.pageId !== undefined) return edit.pageId === entry.pageId;
  return entry.fileId !== undefined && edit.fileId === entry.fileId;
}

function sameFile(a: RemoteFile, b: RemoteFile): boolean {
  return (
    a.name === b.name &&
    a.size === b.size &&
    a.contentType === b.contentType &&
    urlPath(a.downloadURL) === urlPath(b.downloadURL)
  );
}

function urlPath(url: string): string {
  try {
    const parsed = new URL(url, 'http://relative.invalid');
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

function indexFields(entry: LayoutEntry): Pick<FileIndexEntry, 'kind' | 'pageId' | 'fileId'> {
  return { kind: entry.kind, pageId: entry.pageId ?? null, fileId: entry.fileId ?? null };
}

function indexEntry(entry: LayoutEntry, hash: string, stats: Stats): FileIndexEntry {
  return {
    path: entry.path,
    ...indexFields(entry),
    contentHash: hash,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
  };
}

async function lstatOrNull(target: string): Promise<Stats | null> {
  try {
    return await lstat(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/** rmdir only succeeds on an empty folder, so nothing but empty folders can go. */
async function removeDirIfEmpty(root: string, directory: string): Promise<boolean> {
  assertInside(root, directory);
  await assertNoSymlinkOnPath(root, directory);
  try {
    await rmdir(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') return false;
    throw error;
  }
  await fsyncDirectory(path.dirname(directory));
  return true;
}

function isWithin(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A space's report before anything happened to it. */
function emptyReport(space: CachedSpace): SpaceSyncReport {
  return {
    spaceId: space.id,
    title: space.title,
    folder: space.folderPath,
    fromRevision: space.syncedRevision,
    toRevision: space.syncedRevision,
    written: [],
    removed: [],
    problems: [],
  };
}
