/**
 * Why a run, a space or a request failed, as data a front end can act on: the kind decides what
 * the user is offered (sign in again, wait, free disk space, fix a file), `message` is the sentence
 * shown as it is. Plain data, serialisable across IPC and HTTP.
 */
export type SyncError =
  /** The server could not be reached (network error, timeout, 5xx or 429 after every retry). */
  | { kind: 'offline'; message: string; status: number | null }
  /** 401: the token is unknown, revoked or expired; nothing syncs until the user signs in again. */
  | { kind: 'token-rejected'; message: string }
  /** 403: the token may not do this (one space or operation), the rest still works. */
  | { kind: 'forbidden'; message: string }
  /** 429 that outlasted the retries; `retryAfterMs` when the server said how long to wait. */
  | { kind: 'rate-limited'; message: string; retryAfterMs: number | null }
  /** A 4xx/5xx the server gave as its final answer (400, 409, 422, 501…), with its message. */
  | { kind: 'server-error'; message: string; status: number | null }
  /** 404: the space, page or change request is gone or no longer visible to the token. */
  | { kind: 'not-found'; message: string }
  /** A 2xx the client could not use (malformed, truncated, too large): an incompatible server. */
  | { kind: 'protocol'; message: string }
  /** The disk is full (ENOSPC, EDQUOT): nothing more can be written until space is freed. */
  | { kind: 'disk-full'; message: string; path: string | null }
  /** The mirror folder is gone or not a folder (an unmounted disk?): nothing syncs until it is back. */
  | { kind: 'folder-missing'; message: string; path: string }
  /** Another local file-system failure (permissions, a missing or read-only folder…). */
  | { kind: 'local-io'; message: string; code: string | null; path: string | null }
  /** A local file that cannot be read as what it should be (bad frontmatter, not UTF-8…). */
  | { kind: 'invalid-file'; message: string; path: string }
  /** Anything else: a bug. The message is all there is. */
  | { kind: 'unexpected'; message: string };

export type SyncErrorKind = SyncError['kind'];
