import { describe, expect, it } from 'vitest';
import { hardWrap } from './hard-wrap';

/** Every character one unit wide, so a line holds `max` characters. */
const unit = () => 1;
const pieces = (text: string) => text.split('\n');

describe('hardWrap', () => {
  it('leaves text whose words fit untouched', () => {
    const text = 'A sentence of short words, (bracketed) and "quoted", that wraps normally.';
    expect(hardWrap(text, 12, unit)).toBe(text);
    expect(hardWrap('', 12, unit)).toBe('');
  });

  it('cuts a word longer than a line into pieces no wider than the line', () => {
    const word = 'x'.repeat(25);
    const wrapped = hardWrap(`before ${word} after`, 10, unit);
    expect(wrapped.replaceAll('\n', '')).toBe(`before ${word} after`);
    expect(pieces(wrapped)).toEqual(['before xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxx after']);
  });

  it('measures with the widths it is given', () => {
    const widthOf = (char: string) => (char === 'W' ? 3 : 1);
    const wrapped = hardWrap('WWWWiiii', 7, widthOf);
    expect(pieces(wrapped)).toEqual(['WW', 'WWi', 'iii']);
  });

  it('takes spaces before closers or after openers as part of the word (no break there)', () => {
    const closers = `x${' )'.repeat(20)}`;
    for (const line of pieces(hardWrap(closers, 10, unit))) {
      expect(line.length).toBeLessThanOrEqual(10);
    }
    expect(hardWrap(closers, 10, unit).replaceAll('\n', '')).toBe(closers);
    const openers = `${'( '.repeat(20)}x`;
    expect(pieces(hardWrap(openers, 10, unit)).length).toBeGreaterThan(1);
  });

  it('starts counting again at a newline of the text', () => {
    const text = `${'x'.repeat(9)}\n${'x'.repeat(9)}`;
    expect(hardWrap(text, 10, unit)).toBe(text);
  });

  it('never splits a surrogate pair, and gives an over-wide character a line of its own', () => {
    const emoji = '😀'.repeat(7);
    const wrapped = hardWrap(emoji, 3, unit);
    expect(pieces(wrapped)).toEqual(['😀😀😀', '😀😀😀', '😀']);
    expect(pieces(hardWrap('abc', 1, () => 5))).toEqual(['a', 'b', 'c']);
  });
});
