import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff';

describe('lineDiff', () => {
  it('numbers lines and marks the changed words of paired lines', () => {
    const result = lineDiff('a\nthe old word\nc\n', 'a\nthe new word\nc\n');
    expect(result).toMatchObject({ added: 1, removed: 1 });
    expect(result.lines).toEqual([
      { kind: 'context', oldLine: 1, newLine: 1, segments: [{ text: 'a', changed: false }] },
      {
        kind: 'removed',
        oldLine: 2,
        newLine: null,
        segments: [
          { text: 'the ', changed: false },
          { text: 'old', changed: true },
          { text: ' word', changed: false },
        ],
      },
      {
        kind: 'added',
        oldLine: null,
        newLine: 2,
        segments: [
          { text: 'the ', changed: false },
          { text: 'new', changed: true },
          { text: ' word', changed: false },
        ],
      },
      { kind: 'context', oldLine: 3, newLine: 3, segments: [{ text: 'c', changed: false }] },
    ]);
  });

  it('collapses unchanged runs beyond three lines of context', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 10', 'line ten');
    const { lines } = lineDiff(before, after);
    expect(lines[0]).toEqual({ kind: 'skipped', count: 7 });
    expect(lines.at(-1)).toEqual({ kind: 'skipped', count: 6 });
    expect(lines.filter((line) => line.kind === 'context')).toHaveLength(6);
  });

  it('shows added and removed pages line by line, unpaired lines marked whole', () => {
    expect(lineDiff('', 'one\ntwo\n')).toMatchObject({ added: 2, removed: 0 });
    const { lines } = lineDiff('x\n', 'y\nz\n');
    expect(lines.map((line) => line.kind)).toEqual(['removed', 'added', 'added']);
    expect(lines[2]).toMatchObject({ segments: [{ text: 'z', changed: true }] });
  });

  it('stays bounded on large, entirely different texts', () => {
    const before = Array.from({ length: 5000 }, (_, i) => `a${i}`).join('\n');
    const after = Array.from({ length: 5000 }, (_, i) => `b${i}`).join('\n');
    const result = lineDiff(before, after);
    expect(result).toMatchObject({ added: 5000, removed: 5000 });
  });
});
