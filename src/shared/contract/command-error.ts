import type { RunnerInfo } from './connection';
import type { SyncError } from './sync-error';

/**
 * Why a command failed, as data: the kind decides what a front end offers (log in, pick another
 * folder, wait for the other process), `message` is the sentence shown as it is. Plain data, so it
 * crosses IPC and HTTP unchanged (an Error would lose its fields).
 */
export type CommandError =
  /** An argument is not acceptable (a server URL, a folder, a subject); `field` names it. */
  | { kind: 'invalid-argument'; message: string; field: string }
  /** No login yet: nothing is configured. */
  | { kind: 'not-logged-in'; message: string }
  /** Configured, but the token was removed (logout): log in again. */
  | { kind: 'logged-out'; message: string; server: string }
  /** This home already mirrors another server or folder. */
  | { kind: 'other-connection'; message: string; server: string; folder: string }
  /** The server rejected the token (401). */
  | { kind: 'token-rejected'; message: string }
  /** 403: the token may not do this. */
  | { kind: 'forbidden'; message: string }
  /** The server could not be reached. */
  | { kind: 'offline'; message: string }
  /** Something answered, but not as a Quire (or GitBook-compatible) server: a wrong URL? */
  | { kind: 'not-a-quire-server'; message: string }
  /** The mirror folder cannot be created or is not a folder. */
  | { kind: 'folder-unusable'; message: string; folder: string }
  /** The mirror folder is gone (moved, deleted, an unmounted disk). */
  | { kind: 'folder-missing'; message: string; folder: string }
  | { kind: 'unknown-space'; message: string; spaceId: string }
  /** No open conflict has this id (never recorded, or resolved already). */
  | { kind: 'unknown-conflict'; message: string; id: number }
  /** No refused change has this id (never refused, already retried or dropped). */
  | { kind: 'unknown-refused-change'; message: string; id: number }
  /** No mirrored change request has this number in this space (or no synced space has that name). */
  | { kind: 'unknown-change-request'; message: string; space: string; number: number | null }
  /** No comment (or reply) has this id there: never mirrored, or deleted. */
  | { kind: 'unknown-comment'; message: string; commentId: string }
  /**
   * The server refused a review action for a reason the user can read (merging a merged change
   * request, reviewing one's own, a subject too long); `status` is the HTTP status.
   */
  | { kind: 'refused'; message: string; status: number }
  /** Another process syncs this home right now. */
  | { kind: 'busy'; message: string; runner: RunnerInfo | null }
  /** A sync that could not pull anything at all (listing failed): the typed reason. */
  | { kind: 'sync-failed'; message: string; error: SyncError }
  /** This host cannot do it (the demo or desktop settings under `quire ui`); `command` names it. */
  | { kind: 'unavailable'; message: string; command: string }
  /** Anything else: a bug. The message is all there is. */
  | { kind: 'unexpected'; message: string };

export type CommandErrorKind = CommandError['kind'];

/** A command's failure thrown in-process; bridges send its `error` across and rethrow it. */
export class CommandFailedError extends Error {
  override readonly name = 'CommandFailedError';

  constructor(
    readonly error: CommandError,
    options?: { cause?: unknown },
  ) {
    super(error.message, options);
  }
}
