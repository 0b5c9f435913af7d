import { describe, expect, it } from 'vitest';
import { generateToken, hashToken } from './token-hash';

describe('token hashing', () => {
  it('stores the SHA-256 hex of the token, never the token itself', () => {
    expect(hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    const token = generateToken();
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toContain(token);
  });

  it('generates distinct url-safe tokens with 192 bits of randomness', () => {
    const tokens = new Set(Array.from({ length: 200 }, generateToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) expect(token).toMatch(/^qt_[A-Za-z0-9_-]{32}$/);
  });
});
