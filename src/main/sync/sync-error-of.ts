import type { SyncError } from '../../shared/contract/sync-error';
import {
  RemoteAuthError,
  RemoteError,
  RemoteNotFoundError,
  RemoteProtocolError,
  RemoteUnavailableError,
  isTokenRejected,
} from '../remote/errors';

/** The mirror folder is missing: recreating it could fill an unmounted disk's mount point. */
export class SyncFolderMissingError extends Error {
  override readonly name = 'SyncFolderMissingError';

  constructor(readonly folder: string) {
    super(`The sync folder ${folder} does not exist or is not a folder`);
  }
}

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

/**
 * The typed form of whatever a run caught: the remote client's error classes and Node's errno
 * codes carry what a front end needs, so nothing downstream parses a message to recover it.
 */
export function syncErrorOf(error: unknown): SyncError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RemoteError) return remoteSyncError(error, message);
  if (error instanceof SyncFolderMissingError) {
    return { kind: 'folder-missing', message, path: error.folder };
  }
  const errno = error as NodeJS.ErrnoException | null;
  if (errno instanceof Error && typeof errno.code === 'string') {
    const path = typeof errno.path === 'string' ? errno.path : null;
    if (DISK_FULL_CODES.has(errno.code)) return { kind: 'disk-full', message, path };
    if (errno.syscall !== undefined) return { kind: 'local-io', message, code: errno.code, path };
  }
  return { kind: 'unexpected', message };
}

function remoteSyncError(error: RemoteError, message: string): SyncError {
  if (isTokenRejected(error)) return { kind: 'token-rejected', message };
  if (error instanceof RemoteAuthError) return { kind: 'forbidden', message };
  if (error instanceof RemoteNotFoundError) return { kind: 'not-found', message };
  if (error instanceof RemoteProtocolError) return { kind: 'protocol', message };
  if (error instanceof RemoteUnavailableError) {
    return error.status === 429
      ? { kind: 'rate-limited', message, retryAfterMs: null }
      : { kind: 'offline', message, status: error.status ?? null };
  }
  return { kind: 'server-error', message, status: error.status ?? null };
}

/** The same error with its message prefixed (where it happened), kind and data kept. */
export function withContext(error: SyncError, prefix: string): SyncError {
  return { ...error, message: `${prefix}${error.message}` };
}
