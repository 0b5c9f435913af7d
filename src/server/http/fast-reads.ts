import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error';
import type { Authenticator, Caller } from './authenticate';

/**
 * Answers one successful read for `userId`, or throws an ApiError (404, 403…) when the answer is
 * anything but a 200: the request then goes through Fastify, which produces that answer.
 */
export type FastRead = (id: string, userId: string) => unknown;

/** Logs a request answered outside Fastify with the fields Fastify's request log line has. */
export type FastReadLog = (line: {
  reqId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  user: string;
}) => void;

interface FastRoute {
  prefix: string;
  read: FastRead;
}

/** Ids in paths are bounded by the route schemas (maxLength 100); longer ones go to Fastify. */
const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Answers kept at most: enough for every space of a busy server's active users. */
const MAX_CACHED = 10_000;

/**
 * The hottest reads (`GET /v1/spaces/{id}`) answered before Fastify's routing, hook and
 * serialisation pipeline, which alone costs more than half of such a request's time.
 *
 * Only the plain success case is handled here: a well-formed `GET <prefix><id>` without a query
 * string, from a valid token, within its rate limit, that the route's own read function answers.
 * Everything else — a missing or revoked token, a 404 or 403, a refused rate limit, a query string,
 * a server that is closing — falls through to Fastify untouched, so every error, header and status
 * keeps a single implementation. The rate limit is charged only once the answer is known to be a
 * 200, so a request that falls through is never charged twice.
 *
 * Answers are cached per (route, id, user) until anything may have changed: `invalidate()` runs
 * around every request Fastify handles (every write goes through Fastify; the fast path itself
 * only reads) and on the trash sweep, and `externalVersion` (SQLite's `PRAGMA data_version`)
 * changes when another process — the admin CLI — commits to the database. Only the body is
 * cached, and which token is whose: a revocation is a write like any other, so it empties the
 * cache too and the very next request is refused; the rate limit is charged on every request.
 */
export class FastReads {
  private readonly routes: FastRoute[] = [];
  private readonly cache = new Map<string, Buffer>();
  /** Valid callers by Authorization header, dropped with the answers (a revocation is a write). */
  private readonly callers = new Map<string, Caller>();
  private seenVersion: number;
  private versionChecked = false;
  private closing = false;

  constructor(
    private readonly authenticator: Authenticator,
    private readonly externalVersion: () => number,
    private readonly newRequestId: () => string,
    private readonly log?: FastReadLog,
  ) {
    this.seenVersion = externalVersion();
  }

  /** Serves `GET <prefix><id>` with `read`; `prefix` ends with a slash. */
  add(prefix: string, read: FastRead): void {
    this.routes.push({ prefix, read });
  }

  /**
   * Drops the cache when another process committed. Asked once per turn of the event loop:
   * requests read from the sockets in one turn arrived together, and a commit landing during
   * the turn could as well have landed just after it.
   */
  private checkExternalVersion(): void {
    if (this.versionChecked) return;
    this.versionChecked = true;
    setImmediate(() => (this.versionChecked = false));
    const version = this.externalVersion();
    if (version !== this.seenVersion) {
      this.invalidate();
      this.seenVersion = version;
    }
  }

  /** Forgets every cached answer: something may have changed. */
  invalidate(): void {
    this.cache.clear();
    this.callers.clear();
  }

  /** From now on every request goes to Fastify, which answers 503 while it closes. */
  close(): void {
    this.closing = true;
  }

  /** Answers the request and returns true, or returns false having touched nothing. */
  handle(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.closing || request.method !== 'GET') return false;
    const url = request.url ?? '';
    const route = this.routes.find((candidate) => url.startsWith(candidate.prefix));
    if (route === undefined) return false;
    const id = url.slice(route.prefix.length);
    if (!ID.test(id)) return false;

    const started = this.log ? performance.now() : 0;
    const authorization = request.headers.authorization;
    if (authorization === undefined) return false;
    this.checkExternalVersion();
    let caller = this.callers.get(authorization);
    if (caller === undefined) {
      const found = this.authenticator.callerFor(authorization);
      if (found === null) return false;
      caller = found;
      if (this.callers.size >= MAX_CACHED) this.callers.clear();
      this.callers.set(authorization, caller);
    }
    const key = `${route.prefix}${id}\0${caller.userId}`;
    let body = this.cache.get(key);
    if (body === undefined) {
      try {
        // Kept encoded: most answers are served many times.
        body = Buffer.from(JSON.stringify(route.read(id, caller.userId)));
      } catch (error) {
        if (error instanceof ApiError) return false;
        throw error;
      }
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(key, body);
    }
    const decision = this.authenticator.chargeToken(caller);
    if (!decision.allowed) return false;

    const reqId = this.newRequestId();
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      'x-request-id': reqId,
      'x-ratelimit-limit': String(decision.limit),
      'x-ratelimit-remaining': String(decision.remaining),
      'x-ratelimit-reset': String(decision.resetAt),
    });
    response.end(body);
    this.log?.({
      reqId,
      method: 'GET',
      path: url,
      status: 200,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      user: caller.userId,
    });
    return true;
  }
}
