/**
 * The seams of the sync engine. The engine, cache, outbox and mirror never import Electron or a
 * concrete HTTP client: the composition root (CLI, desktop app, tests) hands them these.
 */
import type {
  ChangeRequest,
  ChangeRequestReview,
  ChangeRequestStatus,
  ChangeRequestUserContributor,
  Organization,
  RevisionFile,
  RevisionPageBase,
  RevisionPageDocument,
  Space,
  User,
} from '@gitbook/api';
import type { SyncProgress } from '../shared/contract/sync-status';
import type { PageFields } from '../shared/gitsync/page-fields';

export interface Clock {
  now(): Date;
}

/** Secrets (API tokens) live outside the cache database: a 0600 file headless, safeStorage in Electron. */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** The fields the engine reads of the published API's objects (types from `@gitbook/api`). */
export type RemoteUser = Pick<User, 'id' | 'displayName' | 'email'>;

export type RemoteOrganization = Pick<Organization, 'id' | 'title'>;

/** `revision` is the live revision: a space whose revision did not move needs no more requests. */
export type RemoteSpace = Pick<Space, 'id' | 'organization' | 'title' | 'revision' | 'parent'> &
  Partial<Pick<Space, 'emoji' | 'updatedAt'>>;

/**
 * A page as the published API returns it, with its Markdown when asked for: the base fields of
 * every page kind, the Git Sync page fields (PageFields, declared once for server and engine),
 * and `layout`/`cover` kept as opaque objects (the mirror writes them to frontmatter as they come).
 */
export interface RemotePage
  extends
    PageFields,
    Pick<RevisionPageBase, 'id' | 'title' | 'createdAt' | 'updatedAt'>,
    Partial<Pick<RevisionPageDocument, 'slug' | 'path'>> {
  type: 'document' | 'group' | 'link';
  layout?: Record<string, unknown>;
  cover?: Record<string, unknown>;
  href?: string;
  markdown?: string;
  pages: RemotePage[];
}

export type RemoteFile = Pick<
  RevisionFile,
  'id' | 'name' | 'contentType' | 'size' | 'downloadURL' | 'dimensions'
>;

/** Where a streamed download goes (a temp file): written in order, reset before each attempt. */
export interface DownloadSink {
  /** Drops whatever an earlier attempt wrote. */
  reset(): Promise<void>;
  write(chunk: Uint8Array): Promise<void>;
}

/** What a streamed download received: sha256 (hex) and byte count. */
export interface DownloadResult {
  hash: string;
  size: number;
}

export interface RemoteRevision {
  id: string;
  pages: RemotePage[];
  files: RemoteFile[];
}

export type { SyncProgress };

/**
 * What the engine needs from a workspace server. Implemented over `@gitbook/api` with our own
 * rate-limited fetch; tests may also use the real server over loopback.
 */
export interface RemoteWorkspace {
  /** Checks the token: the user it belongs to. */
  whoAmI(): Promise<RemoteUser>;
  listOrganizations(): Promise<RemoteOrganization[]>;
  /** Every space of an organization the user can read (all pages followed), each with its revision. */
  listSpaces(organizationId: string): Promise<RemoteSpace[]>;
  /**
   * A revision's page tree with every document page's Markdown, and its files. On our server one
   * request (`format=markdown`); elsewhere per-page reads, skipping pages whose content is known
   * (`knownPages` maps page id → updatedAt of the cached copy).
   */
  getRevision(
    spaceId: string,
    revisionId: string,
    knownPages?: ReadonlyMap<string, string>,
  ): Promise<RemoteRevision>;
  /** A file's bytes, never sending the token to another origin. */
  downloadFile(file: RemoteFile): Promise<Uint8Array>;
  /**
   * Streams a file's bytes into `sink`, with bounded concurrency of its own (downloads never wait
   * on the API's pacing), checking the size listed and any digest the server sends; a failed
   * transfer starts again from the first byte. Without it the engine uses downloadFile.
   */
  streamFile?(file: RemoteFile, sink: DownloadSink, signal?: AbortSignal): Promise<DownloadResult>;
  /**
   * Quire extension `GET …/git/config`: the space's `.gitbook.yaml` exactly as written, undefined
   * when it has none. Without it (other servers) the mirror writes no `.gitbook.yaml`.
   */
  getGitConfig?(spaceId: string): Promise<string | undefined>;
  /** Quire extension `PUT …/git/config`: replaces the space's `.gitbook.yaml` with `text`. */
  putGitConfig?(spaceId: string, text: string): Promise<void>;
}

/** A change request as the mirror keeps it (the published ChangeRequest's fields it reads). */
export type RemoteChangeRequest = Pick<
  ChangeRequest,
  | 'id'
  | 'number'
  | 'status'
  | 'subject'
  | 'space'
  | 'revision'
  | 'revisionInitial'
  | 'outdated'
  | 'comments'
  | 'createdAt'
  | 'updatedAt'
> &
  Partial<Pick<ChangeRequest, 'revisionMergedAncestor' | 'revisionMerged' | 'mergedAt'>> & {
    createdBy: RemoteUser;
    urls?: { app?: string };
  };

export type RemoteReview = Pick<
  ChangeRequestReview,
  'id' | 'status' | 'outdated' | 'revision' | 'createdAt'
> & { reviewer: RemoteUser };

/** A reviewer asked for (users only: team requests are not mirrored). */
export interface RemoteRequestedReviewer {
  user: RemoteUser;
  createdAt: string;
}

export type RemoteContributor = Pick<
  ChangeRequestUserContributor,
  'count' | 'updatedAt' | 'actionType'
> & { user: RemoteUser };

/** What the change-request mirror reads besides revisions (RemoteWorkspace.getRevision). */
export interface RemoteChangeRequests {
  /** An organization's change requests in these statuses (all pages followed). */
  listOrganizationChangeRequests(
    organizationId: string,
    statuses: readonly ChangeRequestStatus[],
  ): Promise<RemoteChangeRequest[]>;
  /** One change request by id or number; undefined when the server does not know it (404). */
  getChangeRequest(spaceId: string, ref: string): Promise<RemoteChangeRequest | undefined>;
  listReviews(spaceId: string, changeRequestId: string): Promise<RemoteReview[]>;
  listRequestedReviewers(
    spaceId: string,
    changeRequestId: string,
  ): Promise<RemoteRequestedReviewer[]>;
  listContributors(spaceId: string, changeRequestId: string): Promise<RemoteContributor[]>;
}
