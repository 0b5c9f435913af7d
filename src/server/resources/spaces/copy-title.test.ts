import { describe, expect, it } from 'vitest';
import { copyTitle } from './copy-title';

describe('copyTitle', () => {
  it('appends " (copy)" and keeps the result within 50 code points', () => {
    expect(copyTitle('Handbook')).toBe('Handbook (copy)');
    expect(copyTitle('x'.repeat(50))).toBe(`${'x'.repeat(43)} (copy)`);
    // Emoji are cut whole, never split into a lone surrogate.
    const emoji = copyTitle('📘'.repeat(50));
    expect(Array.from(emoji)).toHaveLength(50);
    expect(emoji.startsWith('📘'.repeat(43))).toBe(true);
  });
});
