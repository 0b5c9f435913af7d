import type { ReviewNotification } from '../../shared/contract/review';
import { messageOf } from '../../shared/message-of';
import type { CacheDb } from '../cache/open-cache-database';
import type { SpaceCache } from '../cache/space-cache';
import type { CommentScope, RemoteComments } from './comment-remote';
import { drainCommentOutbox } from './drain-comment-outbox';
import { pullComments } from './pull-comments';

/** SyncEngineOptions.comments: mirror comments and send the comment outbox on every run. */
export interface CommentSyncOptions {
  remote: RemoteComments;
  /** The signed-in user (notifications are about their change requests and comments). */
  userId: string;
}

/** What a run did with comments. */
export interface CommentSyncReport {
  sent: number;
  /** Queued changes the server refused this run (kept, with the reason, in the thread). */
  refused: string[];
  notifications: ReviewNotification[];
  /** Scopes whose threads changed, each once. */
  changed: CommentScope[];
  errors: string[];
}

export interface CommentSyncDeps extends CommentSyncOptions {
  db: CacheDb;
  /** Sending is paused (`quire pause`): the threads are still pulled. */
  paused: boolean;
  /** Read every thread now (see CommentPullDeps.refresh). */
  refresh?: boolean;
  now(): Date;
  spaces: SpaceCache;
  log(level: 'info' | 'warn', message: string, fields?: Record<string, unknown>): void;
}

/**
 * The comment step of a sync run (after the page pushes and pulls): sends the comment outbox,
 * then pulls the threads, so what was just sent comes back as the server has it. An unreachable
 * server leaves everything queued for the next run; nothing here fails the sync.
 */
export async function syncComments(deps: CommentSyncDeps): Promise<CommentSyncReport> {
  const report: CommentSyncReport = {
    sent: 0,
    refused: [],
    notifications: [],
    changed: [],
    errors: [],
  };
  try {
    if (!deps.paused) {
      const drained = await drainCommentOutbox(deps);
      report.sent = drained.sent;
      report.refused = drained.refused;
      report.changed.push(...drained.changed);
      if (drained.offline) return finish(report);
    }
    const pulled = await pullComments({ ...deps, touched: report.changed });
    report.notifications = pulled.notifications;
    report.changed.push(...pulled.changed);
    report.errors = pulled.errors;
  } catch (error) {
    report.errors.push(`comments not synced: ${messageOf(error)}`);
  }
  for (const error of report.errors) deps.log('warn', error);
  return finish(report);
}

function finish(report: CommentSyncReport): CommentSyncReport {
  const seen = new Set<string>();
  report.changed = report.changed.filter((scope) => {
    const key = `${scope.spaceId}\0${scope.changeRequest ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return report;
}
