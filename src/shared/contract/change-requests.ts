/**
 * Change requests as every front end shows them, read from the engine's mirror (so they work
 * offline): the inbox, one change request in detail, and its diff computed locally.
 */

export type ChangeRequestState = 'draft' | 'open' | 'archived' | 'merged';

export interface ChangeRequestPerson {
  id: string;
  displayName: string;
}

/**
 * Why a change request waits for the user: they were asked to review it; or it is theirs and a
 * reviewer requested changes, or every current review approves it (ready to merge).
 */
export type ChangeRequestWait = 'review-requested' | 'changes-requested' | 'approved';

export interface ChangeRequestSummary {
  spaceId: string;
  space: string;
  organizationId: string;
  organization: string;
  id: string;
  number: number;
  subject: string;
  status: ChangeRequestState;
  author: ChangeRequestPerson;
  createdAt: string;
  updatedAt: string;
  /** Main moved past the revision it is based on (`update` would bring it in). */
  outdated: boolean;
  /** Open comments. */
  comments: number;
  pinned: boolean;
  waitingForYou: ChangeRequestWait | null;
  /** Its page in the web app, when the server gave one. */
  url: string | null;
}

export interface ChangeRequestReviewView {
  reviewer: ChangeRequestPerson;
  status: 'approved' | 'changes-requested';
  /** Superseded by a later review or request. */
  outdated: boolean;
  createdAt: string;
}

export interface ChangeRequestDetail extends ChangeRequestSummary {
  revision: string;
  baseRevision: string;
  reviews: readonly ChangeRequestReviewView[];
  requestedReviewers: readonly { user: ChangeRequestPerson; requestedAt: string }[];
  contributors: readonly {
    user: ChangeRequestPerson;
    actionType: 'edit' | 'comment';
    count: number;
    updatedAt: string;
  }[];
  /** When the mirror last read it from the server. */
  fetchedAt: string;
}

/** A run of one line's text: `changed` marks the words that differ from the paired line. */
export interface DiffSegment {
  text: string;
  changed: boolean;
}

export type DiffLine =
  | {
      kind: 'context' | 'added' | 'removed';
      oldLine: number | null;
      newLine: number | null;
      segments: readonly DiffSegment[];
    }
  /** Unchanged lines left out between hunks. */
  | { kind: 'skipped'; count: number };

export interface PageDiff {
  pageId: string;
  type: 'document' | 'group' | 'link';
  /** The title after the change (before it, for a removed page). */
  title: string;
  path: string;
  status: 'added' | 'removed' | 'modified';
  /** The previous title, when it changed. */
  renamedFrom: string | null;
  /** Set when the page changed parent or place among its siblings (parent titles, null at the top). */
  moved: { fromParent: string | null; toParent: string | null } | null;
  /** Other page fields that changed (description, slug, hidden, …). */
  fields: readonly string[];
  contentChanged: boolean;
  added: number;
  removed: number;
  lines: readonly DiffLine[];
}

export interface ChangeRequestDiff {
  spaceId: string;
  number: number;
  /** Pages of the change request's revision first (tree order), then removed pages. */
  pages: readonly PageDiff[];
}

/** Names one change request: a space (id, or title) and its number there. */
export interface ChangeRequestRef {
  space: string;
  number: number;
}
