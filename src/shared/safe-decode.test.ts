import { describe, expect, it } from 'vitest';
import { safeDecode } from './safe-decode';

describe('safeDecode', () => {
  it('decodes percent-encoding and keeps malformed text as written', () => {
    expect(safeDecode('hero%20(1).png')).toBe('hero (1).png');
    expect(safeDecode('100%')).toBe('100%');
    expect(safeDecode('%E0%A4%A')).toBe('%E0%A4%A');
  });
});
