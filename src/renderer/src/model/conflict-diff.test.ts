import { describe, expect, it } from 'vitest';
import {
  conflictColumns,
  diffAgainstBase,
  splitSegmentsIntoLines,
  type DiffLine,
} from './conflict-diff';

/** A line as text with the changed words in [brackets], for readable expectations. */
function show(lines: readonly DiffLine[]): string[] {
  return lines.map(
    (line) =>
      `${line.kind[0]} ${line.segments.map((s) => (s.changed ? `[${s.text}]` : s.text)).join('')}`,
  );
}

describe('splitSegmentsIntoLines', () => {
  it('splits at newlines, keeps the marks, and adds no line for a final newline', () => {
    expect(
      splitSegmentsIntoLines([
        { text: 'a ', changed: false },
        { text: 'b\nc', changed: true },
        { text: '\n', changed: false },
      ]),
    ).toEqual([
      [
        { text: 'a ', changed: false },
        { text: 'b', changed: true },
      ],
      [{ text: 'c', changed: true }],
    ]);
  });
});

describe('diffAgainstBase', () => {
  it('marks added and removed lines, and the changed words of a replaced line', () => {
    const base = 'Title\nThe quick fox\nEnd\n';
    const side = 'Title\nThe slow fox\nNew line\nEnd\n';
    expect(show(diffAgainstBase(base, side))).toEqual([
      's Title',
      'r The [quick] fox',
      'a The [slow] fox',
      'a [New line]',
      's End',
    ]);
  });

  it('marks a whole added block when nothing was removed', () => {
    expect(show(diffAgainstBase('a\n', 'a\nb\nc\n'))).toEqual(['s a', 'a b', 'a c']);
  });

  it('shows every line as the same when nothing changed', () => {
    expect(show(diffAgainstBase('x\ny\n', 'x\ny\n'))).toEqual(['s x', 's y']);
  });
});

describe('conflictColumns', () => {
  it('marks the base lines either side changed', () => {
    const columns = conflictColumns('one\ntwo\nthree\n', 'one\n2\nthree\n', 'one\ntwo\n3\n');
    expect(columns.base).toEqual([
      { text: 'one', changed: false },
      { text: 'two', changed: true },
      { text: 'three', changed: true },
    ]);
    expect(show(columns.mine ?? [])).toEqual(['s one', 'r [two]', 'a [2]', 's three']);
    expect(show(columns.theirs ?? [])).toEqual(['s one', 's two', 'r [three]', 'a [3]']);
  });

  it('leaves a missing version out (an unknown base, a deleted side)', () => {
    const columns = conflictColumns(null, 'mine\n', null);
    expect(columns.base).toBeNull();
    expect(columns.theirs).toBeNull();
    expect(show(columns.mine ?? [])).toEqual(['a mine']);
  });
});
