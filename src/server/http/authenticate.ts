import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/open-database';
import { hashToken } from '../auth/token-hash';
import { ApiError } from './api-error';
import type { RateLimiter } from './rate-limiter';

export interface Caller {
  userId: string;
  tokenHash: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** The authenticated caller; route handlers run only after `authenticate` has set it. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new ApiError(401, 'Missing or invalid bearer token');
  return request.caller;
}

/**
 * Bearer-token authentication and per-token rate limiting, on every request. Rate-limit headers
 * go on every response, refused ones included, so clients can pace themselves.
 */
export function installAuthentication(app: FastifyInstance, db: Db, limiter: RateLimiter): void {
  const findToken = db.prepare<[string], { user_id: string }>(
    'SELECT user_id FROM tokens WHERE hash = ? AND revoked_at IS NULL',
  );
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const tokenHash = match?.[1] ? hashToken(match[1]) : null;
    const row = tokenHash ? findToken.get(tokenHash) : undefined;

    const decision = limiter.take(row && tokenHash ? `t:${tokenHash}` : `ip:${request.ip}`);
    void reply.headers({
      'x-ratelimit-limit': String(decision.limit),
      'x-ratelimit-remaining': String(decision.remaining),
      'x-ratelimit-reset': String(decision.resetAt),
    });
    if (!decision.allowed) {
      throw new ApiError(
        429,
        `API rate limit exceeded. Please try again in ${decision.retryAfter} seconds`,
        {
          'retry-after': String(decision.retryAfter),
        },
      );
    }
    if (!header)
      throw new ApiError(401, 'Missing Authorization header: send "Authorization: Bearer <token>"');
    if (!match) throw new ApiError(401, 'Authorization header must be "Bearer <token>"');
    if (!row || !tokenHash) throw new ApiError(401, 'Unknown or revoked token');
    request.caller = { userId: row.user_id, tokenHash };
  });
}
