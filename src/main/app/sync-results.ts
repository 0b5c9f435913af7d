import type { WatchRunSummary } from '../../shared/contract/activity';
import type { SpaceSyncResult } from '../../shared/contract/spaces';
import { isCheckoutKey } from '../checkouts/checkout-store';
import type { SpaceSyncReport } from '../sync/sync-engine';
import { problemText } from '../sync/problem-text';
import type { WatchRun } from '../sync/sync-watcher';

/** A space's part of a sync report, in the contract's terms (open conflicts counted by the caller). */
export function spaceSyncResult(space: SpaceSyncReport): SpaceSyncResult {
  const conflicts = space.problems.filter((problem) => problem.kind === 'conflict').length;
  const problems = space.problems
    .filter((problem) => problem.kind !== 'conflict')
    .map((problem) => problemText(problem.path, problem.message));
  if (space.error !== undefined) problems.unshift(space.error.message);
  let outcome: SpaceSyncResult['outcome'] = space.pulled ? 'pulled' : 'pushed';
  if (space.removedSpace) outcome = 'removed';
  else if (space.error !== undefined) outcome = 'failed';
  else if (!space.pulled && !space.pushed) outcome = 'unchanged';
  return {
    id: space.spaceId,
    title: space.title,
    outcome,
    revision: space.toRevision,
    filesWritten: space.written.length,
    filesRemoved: space.removed.length,
    conflicts,
    problems,
    ...(space.pushed ? { pushed: space.pushed } : {}),
    ...(isCheckoutKey(space.spaceId) ? { checkout: true as const } : {}),
  };
}

/** What a watcher run did, in numbers. */
export function watchRunSummary(run: WatchRun): WatchRunSummary {
  const { report } = run;
  let pushed = 0;
  let written = 0;
  let removed = 0;
  const failures: string[] = report.errors.map((error) => error.message);
  for (const space of report.spaces) {
    pushed += space.pushed ?? 0;
    written += space.pulled ? space.written.length : 0;
    removed += space.removed.length;
    if (space.error !== undefined) failures.push(`${space.title}: ${space.error.message}`);
  }
  return {
    kind: run.kind,
    reason: run.reason,
    finishedAt: report.finishedAt,
    pushed,
    written,
    removed,
    offline: report.offline === true,
    failures,
  };
}
