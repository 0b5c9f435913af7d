import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error';
import type { Authenticator, Caller } from './authenticate';

/**
 * Answers one successful read for `userId`, or throws an ApiError (404, 403…) when the answer is
 * anything but a 200: the request then goes through Fastify, which produces that answer.
 * `query` is the query string as the route's schema validated and coerced it (empty without one).
 */
export type FastRead = (id: string, userId: string, query: Record<string, unknown>) => unknown;

/** Validates and coerces a parsed query string in place, as Fastify's Ajv does for the route. */
export type QueryValidator = (query: Record<string, unknown>) => boolean;

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
  /** What follows the id in the path (`/members`); empty when the id ends it. */
  suffix: string;
  /** The route's querystring schema; without one, a request with a query goes to Fastify. */
  querySchema: object | undefined;
  /** Compiled on first use (null: no compiler yet, so such requests go to Fastify). */
  validateQuery?: QueryValidator | null;
  read: FastRead;
}

/** Ids in paths are bounded by the route schemas (maxLength 100); longer ones go to Fastify. */
const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Answers kept at most: enough for every space of a busy server's active users. */
const MAX_CACHED = 10_000;

/** Bytes of answers kept at most: list pages reach 300 KB each (1,000 members). */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;

/**
 * Query strings taken on the fast path: `name=value` pairs without percent-encoding or `+`, so
 * splitting them is exactly what Fastify's parser does; anything else goes to Fastify.
 */
const PLAIN_QUERY = /^[A-Za-z0-9_.~-]+=[A-Za-z0-9_.~-]*(?:&[A-Za-z0-9_.~-]+=[A-Za-z0-9_.~-]*)*$/;

/** The pairs of a PLAIN_QUERY string; undefined when a name repeats (Fastify makes an array). */
function parsePlainQuery(search: string): Record<string, unknown> | undefined {
  if (!PLAIN_QUERY.test(search)) return undefined;
  const query: Record<string, unknown> = {};
  for (const pair of search.split('&')) {
    const equals = pair.indexOf('=');
    const name = pair.slice(0, equals);
    if (Object.hasOwn(query, name)) return undefined;
    query[name] = pair.slice(equals + 1);
  }
  return query;
}

/**
 * The hottest reads (`GET /v1/spaces/{id}`, the members list whose 1,000-item pages weigh 300 KB)
 * answered before Fastify's routing, hook and serialisation pipeline, which alone costs more than
 * half of a space read's time, and cached, which spares a list page its queries and its
 * serialisation on every request after the first.
 *
 * Only the plain success case is handled here: a well-formed `GET <prefix><id><suffix>`, without a
 * query string or with a plain one that the route's own querystring schema accepts, from a valid
 * token, within its rate limit, that the route's own read function answers. Everything else — a
 * missing or revoked token, a 404 or 403, a refused rate limit, a query the schema refuses or that
 * needs decoding, a server that is closing — falls through to Fastify untouched, so every error,
 * header and status keeps a single implementation. The rate limit is charged only once the answer is known to be a
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
  private cachedBytes = 0;
  private compileQuery: ((schema: object) => QueryValidator) | undefined;
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
    this.routes.push({ prefix, suffix: '', querySchema: undefined, read });
  }

  /**
   * Serves `GET <prefix><id><suffix>?<query>` with `read`, the query validated and coerced by
   * `querySchema` (the Fastify route's own) exactly as Fastify would.
   */
  addWithQuery(prefix: string, suffix: string, querySchema: object, read: FastRead): void {
    this.routes.push({ prefix, suffix, querySchema, read });
  }

  /** Fastify's Ajv, once it exists (`ajv.onCreate`): it compiles the routes' query schemas. */
  setQueryCompiler(compile: (schema: object) => QueryValidator): void {
    this.compileQuery ??= compile;
  }

  /** The validated query of a request, or undefined when Fastify must answer it. */
  private queryOf(
    route: FastRoute,
    search: string | undefined,
  ): Record<string, unknown> | undefined {
    if (search === undefined) return {};
    if (route.querySchema === undefined) return undefined;
    const query = parsePlainQuery(search);
    if (query === undefined) return undefined;
    if (route.validateQuery === undefined || route.validateQuery === null) {
      route.validateQuery = this.compileQuery?.(route.querySchema) ?? null;
    }
    return route.validateQuery?.(query) ? query : undefined;
  }

  private remember(key: string, body: Buffer): void {
    if (this.cache.size >= MAX_CACHED || this.cachedBytes + body.length > MAX_CACHED_BYTES) {
      this.cache.clear();
      this.cachedBytes = 0;
    }
    this.cache.set(key, body);
    this.cachedBytes += body.length;
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
    this.cachedBytes = 0;
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
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const search = mark < 0 ? undefined : url.slice(mark + 1);
    const route = this.routes.find(
      (candidate) => path.startsWith(candidate.prefix) && path.endsWith(candidate.suffix),
    );
    if (route === undefined) return false;
    const id = path.slice(route.prefix.length, path.length - route.suffix.length);
    if (!ID.test(id)) return false;
    if (search !== undefined && route.querySchema === undefined) return false;

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
    const key = `${url}\0${caller.userId}`;
    let body = this.cache.get(key);
    if (body === undefined) {
      const query = this.queryOf(route, search);
      if (query === undefined) return false;
      try {
        // Kept encoded: most answers are served many times.
        body = Buffer.from(JSON.stringify(route.read(id, caller.userId, query)));
      } catch (error) {
        if (error instanceof ApiError) return false;
        throw error;
      }
      this.remember(key, body);
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
      // Never the query string: it can hold share keys (as in Fastify's line).
      path,
      status: 200,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      user: caller.userId,
    });
    return true;
  }
}
