import { describe, expect, it } from 'vitest';
import { messageOf } from './message-of';

describe('messageOf', () => {
  it("gives an Error's message and any other thrown value as a string", () => {
    expect(messageOf(new TypeError('bad input'))).toBe('bad input');
    expect(messageOf('plain')).toBe('plain');
    expect(messageOf(42)).toBe('42');
    expect(messageOf(undefined)).toBe('undefined');
  });
});
