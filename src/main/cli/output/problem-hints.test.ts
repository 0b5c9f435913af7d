import { describe, expect, it } from 'vitest';
import type { SyncStatusProblem } from '../../../shared/contract/sync-status';
import { problemHints } from './problem-hints';

const problem = (kind: SyncStatusProblem['kind'], spaceId = 's-1'): SyncStatusProblem => ({
  kind,
  spaceId,
  path: 'Acme/Space/a.md',
  message: 'm',
});

describe('problemHints', () => {
  it('names the CLI command for each kind once, and confirm-deletes per space', () => {
    const hints = problemHints(
      [
        problem('push-blocked', 's-1'),
        problem('push-blocked', 's-2'),
        problem('conflict'),
        problem('kept-deleted'),
        problem('push-failed'),
        problem('push-failed'),
      ],
      0,
    );
    expect(hints).toEqual([
      'Run `quire confirm-deletes s-1` to push the deletions held back.',
      'Run `quire confirm-deletes s-2` to push the deletions held back.',
      expect.stringContaining('`quire resolve <id>'),
      expect.stringContaining('`quire retry <id>`'),
    ]);
  });

  it('says nothing for problems fixed in the file itself, and how to get past a missing folder', () => {
    expect(problemHints([problem('not-pushed'), problem('path-taken')], 0)).toEqual([]);
    expect(problemHints([problem('folder-missing')], 0)).toEqual([
      expect.stringContaining('quire spaces disable'),
    ]);
    expect(problemHints([], 2)).toEqual([expect.stringContaining('quire drop <id>')]);
  });
});
