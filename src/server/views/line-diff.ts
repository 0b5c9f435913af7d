/**
 * Line diffs of page bodies for the change-request view (jsdiff's Myers diff). Pure and run on
 * the worker threads (the `line-diffs` job); bounded: bodies over MAX_DIFF_CHARS, or needing more
 * than MAX_EDIT_LENGTH edits or PAIR_TIMEOUT_MS, give null and the view says the diff is too large
 * to show; so does every pair after a job has spent JOB_TIME_MS, well within the CPU budget.
 */
import { diffLines } from 'diff';

export type LineDiffKind = 'same' | 'added' | 'removed';

/** A run of lines that are kept, added or removed (without their line breaks). */
export interface LineDiffPart {
  kind: LineDiffKind;
  lines: string[];
}

export interface LineDiffInput {
  before: string;
  after: string;
}

export const MAX_DIFF_CHARS = 200_000;
const MAX_EDIT_LENGTH = 5_000;
const PAIR_TIMEOUT_MS = 250;
const JOB_TIME_MS = 3_000;

function splitLines(value: string): string[] {
  const lines = value.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The line diff of one pair, or null when it is too large to compute within the bounds. */
export function lineDiff({ before, after }: LineDiffInput): LineDiffPart[] | null {
  if (before.length > MAX_DIFF_CHARS || after.length > MAX_DIFF_CHARS) return null;
  const changes = diffLines(before, after, {
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: PAIR_TIMEOUT_MS,
  });
  if (!changes) return null;
  return changes.map((change) => ({
    kind: change.added ? 'added' : change.removed ? 'removed' : 'same',
    lines: splitLines(change.value),
  }));
}

/** lineDiff of each pair (the worker's `line-diffs` job). */
export function lineDiffs(pairs: readonly LineDiffInput[]): (LineDiffPart[] | null)[] {
  const deadline = performance.now() + JOB_TIME_MS;
  return pairs.map((pair) => (performance.now() < deadline ? lineDiff(pair) : null));
}
