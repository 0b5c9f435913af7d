import type { ActivityEntry } from './activity';
import type {
  ChangeRequestDetail,
  ChangeRequestDiff,
  ChangeRequestRef,
  ChangeRequestSummary,
} from './change-requests';
import type { CommandError } from './command-error';
import type { ConflictListing, ConflictResolutionChoice, ConflictVersions } from './conflicts';
import type {
  ConnectionInfo,
  LoginRequest,
  LoginResult,
  LogoutResult,
  QuireSettings,
  ServerUrlCheck,
  SettingsUpdate,
} from './connection';
import type {
  DesktopSettings,
  DesktopSettingsUpdate,
  HostCapabilities,
  OpenPathTarget,
} from './host';
import type { RefusedChangeListing, UnsyncedEditListing } from './local-changes';
import type {
  ChangeRequestActionOutcome,
  ChangeRequestCheckout,
  CommentItemRef,
  CommentsRef,
  CommentThread,
  CommentView,
  ReviewerChange,
  ReviewVerdict,
} from './review';
import type { PauseState, SpaceList, SpaceStatus, SyncNowResult } from './spaces';
import type { SyncStatusSnapshot } from './sync-status';

/** For commands that take nothing: an empty object, so every channel carries one JSON value. */
export type NoArgs = Record<string, never>;

/** Facts about the app that every process (main, preload, renderer, server) may read. */
export interface AppInfo {
  name: string;
  version: string;
}

/**
 * Every command a front end (CLI, desktop app, `quire ui`) sends to the application layer: name →
 * argument and result. The bridges carry it generically: a command is a channel, its argument one
 * JSON value, its answer a CommandOutcome.
 */
export interface QuireCommands {
  appInfo: { args: NoArgs; result: AppInfo };
  /** Checks a server address without contacting it. */
  checkServerUrl: { args: { server: string }; result: ServerUrlCheck };
  /** Checks the token with the server, stores it and the configuration; lists nothing. */
  login: { args: LoginRequest; result: LoginResult };
  /** Forgets the token; the configuration, cache and folder stay. */
  logout: { args: NoArgs; result: LogoutResult };
  /** Who am I, where, and who syncs this home right now. No network. */
  connection: { args: NoArgs; result: ConnectionInfo };
  /** Reads the spaces from the server (the first listing enables them when fewer than 20). */
  listSpaces: { args: NoArgs; result: SpaceList };
  /** Every known space, from the cache. */
  spaceStatuses: { args: NoArgs; result: readonly SpaceStatus[] };
  setSpaceEnabled: { args: { spaceId: string; enabled: boolean }; result: null };
  syncNow: { args: NoArgs; result: SyncNowResult };
  /** Stops pushing local edits until `until` (ISO) or resume; edits are still recorded. */
  pause: { args: { until: string | null }; result: PauseState };
  resume: { args: NoArgs; result: PauseState };
  /** Lets the next push of the space delete more than half of its pages. */
  confirmDeletes: { args: { spaceId: string }; result: null };
  conflicts: { args: NoArgs; result: readonly ConflictListing[] };
  conflictVersions: { args: { id: number }; result: ConflictVersions };
  /** Writes the chosen version into the file; the next sync pushes what it queued. */
  resolveConflict: {
    args: { id: number; choice: ConflictResolutionChoice };
    result: ConflictListing;
  };
  refusedChanges: { args: NoArgs; result: readonly RefusedChangeListing[] };
  /** Queues one refused change again, or every one without an id; how many. */
  retryRefused: { args: { id: number | null }; result: { count: number } };
  /** Gives a refused change up: its file stays, a local-only edit. */
  dropRefused: { args: { id: number }; result: RefusedChangeListing };
  /** Files saved since the last sync that no push recorded yet (a read-only scan). */
  unsyncedEdits: { args: NoArgs; result: readonly UnsyncedEditListing[] };
  /** The status snapshot. No network. */
  status: { args: NoArgs; result: SyncStatusSnapshot };
  /** What was pulled, pushed and merged, newest first. */
  activity: { args: { limit: number | null }; result: readonly ActivityEntry[] };
  settings: { args: NoArgs; result: QuireSettings };
  updateSettings: { args: SettingsUpdate; result: QuireSettings };
  /**
   * Moves the mirror folder, files and all, to `folder` (absolute; absent or an empty folder):
   * the background sync stops for the move and goes on from the new place, nothing re-sent.
   */
  moveFolder: { args: { folder: string }; result: QuireSettings };
  /** What this host offers beyond the engine (the UI hides the rest). */
  capabilities: { args: NoArgs; result: HostCapabilities };
  /** Opens a space's folder or a file of the mirror (relative path, kept inside the folder). */
  openPath: { args: OpenPathTarget; result: null };
  /** Starts the embedded demo server and logs in to it, mirroring into `folder`. */
  startDemo: { args: { folder: string }; result: LoginResult };
  desktopSettings: { args: NoArgs; result: DesktopSettings };
  updateDesktopSettings: { args: DesktopSettingsUpdate; result: DesktopSettings };
  /** The review inbox: mirrored change requests of the synced spaces, what waits for you first. No network. */
  changeRequests: { args: NoArgs; result: readonly ChangeRequestSummary[] };
  /** One mirrored change request: reviews, requested reviewers, contributors. No network. */
  changeRequest: { args: ChangeRequestRef; result: ChangeRequestDetail };
  /** Its diff, page by page, computed from the cached revisions. No network. */
  changeRequestDiff: { args: ChangeRequestRef; result: ChangeRequestDiff };
  /** Keeps a change request mirrored whatever its status (or stops); the next sync reads it. */
  pinChangeRequest: { args: ChangeRequestRef & { pinned: boolean }; result: null };

  // --- Comments: read from the mirror; every change is queued in the outbox and shown at once.
  /** Threads of a change request (or of the space), newest first, with what is still queued. */
  comments: { args: CommentsRef & { pageId: string | null }; result: readonly CommentThread[] };
  postComment: {
    args: CommentsRef & { pageId: string | null; body: string };
    result: CommentThread;
  };
  replyToComment: { args: CommentsRef & { commentId: string; body: string }; result: CommentView };
  editComment: { args: CommentItemRef & { body: string }; result: null };
  deleteComment: { args: CommentItemRef; result: null };
  reactToComment: { args: CommentItemRef & { emoji: string; add: boolean }; result: null };
  setCommentResolved: {
    args: CommentsRef & { commentId: string; resolved: boolean };
    result: null;
  };

  // --- Review actions. Subject, status and reviewers are queued when offline; a verdict, an
  // update from main and a merge need the server and are refused offline (kind `offline`).
  // Each says whether it reached the server (`sent`) or waits for the next sync (`queued`).
  setChangeRequestSubject: {
    args: ChangeRequestRef & { subject: string };
    result: 'sent' | 'queued';
  };
  /** `open` marks a draft ready for review; `archived` closes it unmerged; `draft` reopens. */
  setChangeRequestStatus: {
    args: ChangeRequestRef & { status: 'draft' | 'open' | 'archived' };
    result: 'sent' | 'queued';
  };
  setReviewers: { args: ReviewerChange; result: null };
  reviewChangeRequest: {
    args: ChangeRequestRef & { verdict: ReviewVerdict; comment: string | null };
    result: ChangeRequestDetail;
  };
  updateChangeRequest: { args: ChangeRequestRef; result: ChangeRequestActionOutcome };
  mergeChangeRequest: { args: ChangeRequestRef; result: ChangeRequestActionOutcome };
  /**
   * Saves the change request (or one page of it) as a PDF: to `file` (absolute; CLI only), or,
   * with null, to the user's Downloads folder under a fresh name. Returns where.
   */
  exportChangeRequestPdf: {
    args: ChangeRequestRef & { pageId: string | null; file: string | null };
    result: { file: string; bytes: number };
  };

  // --- Checkouts: a change request as a folder that pushes to it.
  checkoutChangeRequest: { args: ChangeRequestRef; result: ChangeRequestCheckout };
  /** Every checkout of this home, with what waits to be pushed. No network. */
  checkouts: { args: NoArgs; result: readonly ChangeRequestCheckout[] };
}

export type CommandName = keyof QuireCommands;
export type CommandArgs<K extends CommandName> = QuireCommands[K]['args'];
export type CommandResult<K extends CommandName> = QuireCommands[K]['result'];

/** A command's answer as a bridge carries it: the result, or the typed error. */
export type CommandOutcome<K extends CommandName> =
  { ok: true; result: CommandResult<K> } | { ok: false; error: CommandError };

/** The application layer's side: one async method per command (QuireApp implements it). */
export type QuireCommandHandlers = {
  [K in CommandName]: (args: CommandArgs<K>) => Promise<CommandResult<K>>;
};

/** Every command name, for bridges that register one handler per channel. */
export const COMMAND_NAMES = [
  'appInfo',
  'checkServerUrl',
  'login',
  'logout',
  'connection',
  'listSpaces',
  'spaceStatuses',
  'setSpaceEnabled',
  'syncNow',
  'pause',
  'resume',
  'confirmDeletes',
  'conflicts',
  'conflictVersions',
  'resolveConflict',
  'refusedChanges',
  'retryRefused',
  'dropRefused',
  'unsyncedEdits',
  'status',
  'activity',
  'settings',
  'updateSettings',
  'moveFolder',
  'capabilities',
  'openPath',
  'startDemo',
  'desktopSettings',
  'updateDesktopSettings',
  'changeRequests',
  'changeRequest',
  'changeRequestDiff',
  'pinChangeRequest',
  'comments',
  'postComment',
  'replyToComment',
  'editComment',
  'deleteComment',
  'reactToComment',
  'setCommentResolved',
  'setChangeRequestSubject',
  'setChangeRequestStatus',
  'setReviewers',
  'reviewChangeRequest',
  'updateChangeRequest',
  'mergeChangeRequest',
  'exportChangeRequestPdf',
  'checkoutChangeRequest',
  'checkouts',
] as const satisfies readonly CommandName[];

/** Whether an untrusted value (an IPC channel's, a URL's) names a command. */
export function isCommandName(value: unknown): value is CommandName {
  return (COMMAND_NAMES as readonly unknown[]).includes(value);
}

// Every command is listed: a name missing above fails to compile here.
type Missing = Exclude<CommandName, (typeof COMMAND_NAMES)[number]>;
const allListed: [Missing] extends [never] ? true : Missing = true;
void allListed;
