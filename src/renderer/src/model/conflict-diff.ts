import { diffLines, diffWords, type ChangeObject } from 'diff';

/** A run of text in a line; `changed` marks the words that differ from the base. */
export interface DiffSegment {
  readonly text: string;
  readonly changed: boolean;
}

/** One line of a side compared with the base: kept, added on this side, or removed from the base. */
export interface DiffLine {
  readonly kind: 'same' | 'added' | 'removed';
  readonly segments: readonly DiffSegment[];
}

/** A base line, and whether mine or theirs changed it. */
export interface BaseLine {
  readonly text: string;
  readonly changed: boolean;
}

/** The three columns of the conflict view. A missing version (deleted, unknown) is null. */
export interface ConflictColumns {
  readonly base: readonly BaseLine[] | null;
  readonly mine: readonly DiffLine[] | null;
  readonly theirs: readonly DiffLine[] | null;
}

/** Splits runs of text into lines at '\n' (a final newline ends the last line, adds none). */
export function splitSegmentsIntoLines(segments: readonly DiffSegment[]): DiffSegment[][] {
  const lines: DiffSegment[][] = [[]];
  for (const segment of segments) {
    const parts = segment.text.split('\n');
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== '') lines[lines.length - 1]?.push({ text: part, changed: segment.changed });
    });
  }
  if (lines.length > 1 && lines[lines.length - 1]?.length === 0) lines.pop();
  return lines;
}

function linesOf(kind: DiffLine['kind'], segments: readonly DiffSegment[]): DiffLine[] {
  return splitSegmentsIntoLines(segments).map((line) => ({ kind, segments: line }));
}

/** A replaced block: the removed and added lines, with the words that differ marked on each. */
function replacedBlock(removed: string, added: string): DiffLine[] {
  const words = diffWords(removed, added);
  const before = words
    .filter((part) => !part.added)
    .map((part) => ({ text: part.value, changed: part.removed }));
  const after = words
    .filter((part) => !part.removed)
    .map((part) => ({ text: part.value, changed: part.added }));
  return [...linesOf('removed', before), ...linesOf('added', after)];
}

/**
 * One side compared with the base, line by line; where a block of lines was replaced, the words
 * that changed inside it are marked too.
 */
export function diffAgainstBase(base: string, side: string): DiffLine[] {
  const changes: ChangeObject<string>[] = diffLines(base, side);
  const out: DiffLine[] = [];
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i];
    if (!change) continue;
    const next = changes[i + 1];
    if (change.removed && next?.added) {
      out.push(...replacedBlock(change.value, next.value));
      i++;
    } else if (change.removed || change.added) {
      const kind = change.added ? 'added' : 'removed';
      out.push(...linesOf(kind, [{ text: change.value, changed: false }]));
    } else {
      out.push(...linesOf('same', [{ text: change.value, changed: false }]));
    }
  }
  return out;
}

/** The indexes of the base lines a side removed or replaced. */
function changedBaseLines(base: string, side: string | null): Set<number> {
  const changed = new Set<number>();
  let line = 0;
  for (const change of diffLines(base, side ?? '')) {
    if (change.added) continue;
    const count = change.count ?? 0;
    if (change.removed) for (let k = 0; k < count; k++) changed.add(line + k);
    line += count;
  }
  return changed;
}

/** The base, mine and theirs of a conflicted page, each side marked against the base. */
export function conflictColumns(
  base: string | null,
  mine: string | null,
  theirs: string | null,
): ConflictColumns {
  const original = base ?? '';
  const byMine = changedBaseLines(original, mine);
  const byTheirs = changedBaseLines(original, theirs);
  const baseLines =
    base === null
      ? null
      : splitSegmentsIntoLines([{ text: base, changed: false }]).map((segments, index) => ({
          text: segments.map((segment) => segment.text).join(''),
          changed: byMine.has(index) || byTheirs.has(index),
        }));
  return {
    base: baseLines,
    mine: mine === null ? null : diffAgainstBase(original, mine),
    theirs: theirs === null ? null : diffAgainstBase(original, theirs),
  };
}
