import type { ChangeRequest, Organization, Space, User } from '@gitbook/api';
import type { SpaceState } from './space-state';

/** The signed-in user, as the server's `GET /v1/user` gives it. */
export type QuireUser = Pick<User, 'id' | 'displayName'> & Partial<Pick<User, 'email'>>;

/** An organization whose spaces are listed. */
export type OrganizationListing = Pick<Organization, 'id' | 'title'>;

/** A space as `quire spaces` lists it (and the app's selective-sync list). */
export type SpaceListing = Pick<Space, 'id' | 'title'> &
  Partial<Pick<Space, 'emoji'>> & {
    readonly organizationId: Space['organization'];
    /** The organization's title. */
    readonly organization: Organization['title'];
    readonly enabled: boolean;
    /** The space's folder, relative to the mirror folder. */
    readonly folder: string;
  };

export interface SpaceList {
  /** Every organization the listing reached, for grouping the spaces by organization. */
  readonly organizations: readonly OrganizationListing[];
  readonly spaces: readonly SpaceListing[];
  /** Organizations whose spaces could not be listed this time (their spaces are kept). */
  readonly errors: readonly string[];
}

/** A space's working change request: its edits wait there for a review and a merge. */
export type WorkingChangeRequestListing = Pick<ChangeRequest, 'number' | 'subject'> & {
  /** Where to open it, when the server said. */
  readonly url: string | null;
};

/** One space in `quire status` (from the cache only). */
export interface SpaceStatus {
  readonly id: Space['id'];
  readonly title: Space['title'];
  readonly organization: string;
  readonly folder: string;
  readonly enabled: boolean;
  readonly state: SpaceState;
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
  /** Set for a checked-out change request's folder (its `id` is then not a space id). */
  readonly checkout?: true;
}

/**
 * What a sync did to a space: `pulled` a new revision, `pushed` local edits only (the revision
 * had not moved), `unchanged`, `removed` remotely, or `failed`.
 */
export type SpaceSyncOutcome = 'pulled' | 'pushed' | 'unchanged' | 'removed' | 'failed';

export interface SpaceSyncResult {
  readonly id: string;
  readonly title: string;
  readonly outcome: SpaceSyncOutcome;
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
  /** Set for a checked-out change request's folder (its `id` is then not a space id). */
  readonly checkout?: true;
}

/** What one sync (push then pull of every enabled space) did. */
export interface SyncOnceResult {
  /** Every enabled space, and any space removed remotely during this run. */
  readonly spaces: readonly SpaceSyncResult[];
  /** Failures outside one space (listing organizations or spaces). */
  readonly errors: readonly string[];
  /** Comment changes (comments, replies, edits, reactions…) the server acknowledged this run. */
  readonly commentsSent?: number;
}

/** Whether pushing is paused, and until when (ISO; null: until resume). */
export interface PauseState {
  readonly paused: boolean;
  readonly until: string | null;
}

/**
 * `sync now`: `ran` when this call ran the sync (its result, and the pause that held edits back);
 * `requested` when a watcher runs in this process: it was asked to sync at once, and its
 * progress and outcome come as events.
 */
export type SyncNowResult =
  | ({ readonly kind: 'ran'; readonly pause: PauseState } & SyncOnceResult)
  | { readonly kind: 'requested' };
