import type { ReviewNotification } from '../../shared/contract/review';
import type { SyncStatusProblem, SyncStatusSnapshot } from '../../shared/contract/sync-status';

/** The screen a notification's click opens (the renderer's `#/<screen>` route). */
export type NotificationScreen = 'conflicts' | 'problems' | 'settings' | 'review' | ReviewScreen;

/** One change request's screen: `review/<space id, URL-encoded>/<number>`. */
type ReviewScreen = `review/${string}/${number}`;

export interface DesktopNotification {
  readonly kind: 'conflict' | 'push-failed' | 'token-rejected' | 'mass-delete' | 'review';
  readonly title: string;
  readonly body: string;
  readonly screen: NotificationScreen;
}

/**
 * What to tell the user about a status change: only what they must act on, and only when it is
 * new. The first snapshot (previous undefined) is the baseline: conflicts and problems that were
 * there before the app started are on its screens, not announced again at every launch; only a
 * rejected token is.
 */
export function notificationsForChange(
  previous: SyncStatusSnapshot | undefined,
  next: SyncStatusSnapshot,
): DesktopNotification[] {
  const notes: DesktopNotification[] = [];
  if (next.tokenRejected && !previous?.tokenRejected) {
    notes.push({
      kind: 'token-rejected',
      title: 'Sign in to Quire again',
      body: 'The server rejected the token (revoked or expired). Nothing syncs until you sign in.',
      screen: 'settings',
    });
  }
  if (previous === undefined) return notes;
  if (next.conflicts > previous.conflicts) {
    const added = next.conflicts - previous.conflicts;
    notes.push({
      kind: 'conflict',
      title: added === 1 ? 'A page has a conflict' : `${added} pages have conflicts`,
      body: 'It was changed here and on the server. Your file was kept: choose which version wins.',
      screen: 'conflicts',
    });
  }
  const failed = newProblems(previous, next, 'push-failed');
  if (failed.length > 0) {
    notes.push({
      kind: 'push-failed',
      title: failed.length === 1 ? 'A change was refused' : `${failed.length} changes were refused`,
      body: `${failed[0]!.path}: ${failed[0]!.message}`,
      screen: 'problems',
    });
  }
  const blocked = newProblems(previous, next, 'push-blocked');
  if (blocked.length > 0) {
    notes.push({
      kind: 'mass-delete',
      title: 'Quire held back deletions',
      body: `${blocked[0]!.path}: ${blocked[0]!.message} Confirm them in Quire to push.`,
      screen: 'problems',
    });
  }
  return notes;
}

function newProblems(
  previous: SyncStatusSnapshot,
  next: SyncStatusSnapshot,
  kind: SyncStatusProblem['kind'],
): SyncStatusProblem[] {
  const key = (problem: SyncStatusProblem) => `${problem.spaceId}\n${problem.path}`;
  const known = new Set(previous.problems.filter((p) => p.kind === kind).map(key));
  return next.problems.filter((problem) => problem.kind === kind && !known.has(key(problem)));
}

/**
 * What the engine announces on the user's change requests (a comment, a reply, a review, a
 * merge), as an OS notification whose click opens that change request (the inbox for a comment
 * on a space). The engine already wrote the title; the body is cut to one short line.
 */
export function notificationForReview(note: ReviewNotification): DesktopNotification {
  const body = note.body.replace(/\s+/g, ' ').trim();
  return {
    kind: 'review',
    title: note.title.slice(0, 120),
    body: body.length > 200 ? `${body.slice(0, 199)}…` : body,
    screen:
      note.number === null ? 'review' : `review/${encodeURIComponent(note.spaceId)}/${note.number}`,
  };
}
