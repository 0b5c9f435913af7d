import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/open-database';
import { hashToken } from '../auth/token-hash';
import { ApiError } from './api-error';
import type { RateDecision, RateLimiter } from './rate-limiter';

export interface Caller {
  userId: string;
  tokenHash: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** The route needs no bearer token (e.g. signed file downloads); still rate-limited by address. */
    public?: boolean;
  }
}

/** The authenticated caller; route handlers run only after `authenticate` has set it. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new ApiError(401, 'Missing or invalid bearer token');
  return request.caller;
}

/** What the Authorization header of a request says, before any decision is taken. */
interface Credentials {
  header: string | undefined;
  /** The token of a well-formed `Bearer <token>` header. */
  token: string | null;
  /** The caller, when the token is known and not revoked. */
  caller: Caller | null;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Bearer-token authentication and per-token rate limiting. Rate-limit headers go on every
 * response, refused ones included, so clients can pace themselves.
 */
export class Authenticator {
  private readonly findToken;

  constructor(
    db: Db,
    private readonly limiter: RateLimiter,
  ) {
    this.findToken = db.prepare<[string], { user_id: string }>(
      'SELECT user_id FROM tokens WHERE hash = ? AND revoked_at IS NULL',
    );
  }

  credentials(request: FastifyRequest): Credentials {
    const header = request.headers.authorization;
    const token = header ? (BEARER.exec(header)?.[1] ?? null) : null;
    return { header, token, caller: token ? this.callerOf(token) : null };
  }

  /** The caller an Authorization header names, or null when it names no valid token. */
  callerFor(header: string | undefined): Caller | null {
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    return token ? this.callerOf(token) : null;
  }

  /** Counts one request against a valid token's window, without refusing it (see FastReads). */
  chargeToken(caller: Caller): RateDecision {
    return this.limiter.take(`t:${caller.tokenHash}`);
  }

  private callerOf(token: string): Caller | null {
    const tokenHash = hashToken(token);
    const row = this.findToken.get(tokenHash);
    return row ? { userId: row.user_id, tokenHash } : null;
  }

  /**
   * Counts the request against its token (or, without a valid token, its address), sets the
   * X-RateLimit-* headers and throws 429 when the window is used up.
   */
  charge(request: FastifyRequest, reply: FastifyReply, credentials: Credentials): void {
    const key = credentials.caller ? `t:${credentials.caller.tokenHash}` : `ip:${request.ip}`;
    const decision = this.limiter.take(key);
    void reply
      .header('x-ratelimit-limit', String(decision.limit))
      .header('x-ratelimit-remaining', String(decision.remaining))
      .header('x-ratelimit-reset', String(decision.resetAt));
    if (!decision.allowed) {
      throw new ApiError(
        429,
        `API rate limit exceeded. Please try again in ${decision.retryAfter} seconds`,
        { 'retry-after': String(decision.retryAfter) },
      );
    }
  }

  /** Charges the request and sets `request.caller`, or throws 429 / 401 with a specific message. */
  authenticate(request: FastifyRequest, reply: FastifyReply): void {
    const credentials = this.credentials(request);
    this.charge(request, reply, credentials);
    if (!credentials.header)
      throw new ApiError(401, 'Missing Authorization header: send "Authorization: Bearer <token>"');
    if (!credentials.token)
      throw new ApiError(401, 'Authorization header must be "Bearer <token>"');
    if (!credentials.caller) throw new ApiError(401, 'Unknown or revoked token');
    request.caller = credentials.caller;
  }
}

export function installAuthentication(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('caller', null);
  // Callback form (no promise per request); a refusal thrown here reaches the error handler as
  // a rejected async hook would.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.public) {
      authenticator.charge(request, reply, { header: undefined, token: null, caller: null });
    } else {
      authenticator.authenticate(request, reply);
    }
    done();
  });
}
