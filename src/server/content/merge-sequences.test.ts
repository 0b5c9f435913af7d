import { describe, expect, it } from 'vitest';
import { mergeSequences, orderChanged } from './merge-sequences';

const all = (...lists: string[][]) => new Set(lists.flat());

describe('orderChanged', () => {
  it('looks only at the ids shared with the base', () => {
    expect(orderChanged(['a', 'b', 'c'], ['x', 'a', 'c'])).toBe(false);
    expect(orderChanged(['a', 'b', 'c'], ['c', 'x', 'a'])).toBe(true);
  });
});

describe('mergeSequences', () => {
  it('keeps the base order when nobody reordered', () => {
    const base = ['a', 'b', 'c'];
    expect(mergeSequences(base, base, base, all(base))).toEqual(base);
  });

  it('takes the order of the only side that reordered', () => {
    const base = ['a', 'b', 'c'];
    expect(mergeSequences(base, base, ['c', 'b', 'a'], all(base))).toEqual(['c', 'b', 'a']);
    expect(mergeSequences(base, ['b', 'a', 'c'], base, all(base))).toEqual(['b', 'a', 'c']);
  });

  it('keeps ours when both reordered', () => {
    const base = ['a', 'b', 'c'];
    expect(mergeSequences(base, ['c', 'a', 'b'], ['b', 'c', 'a'], all(base))).toEqual([
      'c',
      'a',
      'b',
    ]);
  });

  it('places the other side’s new ids after their neighbour, after ours’ own new ids', () => {
    const base = ['a', 'b', 'c'];
    const ours = ['a', 'o1', 'b', 'c'];
    const theirs = ['t0', 'a', 't1', 'b', 'c', 't2'];
    expect(mergeSequences(base, ours, theirs, all(ours, theirs))).toEqual([
      't0',
      'a',
      'o1',
      't1',
      'b',
      'c',
      't2',
    ]);
  });

  it('holds exactly the members, whatever the lists hold', () => {
    const base = ['a', 'b', 'c'];
    expect(
      mergeSequences(base, ['a', 'c'], ['a', 'b', 'c', 'x'], new Set(['a', 'c', 'x', 'z'])),
    ).toEqual(['a', 'c', 'x', 'z']);
  });
});
