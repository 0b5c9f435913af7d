/**
 * Typed failures of the remote client. The sync engine decides what to do from the class alone:
 * ask for a new token (auth), forget a space (not found), try again later (unavailable), or report
 * a bug or an incompatible server (HTTP, protocol). Messages never contain the token.
 */
export abstract class RemoteError extends Error {
  /** HTTP status of the response that caused the error, when there was one. */
  readonly status: number | undefined;
  /** The URL asked for (query included: it never carries secrets). */
  readonly url: string | undefined;

  constructor(message: string, details: { status?: number; url?: string; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.status = details.status;
    this.url = details.url;
  }
}

/** 401 or 403: the token is missing, unknown, revoked or lacks the permission. Never retried. */
export class RemoteAuthError extends RemoteError {}

/**
 * Whether the server refused the token itself (401: unknown, revoked or expired), as opposed to
 * a 403 on one resource the token may not use: nothing works until the user signs in again.
 */
export function isTokenRejected(error: unknown): boolean {
  return error instanceof RemoteAuthError && error.status !== 403;
}

/** 404: the resource does not exist or the token may not see it. Never retried. */
export class RemoteNotFoundError extends RemoteError {}

/**
 * The server could not be reached or kept failing: network errors, timeouts, 5xx and 429 after
 * every attempt. Worth trying again later; nothing is wrong with the request itself.
 */
export class RemoteUnavailableError extends RemoteError {
  /** How many attempts were made before giving up. */
  readonly attempts: number;

  constructor(
    message: string,
    details: { status?: number; url?: string; cause?: unknown; attempts: number },
  ) {
    super(message, details);
    this.attempts = details.attempts;
  }
}

/** Any other non-2xx answer (400, 409, 412, 422…), with the server's `error.message`. */
export class RemoteHttpError extends RemoteError {}

/**
 * A 3xx answer. Redirects are never followed for API calls: following one would replay the
 * `Authorization` header to wherever `Location` points.
 */
export class RemoteRedirectError extends RemoteHttpError {
  readonly location: string | undefined;

  constructor(message: string, details: { status: number; url?: string; location?: string }) {
    super(message, details);
    this.location = details.location;
  }
}

/** A 2xx answer we cannot use: malformed JSON shape, too large, truncated, endless pagination. */
export class RemoteProtocolError extends RemoteError {}

/** The typed error for a non-2xx status that is not retried (or no longer retried). */
export function remoteErrorForStatus(
  status: number,
  message: string,
  details: { url?: string; cause?: unknown } = {},
): RemoteError {
  const full = { ...details, status };
  if (status === 401 || status === 403) return new RemoteAuthError(message, full);
  if (status === 404) return new RemoteNotFoundError(message, full);
  // 501 Not Implemented is permanent: the server will never do it, however long we wait.
  if (status === 429 || (status >= 500 && status !== 501)) {
    return new RemoteUnavailableError(message, { ...full, attempts: 1 });
  }
  return new RemoteHttpError(message, full);
}
