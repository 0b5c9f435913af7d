import type { RefusedChangeListing } from '../../../shared/contract/local-changes';
import type { SyncProblemKind, SyncStatusProblem } from '../../../shared/contract/sync-status';

/** What fixes a problem: the action the Problems screen offers next to it. */
export type ProblemAction =
  | { kind: 'confirm-deletes'; spaceId: string }
  | { kind: 'retry-or-drop'; refused: RefusedChangeListing }
  | { kind: 'fix-file' }
  | { kind: 'resolve-conflict' }
  | { kind: 'none' };

const TITLES: Record<SyncProblemKind, string> = {
  'kept-deleted': 'Deleted on the other side, kept here',
  conflict: 'Changed on both sides',
  'path-taken': 'A local file is in the way',
  'write-failed': 'Could not be written',
  'download-failed': 'Could not be downloaded',
  'not-pushed': 'Not sent: fix the file',
  'push-blocked': 'Waiting for your confirmation',
  'folder-missing': 'Space folder missing',
  'push-failed': 'Refused by the server',
};

export function problemTitle(kind: SyncProblemKind): string {
  return TITLES[kind];
}

/**
 * The action for a problem: a blocked push is confirmed, a refused change retried or dropped (its
 * listing found by path and space), a conflict resolved, a bad file fixed on disk.
 */
export function problemAction(
  problem: SyncStatusProblem,
  refused: readonly RefusedChangeListing[],
): ProblemAction {
  switch (problem.kind) {
    case 'push-blocked':
      return { kind: 'confirm-deletes', spaceId: problem.spaceId };
    case 'push-failed': {
      const match = refused.find((r) => r.spaceId === problem.spaceId && r.path === problem.path);
      return match ? { kind: 'retry-or-drop', refused: match } : { kind: 'none' };
    }
    case 'conflict':
      return { kind: 'resolve-conflict' };
    case 'not-pushed':
    case 'path-taken':
      return { kind: 'fix-file' };
    default:
      return { kind: 'none' };
  }
}

/** Refused changes the status does not list as a problem (so each is shown exactly once). */
export function unlistedRefused(
  problems: readonly SyncStatusProblem[],
  refused: readonly RefusedChangeListing[],
): RefusedChangeListing[] {
  return refused.filter(
    (r) =>
      !problems.some(
        (p) => p.kind === 'push-failed' && p.spaceId === r.spaceId && p.path === r.path,
      ),
  );
}
