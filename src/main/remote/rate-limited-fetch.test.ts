import { describe, expect, it } from 'vitest';
import { RemoteProtocolError, RemoteRedirectError, RemoteUnavailableError } from './errors';
import { createRateLimitedFetch, type RateLimitedFetchOptions } from './rate-limited-fetch';
import {
  backoffDelay,
  parseRateLimitReset,
  parseRetryAfter,
  redactUrl,
} from './rate-limit-headers';

const T0 = 1_700_000_000_000;
const URL_A = 'https://api.example.test/v1/spaces/a';

interface Sent {
  id: number;
  url: string;
  method: string;
  at: number;
  headers: Headers;
  body: unknown;
  redirect: RequestInit['redirect'];
  signal: AbortSignal | undefined;
}

type Reply = Response | Error | ((sent: Sent) => Response | Error | Promise<Response>);

/**
 * A fake transport and a fake clock: `sleep` moves the clock instead of waiting, and every send
 * and response is logged with the clock's time, so pacing can be asserted without real waiting.
 */
function harness(replies: (sent: Sent) => Reply, options: RateLimitedFetchOptions = {}) {
  const clock = { now: T0 };
  const sent: Sent[] = [];
  const log: {
    kind: 'send' | 'respond' | 'pause';
    at: number;
    status?: number;
    url: string;
    until?: number;
  }[] = [];
  const sleeps: number[] = [];
  const transport = async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input);
    const entry: Sent = {
      id: sent.length,
      url,
      method: init.method ?? 'GET',
      at: clock.now,
      headers: new Headers(init.headers),
      body: init.body,
      redirect: init.redirect,
      signal: init.signal ?? undefined,
    };
    sent.push(entry);
    log.push({ kind: 'send', at: clock.now, url });
    let reply = replies(entry);
    if (typeof reply === 'function') reply = await reply(entry);
    if (reply instanceof Error) throw reply;
    log.push({ kind: 'respond', at: clock.now, status: reply.status, url });
    return reply;
  };
  const http = createRateLimitedFetch({
    fetch: transport as typeof fetch,
    now: () => clock.now,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.now += ms;
    },
    random: () => 0.5,
    intervalCap: Number.POSITIVE_INFINITY,
    onEvent: (event) => {
      if (event.type === 'pause')
        log.push({ kind: 'pause', at: clock.now, url: '', until: event.until });
    },
    ...options,
  });
  return { http, clock, sent, log, sleeps };
}

const ok = (body = '{}', headers: Record<string, string> = {}) =>
  new Response(body, { status: 200, headers: { 'content-type': 'application/json', ...headers } });
const status = (code: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { code, message: `status ${code}` } }), {
    status: code,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('header parsing and backoff', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('7', T0)).toBe(7000);
    expect(parseRetryAfter(new Date(T0 + 12_000).toUTCString(), T0)).toBe(12_000);
    expect(parseRetryAfter(new Date(T0 - 5_000).toUTCString(), T0)).toBe(0);
    expect(parseRetryAfter('soon', T0)).toBeUndefined();
    expect(parseRetryAfter(null, T0)).toBeUndefined();
  });

  it('reads X-RateLimit-Reset as epoch seconds, or small values as seconds from now', () => {
    expect(parseRateLimitReset(String(T0 / 1000 + 30), T0)).toBe(T0 + 30_000);
    expect(parseRateLimitReset('30', T0)).toBe(T0 + 30_000);
    expect(parseRateLimitReset('x', T0)).toBeUndefined();
  });

  it('draws full-jitter delays between 0 and min(cap, base × 2^(n−1))', () => {
    expect(backoffDelay(1, 250, 30_000, () => 0)).toBe(0);
    expect(backoffDelay(1, 250, 30_000, () => 0.999)).toBe(249);
    expect(backoffDelay(3, 250, 30_000, () => 0.5)).toBe(500);
    expect(backoffDelay(20, 250, 30_000, () => 0.999)).toBe(29_970);
  });

  it('drops the query from URLs shown in errors (download URLs carry signatures)', () => {
    expect(redactUrl('https://h.test/v1/files/a/b?sig=secret')).toBe('https://h.test/v1/files/a/b');
  });
});

describe('createRateLimitedFetch', () => {
  it('passes a 2xx through with its status, headers, body and URL', async () => {
    const { http, sent } = harness(() => ok('{"id":"a"}', { 'x-extra': '1' }));
    const response = await http(URL_A, { headers: { authorization: 'Bearer t' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-extra')).toBe('1');
    expect(response.url).toBe(URL_A);
    expect(await response.json()).toEqual({ id: 'a' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer t');
  });

  it('accepts 204 and 205 with no body', async () => {
    for (const code of [204, 205]) {
      const { http } = harness(() => new Response(null, { status: code }));
      const response = await http(URL_A, { method: 'DELETE' });
      expect(response.status).toBe(code);
      expect(await response.text()).toBe('');
    }
  });

  it('on 429 waits Retry-After before sending anything, from any caller', async () => {
    let first = true;
    const { http, log, sent } = harness(
      () => {
        if (first) {
          first = false;
          return status(429, { 'retry-after': '3' });
        }
        return ok();
      },
      { concurrency: 1 },
    );
    const calls = ['a', 'b', 'c', 'd'].map((id) => http(`https://api.example.test/v1/${id}`));
    const responses = await Promise.all(calls);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const limited = log.find((entry) => entry.status === 429)!;
    const after = log.slice(log.indexOf(limited) + 1).filter((entry) => entry.kind === 'send');
    expect(after).toHaveLength(4);
    for (const entry of after) expect(entry.at).toBeGreaterThanOrEqual(limited.at + 3000);
    expect(sent.filter((entry) => entry.url.endsWith('/a'))).toHaveLength(2);
  });

  it('holds calls already dequeued at other concurrency slots too', async () => {
    let limitedOnce = false;
    const { http, log } = harness(
      (sent) => {
        if (sent.url.endsWith('/a') && !limitedOnce) {
          limitedOnce = true;
          return status(429, { 'retry-after': '5' });
        }
        // The others answer later than the 429, while calls are still queued.
        return async () => {
          await Promise.resolve();
          await Promise.resolve();
          return ok();
        };
      },
      { concurrency: 3 },
    );
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    await Promise.all(ids.map((id) => http(`https://api.example.test/v1/${id}`)));
    // From the moment the client has seen the 429, nothing goes out before Retry-After ends.
    const pause = log.find((entry) => entry.kind === 'pause')!;
    // (a millisecond over, for the timers' grain)
    expect(pause.until).toBe(T0 + 5001);
    const later = log.slice(log.indexOf(pause) + 1).filter((entry) => entry.kind === 'send');
    expect(later.length).toBeGreaterThanOrEqual(5);
    for (const entry of later) expect(entry.at).toBeGreaterThanOrEqual(T0 + 5000);
    expect(log.filter((entry) => entry.kind === 'send')).toHaveLength(8);
  });

  it('on 429 without Retry-After waits until X-RateLimit-Reset', async () => {
    let first = true;
    const reset = T0 / 1000 + 42;
    const { http, sent } = harness(() => {
      if (!first) return ok();
      first = false;
      return status(429, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) });
    });
    await http(URL_A);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.at).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('on 429 with no hint at all still pauses at least a second', async () => {
    let first = true;
    const { http, sent } = harness(() => {
      if (!first) return ok();
      first = false;
      return status(429);
    });
    await http(URL_A);
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('caps a server-requested pause at maxServerWaitMs', async () => {
    let first = true;
    const { http, sent } = harness(
      () => {
        if (!first) return ok();
        first = false;
        return status(429, { 'retry-after': '86400' });
      },
      { maxServerWaitMs: 10_000 },
    );
    await http(URL_A);
    expect(sent[1]!.at - sent[0]!.at).toBe(10_000);
  });

  it('pauses every caller until the reset after X-RateLimit-Remaining: 0', async () => {
    const reset = T0 / 1000 + 60;
    let first = true;
    const { http, sent } = harness(() => {
      if (!first) return ok();
      first = false;
      return ok('{}', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) });
    });
    expect((await http(URL_A)).status).toBe(200);
    await Promise.all([http(URL_A), http(URL_A)]);
    expect(sent).toHaveLength(3);
    expect(sent[1]!.at).toBeGreaterThanOrEqual(reset * 1000);
    expect(sent[2]!.at).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('does not pause while requests remain, or for a reset already past', async () => {
    const { http, sent } = harness(() =>
      ok('{}', { 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': String(T0 / 1000 + 60) }),
    );
    await http(URL_A);
    await http(URL_A);
    expect(sent[1]!.at).toBe(T0);
  });

  it('retries 5xx with full-jitter exponential backoff, then gives up', async () => {
    const draws = [0.9, 0.1, 0.99, 0.5];
    const { http, sent, sleeps } = harness(() => status(503), {
      maxAttempts: 5,
      random: () => draws.shift() ?? 0,
    });
    const error = await http(URL_A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteUnavailableError);
    expect((error as RemoteUnavailableError).attempts).toBe(5);
    expect((error as RemoteUnavailableError).status).toBe(503);
    expect((error as Error).message).toContain('status 503');
    expect(sent).toHaveLength(5);
    expect(sleeps).toEqual([225, 50, 990, 1000]);
    sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(250 * 2 ** i);
    });
  });

  it('keeps every backoff under the cap', async () => {
    const { http, sleeps } = harness(() => status(500), {
      maxAttempts: 12,
      maxDelayMs: 2000,
      random: () => 0.999,
    });
    await expect(http(URL_A)).rejects.toBeInstanceOf(RemoteUnavailableError);
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(2000);
    expect(sleeps.at(-1)).toBe(1998);
  });

  it('retries a network error and succeeds', async () => {
    let failures = 2;
    const { http, sent } = harness(() =>
      failures-- > 0 ? new TypeError('fetch failed', { cause: new Error('ECONNRESET') }) : ok(),
    );
    expect((await http(URL_A)).status).toBe(200);
    expect(sent).toHaveLength(3);
  });

  it('reports a network error that never clears as RemoteUnavailableError', async () => {
    const { http, sent } = harness(() => new TypeError('fetch failed'), { maxAttempts: 3 });
    const error = await http(URL_A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteUnavailableError);
    expect((error as Error).message).toContain('fetch failed');
    expect(sent).toHaveLength(3);
  });

  it.each([400, 401, 403, 404, 409, 412, 422, 501])(
    'returns %i as it is, without retrying',
    async (code) => {
      const { http, sent } = harness(() => status(code));
      const response = await http(URL_A);
      expect(response.status).toBe(code);
      expect(await response.json()).toEqual({ error: { code, message: `status ${code}` } });
      expect(sent).toHaveLength(1);
    },
  );

  it('retries a timed-out attempt, then fails with RemoteUnavailableError', async () => {
    const hang = (sent: Sent) => () =>
      new Promise<Response>((_resolve, reject) => {
        sent.signal!.addEventListener('abort', () => reject(sent.signal!.reason as Error));
      });
    const { http, sent } = harness(hang, { timeoutMs: 5, maxAttempts: 3 });
    const error = await http(URL_A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteUnavailableError);
    expect((error as Error).message).toContain('timed out after 5 ms');
    expect(sent).toHaveLength(3);
  });

  it('a timeout followed by an answer succeeds', async () => {
    let first = true;
    const { http, sent } = harness(
      (entry) => {
        if (!first) return ok();
        first = false;
        return () =>
          new Promise<Response>((_resolve, reject) => {
            entry.signal!.addEventListener('abort', () => reject(new Error('aborted')));
          });
      },
      { timeoutMs: 5 },
    );
    expect((await http(URL_A)).status).toBe(200);
    expect(sent).toHaveLength(2);
  });

  it('surfaces a redirect as an error and never follows it', async () => {
    const { http, sent } = harness(
      () => new Response(null, { status: 302, headers: { location: 'https://evil.test/steal' } }),
    );
    const error = await http(URL_A, {
      redirect: 'follow',
      headers: { authorization: 'Bearer t' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteRedirectError);
    expect((error as RemoteRedirectError).status).toBe(302);
    expect((error as RemoteRedirectError).location).toBe('https://evil.test/steal');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.redirect).toBe('manual');
  });

  it('resends the same headers, Idempotency-Key included, and body on every retry', async () => {
    const codes = [503, 429, 502];
    const { http, sent } = harness(() => {
      const code = codes.shift();
      return code ? status(code) : new Response('{"id":"cr"}', { status: 201 });
    });
    const response = await http(URL_A, {
      method: 'POST',
      headers: { 'Idempotency-Key': 'key-123', 'content-type': 'application/json', 'x-a': 'b' },
      body: '{"subject":"x"}',
    });
    expect(response.status).toBe(201);
    expect(sent).toHaveLength(4);
    for (const entry of sent) {
      expect(entry.method).toBe('POST');
      expect(entry.headers.get('idempotency-key')).toBe('key-123');
      expect(entry.headers.get('x-a')).toBe('b');
      expect(entry.body).toBe('{"subject":"x"}');
    }
  });

  it('does not resend a POST without Idempotency-Key after an ambiguous failure', async () => {
    const { http, sent } = harness(() => status(502));
    const error = await http(URL_A, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteUnavailableError);
    expect((error as Error).message).toContain('not idempotent');
    expect(sent).toHaveLength(1);
  });

  it('does resend a POST without Idempotency-Key after a 429 (it was not processed)', async () => {
    const codes = [429];
    const { http, sent } = harness(() => (codes.shift() ? status(429) : ok()));
    expect((await http(URL_A, { method: 'POST', body: '{}' })).status).toBe(200);
    expect(sent).toHaveLength(2);
  });

  it('gives up on a 429 that lasts, as RemoteUnavailableError with status 429', async () => {
    const { http, sent } = harness(() => status(429, { 'retry-after': '1' }), { maxAttempts: 3 });
    const error = await http(URL_A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteUnavailableError);
    expect((error as RemoteUnavailableError).status).toBe(429);
    expect(sent).toHaveLength(3);
  });

  it('refuses to send an Authorization header to another origin', async () => {
    const { http, sent } = harness(() => ok(), { tokenOrigin: 'https://api.example.test' });
    await expect(
      http('https://elsewhere.test/x', { headers: { authorization: 'Bearer t' } }),
    ).rejects.toBeInstanceOf(RemoteProtocolError);
    expect((await http('https://elsewhere.test/x')).status).toBe(200);
    expect((await http(URL_A, { headers: { authorization: 'Bearer t' } })).status).toBe(200);
    expect(sent).toHaveLength(2);
  });

  it('refuses a body larger than the cap, declared or not, without retrying', async () => {
    const { http, sent } = harness(() => ok('x'.repeat(100)), { maxResponseBytes: 50 });
    await expect(http(URL_A)).rejects.toBeInstanceOf(RemoteProtocolError);
    const stream = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            for (let i = 0; i < 10; i++) controller.enqueue(new Uint8Array(10));
            controller.close();
          },
        }),
      );
    const streamed = harness(stream);
    await expect(streamed.http(URL_A, {}, { maxBytes: 50 })).rejects.toBeInstanceOf(
      RemoteProtocolError,
    );
    expect(sent).toHaveLength(1);
    expect(streamed.sent).toHaveLength(1);
    expect((await streamed.http(URL_A, {}, { maxBytes: 100 })).status).toBe(200);
  });

  it('retries a body shorter than its Content-Length', async () => {
    let first = true;
    const { http, sent } = harness(() => {
      if (!first) return ok('abcdefghij', { 'content-length': '10' });
      first = false;
      return ok('abcde', { 'content-length': '10' });
    });
    expect(await (await http(URL_A)).text()).toBe('abcdefghij');
    expect(sent).toHaveLength(2);
  });

  it('an external abort cancels queued and paused calls at once', async () => {
    const controller = new AbortController();
    let first = true;
    const { http, sent } = harness(
      () => {
        if (!first) return ok();
        first = false;
        return status(429, { 'retry-after': '30' });
      },
      {
        concurrency: 1,
        signal: controller.signal,
        // A real wait here: the abort must interrupt it.
        sleep: (ms, signal) =>
          new Promise((resolve, reject) => {
            const timer = setTimeout(resolve, ms);
            signal?.addEventListener('abort', () => {
              clearTimeout(timer);
              reject(signal.reason as Error);
            });
          }),
      },
    );
    const calls = [http(URL_A), http(URL_A), http(URL_A)].map((p) => p.catch((e: unknown) => e));
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const results = await Promise.all(calls);
    for (const result of results) expect((result as Error).name).toBe('AbortError');
    expect(sent).toHaveLength(1);
  });

  it('an abort reaches a request in flight and is not retried', async () => {
    const controller = new AbortController();
    const { http, sent } = harness(
      (entry) => () =>
        new Promise<Response>((_resolve, reject) => {
          entry.signal!.addEventListener('abort', () => reject(new Error('transport aborted')));
        }),
    );
    const call = http(URL_A, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.signal!.aborted).toBe(true);
  });

  it('a per-call signal cancels only that call', async () => {
    const controller = new AbortController();
    controller.abort();
    const { http, sent } = harness(() => ok());
    await expect(http(URL_A, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect((await http(URL_A)).status).toBe(200);
    expect(sent).toHaveLength(1);
  });

  it('limits how many requests are in flight at once', async () => {
    let inFlight = 0;
    let peak = 0;
    const { http } = harness(
      () => async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        return ok();
      },
      { concurrency: 2 },
    );
    await Promise.all(Array.from({ length: 8 }, () => http(URL_A)));
    expect(peak).toBe(2);
  });
});

describe('the server budget', () => {
  it('bursts while X-RateLimit-Remaining is high and spaces requests once it runs low', async () => {
    const reset = T0 / 1000 + 60;
    let remaining = 20;
    const { http, sent } = harness(() =>
      ok('{}', {
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': String(--remaining),
        'x-ratelimit-reset': String(reset),
      }),
    );
    for (let i = 0; i < 15; i++) await http(URL_A);
    // 19 down to 10 remaining (the low water of a 100 limit) go at once; after that, spaced.
    expect(sent.slice(0, 10).every((entry) => entry.at === T0)).toBe(true);
    for (let i = 11; i < 15; i++) expect(sent[i]!.at).toBeGreaterThan(sent[i - 1]!.at);
    expect(sent[14]!.at).toBeLessThanOrEqual(reset * 1000);
  });
});
