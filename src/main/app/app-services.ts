import type { LocalComments } from '../comments/local-comments';
import type { ReviewNotification } from '../../shared/contract/review';
import type { ActivityEntry, WatchRunSummary } from '../../shared/contract/activity';
import type {
  ChangeRequestDetail,
  ChangeRequestDiff,
  ChangeRequestRef,
  ChangeRequestSummary,
} from '../../shared/contract/change-requests';
import type {
  ConflictListing,
  ConflictResolutionChoice,
  ConflictVersions,
} from '../../shared/contract/conflicts';
import type {
  RefusedChangeListing,
  UnsyncedEditListing,
} from '../../shared/contract/local-changes';
import type { ChangeRequestCheckout } from '../../shared/contract/review';
import type { SpaceList, SpaceStatus, SyncOnceResult } from '../../shared/contract/spaces';
import type { SyncProgress, SyncStatusSnapshot } from '../../shared/contract/sync-status';
import type { QuireConfig, QuireHome } from '../config/quire-home';
import type { ReviewActions } from '../review/review-actions';
import type { RemoteWorkspace, SecretStore } from '../sync-ports';

/**
 * What the application layer is built from, made by a composition root (the CLI's
 * `createQuireServices`, later the desktop app's): the home, its secret store, the HTTP client and
 * the engine. Tests hand in fakes.
 */
export interface AppServices {
  readonly home: QuireHome;
  readonly secrets: SecretStore;
  /**
   * A client for `server` (an origin without `/v1`) that sends `token`. `quick` gives up sooner on
   * an unreachable server, for a login the user is waiting on.
   */
  connect(server: string, token: string, options?: { quick?: boolean }): RemoteWorkspace;
  /** The sync engine over `<home>/cache.db` for this connection. Close it when done. */
  openEngine(options: OpenSessionOptions): Promise<EngineSession>;
}

export interface OpenSessionOptions {
  readonly config: QuireConfig;
  readonly remote: RemoteWorkspace;
  readonly onProgress?: (progress: SyncProgress) => void;
  /** Every line the session adds to the activity log. */
  readonly onActivity?: (entry: ActivityEntry) => void;
  /**
   * For a watcher: a push that finds the server unreachable stops at once (the watcher backs
   * off and retries) instead of waiting inside the run.
   */
  readonly watching?: boolean;
  /** New remote comments on the user's change requests, replies to the user's comments. */
  readonly onNotification?: (notification: ReviewNotification) => void;
  /** A change request's (or a space's, `number` null) comments changed by a sync. */
  readonly onReviewChanged?: (change: { spaceId: string; number: number | null }) => void;
}

/** Runs until `signal` aborts; rejects with a RemoteAuthError (401) once the token is rejected. */
export interface WatchOptions {
  readonly signal: AbortSignal;
  /** Full sync (pull) interval; default 30 s. */
  readonly intervalMs?: number;
  /** Every change of the status model. */
  readonly onStatus?: (status: SyncStatusSnapshot) => void;
  /** After every run. */
  readonly onRun?: (run: WatchRunSummary) => void;
  /** Once the watcher runs: how to ask it for a sync at once. */
  readonly onStarted?: (control: WatchControl) => void;
}

export interface WatchControl {
  syncNow(): void;
}

/** The engine's operations for one connection, in the contract's terms. */
export interface EngineSession {
  /** Reads the space list from the server into the cache and returns it. */
  refreshSpaces(): Promise<SpaceList>;
  /** Throws `UnknownSpaceError` for an id the cache does not know. */
  setSpaceEnabled(spaceId: string, enabled: boolean): Promise<void>;
  /** Throws SyncFailedError when nothing could be pulled at all. */
  syncOnce(): Promise<SyncOnceResult>;
  /** From the cache only, no network. */
  status(): Promise<readonly SpaceStatus[]>;
  /** The status model, from the cache (and a running watcher's runtime state). */
  syncStatus(): Promise<SyncStatusSnapshot>;
  /** Syncs at start, then on every change and every interval, until `options.signal` aborts. */
  watch(options: WatchOptions): Promise<SyncStatusSnapshot>;
  /** Stops pushing local edits until `until` (or resume); edits are still recorded. No network. */
  pause(until?: Date): Promise<void>;
  resume(): Promise<void>;
  /** Whether pushing is paused, and until when (null: until resume). */
  pauseState(): Promise<{ paused: boolean; until: Date | null }>;
  /** Lets the next push of the space delete more than half of its pages. Throws UnknownSpaceError. */
  confirmDeletes(spaceId: string): Promise<void>;
  /** Open conflicts of every space, from the cache only. */
  conflicts(): Promise<readonly ConflictListing[]>;
  /** Base, local and remote versions of an open conflict. Throws UnknownConflictError. */
  conflictVersions(id: number): Promise<ConflictVersions>;
  /** Files changed since the last sync that no push recorded yet (a read-only quick scan). */
  unsyncedEdits(): Promise<readonly UnsyncedEditListing[]>;
  /**
   * Writes the chosen version into the page's file, marks the conflict resolved and queues what
   * must be pushed. Throws UnknownConflictError (nothing changed) for an unknown or resolved id.
   */
  resolveConflict(id: number, choice: ConflictResolutionChoice): Promise<ConflictListing>;
  /** Changes the server refused, oldest first, from the cache only. */
  refusedChanges(): Promise<readonly RefusedChangeListing[]>;
  /**
   * Re-queues one refused change, or every one without an id; the next sync sends it. Throws
   * UnknownRefusedChangeError (nothing changed) for an id that names none. Returns how many.
   */
  retryRefused(id?: number): Promise<number>;
  /**
   * Drops a refused change from the outbox; its file stays, a local-only edit pushed again only
   * once edited. Throws UnknownRefusedChangeError (nothing changed) for an id that names none.
   */
  dropRefused(id: number): Promise<RefusedChangeListing>;
  /** The activity log, newest first. */
  activity(limit?: number): Promise<readonly ActivityEntry[]>;
  /** The mirrored change requests, what waits for `userId` first. From the cache only. */
  changeRequests(userId: string): Promise<readonly ChangeRequestSummary[]>;
  /** One mirrored change request. Throws UnknownChangeRequestError. From the cache only. */
  changeRequest(ref: ChangeRequestRef, userId: string): Promise<ChangeRequestDetail>;
  /** Its diff from the cached revisions. Throws UnknownChangeRequestError. No network. */
  changeRequestDiff(ref: ChangeRequestRef): Promise<ChangeRequestDiff>;
  /** Pins or unpins; the next sync refreshes the mirror. Throws UnknownChangeRequestSpaceError. */
  pinChangeRequest(ref: ChangeRequestRef, pinned: boolean): Promise<void>;
  close(): Promise<void>;
  /** The review actions on the mirrored change requests (src/main/review/). Needs a login. */
  reviewActions(): ReviewActions;
  /** Comment threads and the comment outbox, from the cache (src/main/comments); offline too. */
  comments(): LocalComments;
  /**
   * Checks a change request out into `<folder>/<organization>/<space> (change requests)/
   * <number> <subject>/` (asks the server, pulls its revision there). Throws
   * UnknownChangeRequestSpaceError, UnknownChangeRequestError, CheckoutRefusedError (merged or
   * archived).
   */
  checkoutChangeRequest(ref: ChangeRequestRef): Promise<ChangeRequestCheckout>;
  /** Every checkout, with its folder and pending edits. From the cache only. */
  checkouts(): Promise<readonly ChangeRequestCheckout[]>;
}

/** No refused change has this id (never refused, already retried or dropped). */
export class UnknownRefusedChangeError extends Error {
  override readonly name = 'UnknownRefusedChangeError';
}

/** No open conflict has this id (never recorded, or resolved already). */
export class UnknownConflictError extends Error {
  override readonly name = 'UnknownConflictError';
}

export class UnknownSpaceError extends Error {
  override readonly name = 'UnknownSpaceError';

  constructor(readonly spaceId: string) {
    super(`no space ${spaceId}`);
  }
}
