import { describe, expect, it } from 'vitest';
import type { DiffLine } from '../../../shared/contract/change-requests';
import { saveDiffMode, savedDiffMode, sideBySide } from './review-diff';

const line = (kind: 'context' | 'added' | 'removed', text: string, n: number): DiffLine => ({
  kind,
  oldLine: kind === 'added' ? null : n,
  newLine: kind === 'removed' ? null : n,
  segments: [{ text, changed: false }],
});

describe('side by side', () => {
  it('pairs each run of removed lines with the added run after it, the rest alone', () => {
    const rows = sideBySide([
      line('context', 'a', 1),
      line('removed', 'b', 2),
      line('removed', 'c', 3),
      line('added', 'B', 2),
      { kind: 'skipped', count: 7 },
      line('added', 'z', 12),
    ]);
    const text = (l: DiffLine | null) => (l && l.kind !== 'skipped' ? l.segments[0]!.text : null);
    expect(
      rows.map((r) => (r.kind === 'skipped' ? `…${r.count}` : `${text(r.left)}|${text(r.right)}`)),
    ).toEqual(['a|a', 'b|B', 'c|null', '…7', 'null|z']);
  });

  it('does not pair an added line with a removal after it', () => {
    const rows = sideBySide([line('added', 'x', 1), line('removed', 'y', 1)]);
    expect(rows).toHaveLength(2);
  });
});

describe('the remembered diff layout', () => {
  it('is side by side until the user picks unified, and survives a refusing storage', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    expect(savedDiffMode(storage)).toBe('split');
    saveDiffMode(storage, 'unified');
    expect(savedDiffMode(storage)).toBe('unified');
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(savedDiffMode(refusing)).toBe('split');
    expect(() => saveDiffMode(refusing, 'unified')).not.toThrow();
  });
});
