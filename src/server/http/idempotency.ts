import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock';
import type { Db } from '../db/open-database';
import { ApiError } from './api-error';

const METHODS = new Set(['POST', 'PUT', 'PATCH']);
const MAX_KEY_LENGTH = 255;
const RETENTION_MS = 24 * 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { key: string; userId: string } | null;
  }
}

interface StoredResponse {
  request_hash: string;
  status: number | null;
  headers: string | null;
  body: string | null;
}

/** JSON with object keys sorted, so the same body sent with its keys in another order matches. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : inner,
  );
}

/**
 * `Idempotency-Key` on POST, PUT and PATCH: the first response (anything but a 5xx or 429) is
 * stored for 24 hours per user; the same key and body replay it, the same key with another body
 * answers 422, and a retry that arrives while the first is still running answers 409.
 */
export function installIdempotency(app: FastifyInstance, db: Db, clock: Clock): void {
  const find = db.prepare<[string, string], StoredResponse>(
    'SELECT request_hash, status, headers, body FROM idempotency_keys WHERE user_id = ? AND key = ?',
  );
  const reserve = db.prepare(
    'INSERT INTO idempotency_keys (user_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)',
  );
  const complete = db.prepare(
    'UPDATE idempotency_keys SET status = ?, headers = ?, body = ? WHERE user_id = ? AND key = ?',
  );
  const release = db.prepare('DELETE FROM idempotency_keys WHERE user_id = ? AND key = ?');
  const expire = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');

  app.decorateRequest('idempotency', null);

  /** Replays the stored response, or reserves the key for this request (see the onSend hook). */
  const replayOrReserve = async (
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    userId: string,
  ) => {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new ApiError(400, `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`);
    }
    const requestHash = createHash('sha256')
      .update(`${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`)
      .digest('hex');
    const now = clock.now();
    expire.run(new Date(now.getTime() - RETENTION_MS).toISOString());
    const stored = find.get(userId, key);
    if (stored) {
      if (stored.request_hash !== requestHash) {
        throw new ApiError(422, 'Idempotency-Key was already used with a different request');
      }
      if (stored.status === null) {
        throw new ApiError(409, 'A request with this Idempotency-Key is still being processed');
      }
      const headers = JSON.parse(stored.headers ?? '{}') as Record<string, string>;
      void reply.headers({ ...headers, 'idempotent-replayed': 'true' }).code(stored.status);
      // Returning the reply makes the hook wait until it is sent, so the handler never runs.
      return reply.send(stored.body === null || stored.body === '' ? undefined : stored.body);
    }
    reserve.run(userId, key, requestHash, now.toISOString());
    request.idempotency = { key, userId };
    return undefined;
  };

  // These hooks run on every route, reads included (most requests): the no-op path comes first
  // and the hooks take the callback form, so a GET pays no promise or microtask for them.
  app.addHook('preHandler', (request, reply, done) => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !METHODS.has(request.method) || !request.caller) {
      done();
      return;
    }
    replayOrReserve(request, reply, key, request.caller.userId).then(() => done(), done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const idem = request.idempotency;
    if (!idem) {
      done(null, payload);
      return;
    }
    request.idempotency = null;
    if (reply.statusCode >= 500 || reply.statusCode === 429) {
      release.run(idem.userId, idem.key);
      done(null, payload);
      return;
    }
    const contentType = reply.getHeader('content-type');
    const location = reply.getHeader('location');
    const headers: Record<string, string> = {};
    if (typeof contentType === 'string') headers['content-type'] = contentType;
    if (typeof location === 'string') headers['location'] = location;
    const body = typeof payload === 'string' ? payload : payload == null ? '' : null;
    if (body === null) {
      // Streams and buffers are not replayable; forget the key rather than replay something else.
      release.run(idem.userId, idem.key);
      done(null, payload);
      return;
    }
    complete.run(reply.statusCode, JSON.stringify(headers), body, idem.userId, idem.key);
    done(null, payload);
  });

  // A request that failed before sending (aborted connection) must not leave its key reserved.
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.idempotency) release.run(request.idempotency.userId, request.idempotency.key);
    done();
  });
}
