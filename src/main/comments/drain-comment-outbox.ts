import { messageOf } from '../../shared/message-of';
import {
  RemoteAuthError,
  RemoteHttpError,
  RemoteNotFoundError,
  RemoteUnavailableError,
} from '../remote/errors';
import type { CommentScope, RemoteComments } from './comment-remote';
import { CommentMirror } from './comment-mirror';
import { CommentOutbox, type QueuedCommentChange } from './comment-outbox';
import type { CacheDb } from '../cache/open-cache-database';

export interface CommentDrainDeps {
  db: CacheDb;
  remote: RemoteComments;
  log(level: 'info' | 'warn', message: string, fields?: Record<string, unknown>): void;
}

export interface CommentDrainReport {
  sent: number;
  /** One line per change the server refused (kept in the outbox with its reason). */
  refused: string[];
  /** The server could not be reached: the rest stays queued for the next run. */
  offline: boolean;
  /** The scopes whose comments changed (for `reviewChanged`). */
  changed: CommentScope[];
}

/** What the user sees when the comment a queued change is about is gone from the server. */
export const DELETED_REMOTELY =
  'the comment was deleted on the server; your change is kept here, not sent';

/**
 * Sends the queued comment changes, oldest first, one call each through the rate-controlled
 * client. A change about a comment still waiting for its creation waits with it; a refused one
 * (4xx) is marked failed and the others still go; an unreachable server stops the drain.
 */
export async function drainCommentOutbox(deps: CommentDrainDeps): Promise<CommentDrainReport> {
  const outbox = new CommentOutbox(deps.db);
  const report: CommentDrainReport = { sent: 0, refused: [], offline: false, changed: [] };
  for (const change of outbox.list()) {
    if (change.state !== 'pending') continue;
    const target = change.commentId === null ? null : outbox.resolveId(change.commentId);
    const reply = change.replyId === null ? null : outbox.resolveId(change.replyId);
    // Its comment (or reply) is not created yet: it goes after it, a later run.
    if (target === undefined || reply === undefined) continue;
    try {
      await send(deps, outbox, change, target, reply);
      report.sent++;
      report.changed.push(change.scope);
    } catch (error) {
      if (error instanceof RemoteUnavailableError) {
        report.offline = true;
        break;
      }
      if (error instanceof RemoteAuthError && error.status !== 403) throw error;
      // 409: the same request (its key) is still being applied: its answer comes next run.
      if (error instanceof RemoteHttpError && error.status === 409) continue;
      const reason =
        error instanceof RemoteNotFoundError && change.kind !== 'create'
          ? DELETED_REMOTELY
          : messageOf(error);
      outbox.fail(change, reason);
      report.refused.push(`comment ${change.kind} refused: ${reason}`);
      report.changed.push(change.scope);
      deps.log('warn', 'comment change refused', { id: change.id, kind: change.kind, reason });
    }
  }
  return report;
}

async function send(
  deps: CommentDrainDeps,
  outbox: CommentOutbox,
  change: QueuedCommentChange,
  commentId: string | null,
  replyId: string | null,
): Promise<void> {
  const { remote } = deps;
  const mirror = new CommentMirror(deps.db);
  const scope = change.scope;
  const key = { idempotencyKey: change.idempotencyKey };
  const { payload } = change;
  switch (change.kind) {
    case 'create': {
      const created = await remote.createComment(
        scope,
        { markdown: payload.body ?? '', pageId: payload.pageId ?? null },
        key,
      );
      mirror.putComment(scope, created, null);
      outbox.acknowledge(change, created.id);
      return;
    }
    case 'reply': {
      const created = await remote.createReply(scope, commentId!, payload.body ?? '', key);
      mirror.putReply(scope, commentId!, created);
      outbox.acknowledge(change, created.id);
      return;
    }
    case 'delete':
      await remote.deleteComment(scope, commentId!, replyId);
      mirror.remove(scope, replyId ?? commentId!);
      outbox.acknowledge(change);
      return;
    default:
      await remote.updateComment(scope, commentId!, replyId, updateOf(change), key);
      // The next pull brings the server's version; until then the view shows the sent one.
      outbox.acknowledge(change);
      applyLocally(mirror, change, replyId ?? commentId!);
  }
}

function updateOf(change: QueuedCommentChange) {
  const { payload } = change;
  if (change.kind === 'edit') return { markdown: payload.body ?? '' };
  if (change.kind === 'resolve') return { resolved: payload.resolved === true };
  const emoji = [payload.emoji ?? ''];
  return payload.add === true ? { addedReactions: emoji } : { removedReactions: emoji };
}

/** The acknowledged change written into the mirror (reactions wait for the pull). */
function applyLocally(mirror: CommentMirror, change: QueuedCommentChange, id: string): void {
  const item = mirror.find(change.scope, id);
  if (item === undefined) return;
  const base = {
    id: item.id,
    author: item.author,
    markdown: item.body,
    postedAt: item.postedAt,
    editedAt: item.editedAt,
    reactions: item.reactions,
    canEdit: item.canEdit,
  };
  if (change.kind === 'edit') base.markdown = change.payload.body ?? item.body;
  if (item.parentId !== null) {
    mirror.putReply(change.scope, item.parentId, base);
    return;
  }
  const resolved = change.kind === 'resolve' ? change.payload.resolved === true : item.resolved;
  mirror.putComment(
    change.scope,
    { ...base, page: item.page, resolved, repliesFingerprint: '' },
    null,
  );
}
