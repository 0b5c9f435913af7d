import type { ReviewNotification } from '../../shared/contract/review';
import { messageOf } from '../../shared/message-of';
import type { CacheDb } from '../cache/open-cache-database';
import type { SpaceCache } from '../cache/space-cache';
import { SyncStateStore } from '../cache/sync-state-store';
import { RemoteUnavailableError } from '../remote/errors';
import type { CommentScope, RemoteComment, RemoteComments } from './comment-remote';
import { CommentMirror, scopeKey } from './comment-mirror';

export interface CommentPullDeps {
  db: CacheDb;
  spaces: SpaceCache;
  remote: RemoteComments;
  /** The signed-in user: whose change requests and comments raise notifications. */
  userId: string;
  now(): Date;
  /** Pull every scope now, whatever its last pull (a sync the user asked for in the app). */
  refresh?: boolean;
  /** Scopes this run just sent changes to: read back at once. */
  touched?: readonly CommentScope[];
}

export interface CommentPullReport {
  changed: CommentScope[];
  notifications: ReviewNotification[];
  errors: string[];
  offline: boolean;
}

/** A change request of the mirror whose comments are pulled. */
interface MirroredScope {
  scope: CommentScope;
  subject: string;
  createdBy: string;
  /**
   * What says the comments may have moved without waiting for COMMENTS_REFRESH_MS: a change
   * request's listing fingerprint (its update time and open-comment count); none for a space.
   */
  signal: string;
}

/**
 * A scope whose signal did not move is read again at most this often: there is no listing of a
 * workspace's comments, so reading every space's on every run would cost one request per space
 * (200 spaces: 200 requests for an unchanged sync).
 */
const COMMENTS_REFRESH_MS = 5 * 60 * 1000;

/** The replies fingerprint of a comment nobody replied to (see parseComment). */
const NO_REPLIES = JSON.stringify([0, '']);

/**
 * Replies are read again when their count or latest post moves, and at least once in this
 * period: an edit or a reaction of a reply does not show in its comment.
 */
const REPLIES_REFRESH_MS = 60 * 60 * 1000;

/** First characters of a comment, plain enough for a notification. */
const EXCERPT_LENGTH = 140;

/**
 * Pulls the comments of every synced space and of its mirrored change requests: one list per
 * scope, and the replies only of comments whose replies moved. New remote comments on the user's
 * change requests and replies to the user's comments become notifications, never on the first
 * pull of a scope (everything would be new then). A scope that fails keeps its cached comments.
 */
export async function pullComments(deps: CommentPullDeps): Promise<CommentPullReport> {
  const report: CommentPullReport = { changed: [], notifications: [], errors: [], offline: false };
  for (const mirrored of scopesOf(deps)) {
    if (!due(deps, mirrored)) continue;
    try {
      await pullScope(deps, mirrored, report);
    } catch (error) {
      if (error instanceof RemoteUnavailableError) {
        report.offline = true;
        return report;
      }
      const { spaceId, changeRequest } = mirrored.scope;
      const where = changeRequest === null ? `space ${spaceId}` : `#${changeRequest} of ${spaceId}`;
      report.errors.push(`comments of ${where}: ${messageOf(error)}`);
    }
  }
  return report;
}

function scopesOf(deps: CommentPullDeps): MirroredScope[] {
  const scopes: MirroredScope[] = [];
  const synced = deps.spaces
    .listSpaces()
    .filter((space) => space.enabled && space.removedAt === null && space.syncedRevision !== null);
  for (const space of synced) {
    scopes.push({
      scope: { spaceId: space.id, changeRequest: null },
      subject: '',
      createdBy: '',
      signal: '',
    });
    const rows = deps.db
      .prepare(
        'SELECT number, subject, created_by, fingerprint FROM change_requests WHERE space_id = ?',
      )
      .all(space.id) as {
      number: number;
      subject: string;
      created_by: string;
      fingerprint: string;
    }[];
    for (const row of rows) {
      scopes.push({
        scope: { spaceId: space.id, changeRequest: row.number },
        subject: row.subject,
        createdBy: row.created_by,
        signal: row.fingerprint,
      });
    }
    // Change requests that left the mirror take their comments with them.
    deps.db
      .prepare(
        `DELETE FROM comments WHERE space_id = ? AND change_request != 0
           AND change_request NOT IN (SELECT number FROM change_requests WHERE space_id = ?)`,
      )
      .run(space.id, space.id);
  }
  return scopes;
}

/** Never pulled, asked for, just written to, its signal moved, or its last pull is old. */
function due(deps: CommentPullDeps, mirrored: MirroredScope): boolean {
  const { scope } = mirrored;
  if (deps.refresh === true) return true;
  const same = (other: CommentScope) =>
    other.spaceId === scope.spaceId && other.changeRequest === scope.changeRequest;
  if (deps.touched?.some(same)) return true;
  const state = new SyncStateStore(deps.db);
  const last = Date.parse(state.get(pulledAtKey(scope)) ?? '');
  const age = deps.now().getTime() - last;
  if (!Number.isFinite(age) || age < 0 || age >= COMMENTS_REFRESH_MS) return true;
  return state.get(signalKey(scope)) !== mirrored.signal;
}

const pulledAtKey = (scope: CommentScope) =>
  `comments.pulledAt.${scope.spaceId}.${scopeKey(scope)}`;
const signalKey = (scope: CommentScope) => `comments.signal.${scope.spaceId}.${scopeKey(scope)}`;

async function pullScope(
  deps: CommentPullDeps,
  mirrored: MirroredScope,
  report: CommentPullReport,
): Promise<void> {
  const { scope } = mirrored;
  const mirror = new CommentMirror(deps.db);
  const state = new SyncStateStore(deps.db);
  const pulledKey = `comments.pulled.${scope.spaceId}.${scopeKey(scope)}`;
  const firstPull = state.get(pulledKey) === undefined;
  const before = mirror.list(scope);
  const known = new Map(before.map((item) => [item.id, item]));
  const comments = await deps.remote.listComments(scope);
  const notify = (notification: ReviewNotification) => {
    if (!firstPull) report.notifications.push(notification);
  };
  for (const comment of comments) {
    const cached = known.get(comment.id);
    if (cached === undefined && isNewFor(deps, mirrored, comment)) {
      notify(notificationOf(mirrored, comment, 'comment'));
    }
    mirror.putComment(scope, comment, null);
    const wanted = `${comment.repliesFingerprint}@${Math.floor(deps.now().getTime() / REPLIES_REFRESH_MS)}`;
    if (cached?.repliesFingerprint === wanted) continue;
    if (comment.repliesFingerprint === NO_REPLIES) {
      mirror.retainReplies(scope, comment.id, new Set());
      mirror.setRepliesFingerprint(scope, comment.id, wanted);
      continue;
    }
    const replies = await deps.remote.listReplies(scope, comment.id);
    for (const reply of replies) {
      const isNew = !known.has(reply.id) && reply.author.id !== deps.userId;
      if (isNew && comment.author.id === deps.userId) {
        notify(notificationOf(mirrored, reply, 'reply'));
      }
      mirror.putReply(scope, comment.id, reply);
    }
    mirror.retainReplies(scope, comment.id, new Set(replies.map((reply) => reply.id)));
    mirror.setRepliesFingerprint(scope, comment.id, wanted);
  }
  const listed = new Set(comments.map((comment) => comment.id));
  for (const item of before) {
    if (item.parentId === null && !listed.has(item.id)) mirror.remove(scope, item.id);
  }
  state.set(pulledKey, 'yes');
  state.set(pulledAtKey(scope), deps.now().toISOString());
  state.set(signalKey(scope), mirrored.signal);
  if (JSON.stringify(before) !== JSON.stringify(mirror.list(scope))) report.changed.push(scope);
}

/** Someone else's comment on a change request the user created. */
function isNewFor(deps: CommentPullDeps, mirrored: MirroredScope, comment: RemoteComment) {
  return (
    mirrored.scope.changeRequest !== null &&
    mirrored.createdBy === deps.userId &&
    comment.author.id !== deps.userId
  );
}

function notificationOf(
  mirrored: MirroredScope,
  item: { author: { displayName: string }; markdown: string },
  kind: 'comment' | 'reply',
): ReviewNotification {
  const { scope } = mirrored;
  const where =
    scope.changeRequest === null ? 'the space' : `#${scope.changeRequest} ${mirrored.subject}`;
  const verb = kind === 'comment' ? 'commented on' : 'replied to your comment on';
  return {
    kind,
    spaceId: scope.spaceId,
    number: scope.changeRequest,
    title: `${item.author.displayName} ${verb} ${where}`.trim(),
    body: item.markdown.replace(/\s+/g, ' ').trim().slice(0, EXCERPT_LENGTH),
  };
}
