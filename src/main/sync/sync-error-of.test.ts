import { describe, expect, it } from 'vitest';
import {
  RemoteAuthError,
  RemoteHttpError,
  RemoteNotFoundError,
  RemoteProtocolError,
  RemoteUnavailableError,
} from '../remote/errors';
import { SyncFolderMissingError, syncErrorOf, withContext } from './sync-error-of';

describe('syncErrorOf', () => {
  it('tells the remote failures apart by what the user can do about them', () => {
    expect(syncErrorOf(new RemoteAuthError('revoked', { status: 401 })).kind).toBe(
      'token-rejected',
    );
    expect(syncErrorOf(new RemoteAuthError('no access', { status: 403 })).kind).toBe('forbidden');
    expect(syncErrorOf(new RemoteNotFoundError('gone', { status: 404 })).kind).toBe('not-found');
    expect(syncErrorOf(new RemoteProtocolError('truncated')).kind).toBe('protocol');
    expect(syncErrorOf(new RemoteHttpError('bad', { status: 422 }))).toEqual({
      kind: 'server-error',
      message: 'bad',
      status: 422,
    });
    expect(syncErrorOf(new RemoteUnavailableError('down', { status: 503, attempts: 3 }))).toEqual({
      kind: 'offline',
      message: 'down',
      status: 503,
    });
    expect(
      syncErrorOf(new RemoteUnavailableError('slow down', { status: 429, attempts: 3 })).kind,
    ).toBe('rate-limited');
  });

  it('keeps the errno code and path of local failures, and names a full disk', () => {
    const full = Object.assign(new Error('ENOSPC: no space left'), {
      code: 'ENOSPC',
      syscall: 'write',
      path: '/m/a.md',
    });
    expect(syncErrorOf(full)).toEqual({
      kind: 'disk-full',
      message: 'ENOSPC: no space left',
      path: '/m/a.md',
    });
    const denied = Object.assign(new Error('EACCES'), { code: 'EACCES', syscall: 'open' });
    expect(syncErrorOf(denied)).toEqual({
      kind: 'local-io',
      message: 'EACCES',
      code: 'EACCES',
      path: null,
    });
    expect(syncErrorOf(new SyncFolderMissingError('/m'))).toMatchObject({
      kind: 'folder-missing',
      path: '/m',
    });
  });

  it('calls anything else unexpected, and prefixes context without losing the kind', () => {
    expect(syncErrorOf('boom')).toEqual({ kind: 'unexpected', message: 'boom' });
    expect(withContext(syncErrorOf(new RemoteNotFoundError('gone')), 'Acme: ')).toEqual({
      kind: 'not-found',
      message: 'Acme: gone',
    });
  });
});
