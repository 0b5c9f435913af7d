import { diffLines, diffWordsWithSpace, type Change } from 'diff';
import type { DiffLine, DiffSegment } from '../../shared/contract/change-requests';

/** Unchanged lines shown around each change. */
const CONTEXT = 3;
/** Longest a line diff may take before the page is shown as replaced whole. */
const DIFF_TIMEOUT_MS = 2000;
/** Longest line pair highlighted word by word (longer ones are marked changed whole). */
const MAX_WORD_DIFF_CHARS = 10_000;

export interface LineDiffResult {
  lines: DiffLine[];
  added: number;
  removed: number;
}

/** `text` split into lines without their terminators (a final newline adds no empty line). */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A unified line diff of two Markdown texts (jsdiff), with unchanged runs beyond the context
 * collapsed to `skipped`, and word-level highlighting where removed lines are followed by added
 * ones (paired in order). A diff that would take too long shows the page replaced whole.
 */
export function lineDiff(before: string, after: string): LineDiffResult {
  const changes = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS }) ?? [
    { value: before, count: splitLines(before).length, added: false, removed: true },
    { value: after, count: splitLines(after).length, added: true, removed: false },
  ];
  const full = unified(changes);
  const added = full.filter((line) => line.kind === 'added').length;
  const removed = full.filter((line) => line.kind === 'removed').length;
  return { lines: collapse(full), added, removed };
}

type NumberedLine = Extract<DiffLine, { kind: 'context' | 'added' | 'removed' }>;

function unified(changes: readonly Change[]): NumberedLine[] {
  const out: NumberedLine[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    const next = changes[i + 1];
    if (change.removed && next?.added) {
      const pairs = highlightPairs(splitLines(change.value), splitLines(next.value));
      for (const segments of pairs.removed) {
        out.push({ kind: 'removed', oldLine: oldLine++, newLine: null, segments });
      }
      for (const segments of pairs.added) {
        out.push({ kind: 'added', oldLine: null, newLine: newLine++, segments });
      }
      i++;
      continue;
    }
    for (const text of splitLines(change.value)) {
      const segments = [{ text, changed: change.added || change.removed }];
      if (change.added) out.push({ kind: 'added', oldLine: null, newLine: newLine++, segments });
      else if (change.removed) {
        out.push({ kind: 'removed', oldLine: oldLine++, newLine: null, segments });
      } else {
        out.push({ kind: 'context', oldLine: oldLine++, newLine: newLine++, segments });
      }
    }
  }
  return out;
}

/** Removed and added lines paired in order; each pair highlighted word by word. */
function highlightPairs(
  removed: readonly string[],
  added: readonly string[],
): { removed: DiffSegment[][]; added: DiffSegment[][] } {
  const result = {
    removed: removed.map((text) => [{ text, changed: true }]),
    added: added.map((text) => [{ text, changed: true }]),
  };
  const pairs = Math.min(removed.length, added.length);
  for (let i = 0; i < pairs; i++) {
    const before = removed[i]!;
    const after = added[i]!;
    if (before.length + after.length > MAX_WORD_DIFF_CHARS) continue;
    const words = diffWordsWithSpace(before, after, { timeout: DIFF_TIMEOUT_MS });
    if (!words) continue;
    result.removed[i] = merge(words.filter((part) => !part.added).map(segmentOf));
    result.added[i] = merge(words.filter((part) => !part.removed).map(segmentOf));
  }
  return result;
}

function segmentOf(part: Change): DiffSegment {
  return { text: part.value, changed: part.added || part.removed };
}

/** Adjacent segments of the same kind joined. */
function merge(segments: readonly DiffSegment[]): DiffSegment[] {
  const out: DiffSegment[] = [];
  for (const segment of segments) {
    const last = out[out.length - 1];
    if (last && last.changed === segment.changed) last.text += segment.text;
    else if (segment.text !== '') out.push({ ...segment });
  }
  return out.length > 0 ? out : [{ text: '', changed: false }];
}

/** Context lines farther than CONTEXT from any change become one `skipped` line per run. */
function collapse(lines: readonly NumberedLine[]): DiffLine[] {
  const near = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, index) => {
    if (line.kind === 'context') return;
    const from = Math.max(0, index - CONTEXT);
    const to = Math.min(lines.length - 1, index + CONTEXT);
    for (let i = from; i <= to; i++) near[i] = true;
  });
  const out: DiffLine[] = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (near[index]) {
      if (skipped > 0) out.push({ kind: 'skipped', count: skipped });
      skipped = 0;
      out.push(line);
    } else {
      skipped++;
    }
  });
  if (skipped > 0) out.push({ kind: 'skipped', count: skipped });
  return out;
}
