import { PUSH_PROBLEM_KINDS } from '../cache/sync-problems';
import type { EngineContext } from './engine-context';
import type { ReportedProblem } from './sync-report';

/**
 * Records a sync's problems for a space. Conflicts and blocked paths are re-evaluated on every
 * sync of the space, so those not seen again are resolved; a kept file stays reported until the
 * user deals with it (removes it or the space comes back). Call inside a transaction.
 */
export function recordProblems(
  ctx: Pick<EngineContext, 'problems' | 'index'>,
  spaceId: string,
  problems: readonly ReportedProblem[],
  now: string,
): void {
  const seen = new Set(problems.map((problem) => `${problem.kind}\0${problem.path}`));
  for (const existing of ctx.problems.list(spaceId)) {
    if (
      existing.kind === 'kept-deleted' &&
      existing.path !== null &&
      ctx.index.get(spaceId, existing.path)
    ) {
      // The path is the engine's again (the page came back): nothing is kept any more.
      ctx.problems.remove(existing.id);
    } else if (
      existing.kind !== 'kept-deleted' &&
      !PUSH_PROBLEM_KINDS.has(existing.kind) &&
      !seen.has(`${existing.kind}\0${existing.path}`)
    ) {
      ctx.problems.remove(existing.id);
    }
  }
  for (const problem of problems) ctx.problems.add({ ...problem, spaceId, createdAt: now });
}
