/**
 * Reviewing change requests from any front end: comment threads (offline, through the outbox),
 * review actions (some need the server), and checkouts of a change request into a folder.
 */
import type { ChangeRequestPerson, ChangeRequestRef, ChangeRequestState } from './change-requests';

/** Whose comments: a change request's (`number`), or the space's own (`number: null`). */
export interface CommentsRef {
  /** A synced space: its id, or its title. */
  space: string;
  number: number | null;
}

export interface CommentReaction {
  emoji: string;
  count: number;
  /** The user reacted with it (or has that queued). */
  mine: boolean;
}

/**
 * What of a comment still waits in the outbox: shown at once, marked until the server
 * acknowledges it. `problem` says why a queued change could not be sent (the comment was deleted
 * on the server, the server refused it); the local text is kept there, never dropped.
 */
export interface CommentView {
  /** The server's id, or `local-<n>` until a queued comment or reply is created. */
  id: string;
  author: ChangeRequestPerson;
  /** Markdown, as written. */
  body: string;
  postedAt: string;
  editedAt: string | null;
  reactions: readonly CommentReaction[];
  pending: 'create' | 'edit' | 'delete' | 'react' | 'resolve' | null;
  problem: string | null;
  /** The user may edit and delete it (the author, or the server's permission says so). */
  canEdit: boolean;
}

export interface CommentThread extends CommentView {
  /** The page it is on, or null for a comment on the whole change request or space. */
  page: { id: string; title: string; path: string } | null;
  resolved: boolean;
  replies: readonly CommentView[];
}

/** One comment, or one reply (`replyId`) of it. */
export interface CommentItemRef extends CommentsRef {
  commentId: string;
  replyId: string | null;
}

/** What a merge or an update from main did. */
export type ChangeRequestActionOutcome =
  | { result: 'merge'; revision: string }
  /** Nothing to bring in (update) or nothing to merge. */
  | { result: 'unchanged'; revision: string }
  /** It did not apply: these pages changed on both sides. */
  | {
      result: 'conflicts';
      pages: readonly { pageId: string | null; title: string; path: string }[];
    };

export type ReviewVerdict = 'approved' | 'changes-requested';

/** Where a change request is checked out: a folder in the Git Sync layout that pushes to it. */
export interface ChangeRequestCheckout {
  spaceId: string;
  space: string;
  number: number;
  subject: string;
  status: ChangeRequestState;
  /** Absolute path of the folder. */
  folder: string;
  /** Local edits not yet acknowledged by the server. */
  pending: number;
  /**
   * Merged or archived on the server while edits here were still unsent: the folder stays, with
   * those edits, until they are dealt with.
   */
  closedWithPendingEdits: boolean;
}

/** Raised when something new arrives on the user's change requests (the desktop notifies). */
export interface ReviewNotification {
  kind: 'comment' | 'reply' | 'review' | 'review-requested' | 'merged';
  spaceId: string;
  /** The change request, or null for a comment on the space. */
  number: number | null;
  /** One line: "Bo commented on #4 Fix the install guide". */
  title: string;
  /** The start of the comment or review, plain text; may be empty. */
  body: string;
}

/** The reviewers to ask (`add`) and to stop asking (`remove`): user ids, emails or names. */
export interface ReviewerChange extends ChangeRequestRef {
  add: readonly string[];
  remove: readonly string[];
}
