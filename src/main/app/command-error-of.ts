import { CommandFailedError, type CommandError } from '../../shared/contract/command-error';
import {
  UnknownChangeRequestError,
  UnknownChangeRequestSpaceError,
} from '../change-requests/change-request-views';
import { DrainLockHeldError } from '../outbox/drain-lock';
import { RemoteAuthError, RemoteUnavailableError } from '../remote/errors';
import { UnknownConflictError, UnknownRefusedChangeError, UnknownSpaceError } from './app-services';

/** What a command was about, for the errors that name it. */
export interface CommandSubject {
  readonly conflictId?: number;
  readonly refusedId?: number;
}

/**
 * Any failure of a command as the contract's typed error. Already typed failures pass through; the
 * engine's and the client's classes get their kind; anything else is `unexpected`.
 */
export function commandErrorOf(error: unknown, subject: CommandSubject = {}): CommandError {
  if (error instanceof CommandFailedError) return error.error;
  if (error instanceof RemoteAuthError && error.status === 403) {
    return { kind: 'forbidden', message: 'the server refused the token access' };
  }
  if (error instanceof RemoteAuthError) {
    return { kind: 'token-rejected', message: 'the server rejected the token' };
  }
  if (error instanceof RemoteUnavailableError) {
    return { kind: 'offline', message: `cannot reach server: ${error.message}` };
  }
  if (error instanceof DrainLockHeldError) {
    const owner = error.owner;
    const runner =
      owner === undefined
        ? null
        : { pid: owner.pid, host: owner.host, command: owner.command, since: owner.startedAt };
    return { kind: 'busy', message: error.message, runner };
  }
  if (error instanceof UnknownSpaceError) {
    return { kind: 'unknown-space', message: error.message, spaceId: error.spaceId };
  }
  if (error instanceof UnknownConflictError) {
    return { kind: 'unknown-conflict', message: error.message, id: subject.conflictId ?? 0 };
  }
  if (error instanceof UnknownRefusedChangeError) {
    return { kind: 'unknown-refused-change', message: error.message, id: subject.refusedId ?? 0 };
  }
  if (error instanceof UnknownChangeRequestError) {
    const { message, space, number } = error;
    return { kind: 'unknown-change-request', message, space, number };
  }
  if (error instanceof UnknownChangeRequestSpaceError) {
    return {
      kind: 'unknown-change-request',
      message: error.message,
      space: error.space,
      number: null,
    };
  }
  if (error instanceof Error) return { kind: 'unexpected', message: error.message };
  return { kind: 'unexpected', message: `unexpected error: ${String(error)}` };
}

/** The failure as a CommandFailedError (the original kept as its cause, for logs). */
export function commandFailure(error: unknown, subject: CommandSubject = {}): CommandFailedError {
  if (error instanceof CommandFailedError) return error;
  return new CommandFailedError(commandErrorOf(error, subject), { cause: error });
}
