import { describe, expect, it } from 'vitest';
import { connectErrorText } from './connect-error';

describe('connectErrorText', () => {
  it('puts each login failure next to the field to fix, in words', () => {
    expect(connectErrorText({ kind: 'offline', message: 'ECONNREFUSED' })).toEqual({
      field: 'server',
      message:
        'The server cannot be reached. Check the address and your connection. (ECONNREFUSED)',
    });
    expect(connectErrorText({ kind: 'token-rejected', message: '401' })).toMatchObject({
      field: 'token',
      message: expect.stringContaining('rejected this token'),
    });
    expect(
      connectErrorText({ kind: 'folder-unusable', message: 'EACCES', folder: '/x' }),
    ).toMatchObject({ field: 'folder', message: expect.stringContaining('not writable') });
    expect(connectErrorText({ kind: 'not-a-quire-server', message: 'html' }).field).toBe('server');
  });

  it('keeps an invalid argument on its field, and anything else on the form', () => {
    expect(
      connectErrorText({ kind: 'invalid-argument', message: 'Not a URL', field: 'server' }),
    ).toEqual({ field: 'server', message: 'Not a URL' });
    expect(
      connectErrorText({ kind: 'invalid-argument', message: 'Odd', field: 'other' }).field,
    ).toBeNull();
    expect(connectErrorText({ kind: 'unexpected', message: 'boom' })).toEqual({
      field: null,
      message: 'boom',
    });
  });
});
