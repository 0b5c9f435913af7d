import type { SyncError } from '../../shared/contract/sync-error';
import type { SyncStatusSnapshot } from '../../shared/sync-status';
import type { QuireConfig, QuireHome } from '../config/quire-home';
import type { RemoteWorkspace, SecretStore, SyncProgress } from '../sync-ports';

/**
 * Everything the `quire` commands use, built in one place (`createQuireServices`) so that the
 * commands stay small functions and tests can hand them fakes.
 */
export interface QuireServices {
  readonly home: QuireHome;
  readonly secrets: SecretStore;
  /**
   * A client for `server` (an origin without `/v1`) that sends `token`. `quick` gives up sooner on
   * an unreachable server, for a login the user is waiting on.
   */
  connect(server: string, token: string, options?: { quick?: boolean }): RemoteWorkspace;
  /** The sync engine over `<home>/cache.db` for this connection. Close it when done. */
  openEngine(options: OpenEngineOptions): Promise<QuireEngine>;
}

export interface OpenEngineOptions {
  readonly config: QuireConfig;
  readonly remote: RemoteWorkspace;
  readonly onProgress?: (progress: SyncProgress) => void;
  /**
   * For `sync --watch`: a push that finds the server unreachable stops at once (the watcher backs
   * off and retries) instead of waiting inside the run.
   */
  readonly watching?: boolean;
}

/**
 * `quire sync --watch`: runs until `signal` aborts, then stops after the request in flight and
 * returns; rejects with a RemoteAuthError (401) once the server rejects the token.
 */
export interface WatchOptions {
  readonly signal: AbortSignal;
  /** Full sync (pull) interval; default 30 s. */
  readonly intervalMs?: number;
  /** Every change of the status model. */
  readonly onStatus?: (status: SyncStatusSnapshot) => void;
  /** After every run: what it did, in a line. */
  readonly onRun?: (summary: string) => void;
}

/** A space as `quire spaces` lists it. */
export interface SpaceListing {
  readonly id: string;
  readonly title: string;
  readonly organizationId: string;
  /** The organization's title. */
  readonly organization: string;
  readonly emoji?: string;
  readonly enabled: boolean;
  /** The space's folder, relative to the mirror folder. */
  readonly folder: string;
}

export interface SpaceList {
  readonly spaces: readonly SpaceListing[];
  /** Organizations whose spaces could not be listed this time (their spaces are kept). */
  readonly errors: readonly string[];
}

/** One space in `quire status`. */
export interface SpaceStatus {
  readonly id: string;
  readonly title: string;
  readonly organization: string;
  readonly folder: string;
  readonly enabled: boolean;
  /** `disabled`, `pending` (never pulled), `outdated`, `synced`, `error` or `removed`. */
  readonly state: string;
  /** Server revision the mirror reflects, null before the first pull. */
  readonly revision: string | null;
  /** Latest revision the server announced. */
  readonly remoteRevision: string | null;
  readonly pages: number;
  /** ISO time of the last completed sync, null if never. */
  readonly lastSync: string | null;
  readonly errors: readonly string[];
  /** Where this space's local edits go; absent until the first push creates one. */
  readonly changeRequest?: WorkingChangeRequestListing;
}

/** A space's working change request: its edits wait there for a review and a merge. */
export interface WorkingChangeRequestListing {
  readonly number: number;
  readonly subject: string;
  /** Where to open it, when the server said. */
  readonly url: string | null;
}

/** A file changed since the last sync that no push has recorded yet (`quire status`). */
export interface UnsyncedEditListing {
  readonly spaceId: string;
  /** Relative to the mirror folder. */
  readonly path: string;
  readonly change: 'edited' | 'new' | 'deleted' | 'moved';
  /** For `moved`: where it was, relative to the mirror folder. */
  readonly from?: string;
}

/** The three versions of a conflicted page, for `quire conflicts show`. */
export interface ConflictVersions {
  readonly conflict: ConflictListing;
  /** The last synced text; null when unknown (a file that was never synced). */
  readonly base: string | null;
  /** The local file as it is now; null when it is deleted. */
  readonly mine: string | null;
  /** The server's text; null when the page was deleted there. */
  readonly theirs: string | null;
  /** An image or other file: its versions are not text and are not shown. */
  readonly binary: boolean;
}

/** What one `sync --once` did. */
export interface SyncOnceResult {
  /** Every enabled space, and any space removed remotely during this run. */
  readonly spaces: readonly SpaceSyncResult[];
  /** Failures outside one space (listing organizations or spaces). */
  readonly errors: readonly string[];
}

export interface SpaceSyncResult {
  readonly id: string;
  readonly title: string;
  /**
   * `pulled` a new revision, `pushed` local edits only (the revision had not moved), `unchanged`,
   * `removed` remotely, or `failed`.
   */
  readonly outcome: 'pulled' | 'pushed' | 'unchanged' | 'removed' | 'failed';
  /** Local changes the server acknowledged into the space's working change request. */
  readonly pushed?: number;
  readonly revision: string | null;
  readonly filesWritten: number;
  readonly filesRemoved: number;
  /** Local and remote edits that could not be merged automatically (the local file was kept). */
  readonly conflicts: number;
  /** Everything else left for the user, and the error of a failed space, one line each. */
  readonly problems: readonly string[];
  /** Where the space's local edits went (see SpaceStatus). */
  readonly changeRequest?: WorkingChangeRequestListing;
}

/** The engine operations the CLI needs, in the CLI's own terms. */
export interface QuireEngine {
  /** Reads the space list from the server into the cache and returns it. */
  refreshSpaces(): Promise<SpaceList>;
  /** Throws `UnknownSpaceError` for an id the cache does not know. */
  setSpaceEnabled(spaceId: string, enabled: boolean): Promise<void>;
  syncOnce(): Promise<SyncOnceResult>;
  /** From the cache only, no network. */
  status(): Promise<readonly SpaceStatus[]>;
  /** The status model (src/shared/sync-status.ts), from the cache only. */
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
  close(): Promise<void>;
}

/** A change the server refused, as `quire status` lists it. */
export interface RefusedChangeListing {
  /** What `quire retry <id>` and `quire drop <id>` take. */
  readonly id: number;
  readonly spaceId: string;
  /** insert_page, update_page, delete_page or insert_files. */
  readonly kind: string;
  /** The file it came from, relative to the mirror folder; the space folder when none is known. */
  readonly path: string;
  /** The server's reason. */
  readonly reason: string;
  /** Files (relative to the mirror folder) whose changes wait for this one. */
  readonly holds: readonly string[];
}

/** No refused change has this id (never refused, already retried or dropped). */
export class UnknownRefusedChangeError extends Error {
  override readonly name = 'UnknownRefusedChangeError';
}

/** A conflict as `quire conflicts` lists it. */
export interface ConflictListing {
  readonly id: number;
  readonly spaceId: string;
  readonly spaceTitle: string;
  readonly pageId: string | null;
  /** The page's title ('' for a file that is not a page's). */
  readonly pageTitle: string;
  /** The local file, relative to the space folder. */
  readonly path: string;
  /** The local file, absolute. */
  readonly file: string;
  /** `content`, `asset`, `deleted-remotely` or `deleted-locally` (see ConflictKind). */
  readonly kind: string;
  readonly message: string;
  readonly createdAt: string;
}

export type ConflictResolutionChoice =
  { mode: 'mine' } | { mode: 'theirs' } | { mode: 'merged'; text: string };

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

/** A sync that could not pull anything at all (listing failed): the typed reason, first one. */
export class SyncFailedError extends Error {
  override readonly name = 'SyncFailedError';

  constructor(
    readonly error: SyncError,
    message: string,
  ) {
    super(message);
  }
}
