import type { SyncStatusProblem } from '../../../shared/contract/sync-status';

/**
 * The CLI commands that settle the problems listed. The engine's messages name no front end's
 * commands (the app offers buttons instead), so the CLI adds its own, once per kind.
 */
export function problemHints(
  problems: readonly SyncStatusProblem[],
  refusedCount: number,
): string[] {
  const kinds = new Set(problems.map((problem) => problem.kind));
  const hints: string[] = [];
  const guarded = new Set(
    problems.filter((problem) => problem.kind === 'push-blocked').map((p) => p.spaceId),
  );
  for (const spaceId of guarded) {
    hints.push(`Run \`quire confirm-deletes ${spaceId}\` to push the deletions held back.`);
  }
  if (kinds.has('conflict') || kinds.has('kept-deleted')) {
    hints.push(
      '`quire conflicts` lists the conflicts; `quire resolve <id> --mine | --theirs | --merged <file>` settles one.',
    );
  }
  if (kinds.has('push-failed') || refusedCount > 0) {
    hints.push(
      '`quire retry <id>` sends a refused change again (`quire status` lists them); `quire drop <id>` keeps it local.',
    );
  }
  if (kinds.has('folder-missing')) {
    hints.push('Restore the space folder, or `quire spaces disable <spaceId>` to stop syncing it.');
  }
  return hints;
}
