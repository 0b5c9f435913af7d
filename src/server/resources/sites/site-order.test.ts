import { describe, expect, it } from 'vitest';
import { placeAmong } from './site-order';
import { pathFromTitle, uniquePath } from './site-paths';

describe('placeAmong', () => {
  const ids = ['a', 'b', 'c', 'd'];
  it('places before, after, between two neighbours, or last', () => {
    expect(placeAmong(ids, 'd', { before: 'a' }, 'x')).toEqual(['d', 'a', 'b', 'c']);
    expect(placeAmong(ids, 'a', { after: 'c' }, 'x')).toEqual(['b', 'c', 'a', 'd']);
    expect(placeAmong(ids, 'a', { after: 'b', before: 'c' }, 'x')).toEqual(['b', 'a', 'c', 'd']);
    expect(placeAmong(ids, 'b', undefined, 'x')).toEqual(['a', 'c', 'd', 'b']);
  });
  it('refuses itself, strangers and neighbours that are not adjacent', () => {
    expect(() => placeAmong(ids, 'a', { before: 'a' }, 'x')).toThrow(/position\.before cannot/);
    expect(() => placeAmong(ids, 'a', { after: 'z' }, 'the root')).toThrow(
      /position\.after names z, which is not in the root/,
    );
    expect(() => placeAmong(ids, 'a', { after: 'b', before: 'd' }, 'x')).toThrow(/adjacent/);
  });
});

describe('site paths', () => {
  it('derives a URL segment from a title, with a fallback', () => {
    expect(pathFromTitle('Hello, Wörld & Co!', 'space')).toBe('hello-world-co');
    expect(pathFromTitle('📘', 'space')).toBe('space');
    expect(pathFromTitle('x'.repeat(300), 'space').length).toBeLessThanOrEqual(96);
  });
  it('suffixes a taken path until it is free', () => {
    expect(uniquePath('api', new Set())).toBe('api');
    expect(uniquePath('api', new Set(['api', 'api-2']))).toBe('api-3');
  });
});
