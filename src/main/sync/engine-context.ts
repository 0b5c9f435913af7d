import { hostname } from 'node:os';
import { ContentCache } from '../cache/content-cache';
import { checkoutAwareOutbox, checkoutAwareWorkspace } from '../checkouts/checkout-remotes';
import { CheckoutStore } from '../checkouts/checkout-store';
import { FileIndex } from '../cache/file-index';
import { LocalEdits } from '../cache/local-edits';
import type { CacheDb } from '../cache/open-cache-database';
import { SpaceCache, type CachedSpace } from '../cache/space-cache';
import { SyncPause } from '../cache/sync-pause';
import { SyncProblems, type SyncProblemKind } from '../cache/sync-problems';
import { SyncStateStore } from '../cache/sync-state-store';
import { SyncedTexts } from '../cache/synced-texts';
import { ConflictStore, INFORMATIONAL_CONFLICT_KINDS } from '../conflicts/conflict-store';
import { createIgnoreRules, type IgnoreRule } from '../local/ignore-rules';
import { resolveInside } from '../mirror/resolve-inside';
import { Outbox } from '../outbox/outbox';
import { OutboxDrainer } from '../outbox/outbox-drainer';
import type { OutboxRemote } from '../outbox/outbox-remote';
import type { Clock, RemoteChangeRequests, RemoteWorkspace, SyncProgress } from '../sync-ports';
import type { CommentSyncOptions } from '../comments/sync-comments';
import { SpacePusher } from './push-space';
import { RefusedChanges } from './refused-changes';
import type { SpaceSyncReport } from './sync-report';

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
  /** Set to mirror the synced spaces' change requests after the pulls (src/main/change-requests). */
  changeRequests?: ChangeRequestMirrorOptions;
  /** Set to send the comment outbox and mirror comments after the pulls (src/main/comments). */
  comments?: CommentSyncOptions;
}

export interface ChangeRequestMirrorOptions {
  remote: RemoteChangeRequests;
  /**
   * Least time between two refreshes of the mirror (default one minute): each costs a list
   * request per organization, and reviews are rarely a matter of seconds.
   */
  intervalMs?: number;
  /**
   * Sends the review actions queued offline (subject, status) before each refresh, so the pull
   * reads them back; returns what the server refused (kept queued, marked, logged here).
   */
  sendQueued?(): Promise<readonly string[]>;
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

/**
 * What the engine's steps share (listing, pull, push, removal, status): the cache tables, the
 * remote, the mirror root and the callbacks. Built once per SyncEngine; nothing in it belongs to
 * one run (see SyncRun).
 */
export interface EngineContext {
  readonly db: CacheDb;
  readonly remote: RemoteWorkspace;
  /** The mirror root, absolute and resolved. */
  readonly folder: string;
  readonly clock: Clock;
  readonly onProgress: (progress: SyncProgress) => void;
  readonly log: SyncLog;
  readonly spaces: SpaceCache;
  readonly content: ContentCache;
  readonly index: FileIndex;
  readonly problems: SyncProblems;
  readonly state: SyncStateStore;
  readonly edits: LocalEdits;
  readonly pauses: SyncPause;
  /** The durable queue of local changes (the pusher's drainer, conflicts and status share it). */
  readonly outbox: Outbox;
  readonly refused: RefusedChanges;
  readonly conflictStore: ConflictStore;
  readonly texts: SyncedTexts;
  /** Which files in the space folders are not synced (editor temp files, hidden files…). */
  readonly ignore: IgnoreRule;
  /** Set when the engine pushes (SyncEngineOptions.push). */
  readonly pusher: SpacePusher | undefined;
  readonly drainer: OutboxDrainer | undefined;
  readonly changeRequests: ChangeRequestMirrorOptions | undefined;
  readonly comments: CommentSyncOptions | undefined;
  /** Change requests checked out into folders (synced like spaces, under keys of their own). */
  readonly checkouts: CheckoutStore;
}

/** The shared state of a SyncEngine over its options (the folder already checked absolute). */
export function createEngineContext(options: SyncEngineOptions, folder: string): EngineContext {
  const db = options.cache;
  const index = new FileIndex(db);
  const content = new ContentCache(db);
  const edits = new LocalEdits(db);
  const state = new SyncStateStore(db);
  const outbox = new Outbox({ db, clock: options.clock });
  const ignore = createIgnoreRules(options.push?.ignorePatterns ?? []);
  const spaces = new SpaceCache(db);
  const checkouts = new CheckoutStore(db);
  const drainer =
    options.push === undefined
      ? undefined
      : createDrainer(options, options.push, { outbox, spaces, checkouts });
  return {
    db,
    remote: checkoutAwareWorkspace(options.remote, (key) => checkouts.spaceIdOf(key)),
    checkouts,
    folder,
    clock: options.clock,
    onProgress: options.onProgress ?? (() => {}),
    log: options.log ?? (() => {}),
    spaces,
    content,
    index,
    problems: new SyncProblems(db),
    state,
    edits,
    pauses: new SyncPause(db, options.clock),
    outbox,
    refused: new RefusedChanges({ db, outbox, edits, index }),
    conflictStore: new ConflictStore(db),
    texts: new SyncedTexts(db),
    ignore,
    drainer,
    changeRequests: options.changeRequests,
    comments: options.comments,
    pusher:
      drainer === undefined
        ? undefined
        : new SpacePusher({
            db,
            index,
            content,
            edits,
            state,
            outbox,
            drainer,
            ignore,
            now: () => options.clock.now(),
          }),
  };
}

function createDrainer(
  options: SyncEngineOptions,
  push: SyncPushOptions,
  tables: { outbox: Outbox; spaces: SpaceCache; checkouts: CheckoutStore },
): OutboxDrainer {
  const { outbox, spaces, checkouts } = tables;
  const subject = push.subject;
  return new OutboxDrainer({
    db: options.cache,
    outbox,
    client: checkoutAwareOutbox(push.remote, (key) => checkouts.spaceIdOf(key)),
    pinned: (key) => checkouts.isCheckout(key),
    deviceName: push.deviceName ?? hostname(),
    clock: options.clock,
    maxOfflineWaits: push.maxOfflineWaits ?? 2,
    expectedBase: (spaceId) => spaces.getSpace(spaceId)?.syncedRevision,
    ...(subject !== undefined ? { subject: () => subject } : {}),
    ...(push.offlineBaseDelayMs !== undefined
      ? { offlineBaseDelayMs: push.offlineBaseDelayMs }
      : {}),
  });
}

/** The clock's time, as the cache records it. */
export function nowOf(ctx: Pick<EngineContext, 'clock'>): string {
  return ctx.clock.now().toISOString();
}

/**
 * Where a space's docs are mirrored, absolute: its folder, or the sub-folder its `.gitbook.yaml`
 * names as `root` (docsRootKey).
 */
export function spaceRootOf(
  ctx: Pick<EngineContext, 'folder' | 'state'>,
  space: CachedSpace,
): string {
  const root = ctx.state.get(docsRootKey(space.id)) ?? '';
  const segments = root.split('/').filter((segment) => segment !== '');
  return resolveInside(spaceFolderOf(ctx, space), ...segments);
}

/** The space's own folder in the mirror, where its `.gitbook.yaml` is. */
export function spaceFolderOf(ctx: Pick<EngineContext, 'folder'>, space: CachedSpace): string {
  return resolveInside(ctx.folder, ...space.folderPath.split('/'));
}

/**
 * Sync-state key of the sub-folder of the space folder the docs are mirrored in (`.gitbook.yaml`'s
 * `root`, `docs/`), when it names one (see gitbook-config-file.ts).
 */
export const docsRootKey = (spaceId: string) => `gitbook-root:${spaceId}`;

/** Sync-state key of the name the space's table of contents is mirrored under (`toc.md`). */
export const summaryNameKey = (spaceId: string) => `gitbook-summary:${spaceId}`;

/** Adds a problem to a space's report, and logs it. */
export function reportProblem(
  ctx: Pick<EngineContext, 'log'>,
  report: SpaceSyncReport,
  kind: SyncProblemKind,
  problemPath: string | null,
  pageId: string | null,
  message: string,
): void {
  report.problems.push({ kind, path: problemPath, pageId, message });
  ctx.log('warn', message, { space: report.spaceId, kind, path: problemPath });
}

/** Files in open content conflicts (path → local hash): never pushed until resolved. */
export function heldFiles(
  ctx: Pick<EngineContext, 'conflictStore'>,
  spaceId: string,
): Map<string, string | null> {
  return new Map(
    ctx.conflictStore
      .open(spaceId)
      .filter((conflict) => !INFORMATIONAL_CONFLICT_KINDS.has(conflict.kind))
      .map((conflict) => [conflict.path, conflict.localHash] as const),
  );
}
