import type { SyncOnceResult } from '../../src/shared/contract/spaces';

/** Throws unless a benchmark's sync succeeded everywhere: a failed sync must not be timed. */
export function checkSyncResult(result: SyncOnceResult, what: string): void {
  const failures = [
    ...result.errors,
    ...result.spaces.flatMap((space) =>
      space.outcome === 'failed' || space.conflicts > 0 || space.problems.length > 0
        ? [`${space.id}: ${space.outcome}, ${space.problems.join('; ') || 'conflicts'}`]
        : [],
    ),
  ];
  if (failures.length > 0)
    throw new Error(`${what} did not succeed: ${failures.slice(0, 5).join(' | ')}`);
}
