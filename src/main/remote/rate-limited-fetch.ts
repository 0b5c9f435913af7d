import { setTimeout as delay } from 'node:timers/promises';
import PQueue from 'p-queue';
import { abortable, throwIfAborted } from './abortable';
import { RateBudget } from './rate-budget';
import { RemoteProtocolError, RemoteRedirectError, RemoteUnavailableError } from './errors';
import {
  backoffDelay,
  parseRateLimitReset,
  parseRetryAfter,
  redactUrl,
} from './rate-limit-headers';
import { errorMessage, readBody } from './read-response-body';

export {
  backoffDelay,
  parseRateLimitReset,
  parseRetryAfter,
  redactUrl,
} from './rate-limit-headers';

/** Waits `ms` milliseconds; tests inject one that moves a fake clock instead. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RateLimitedFetchOptions {
  /** The transport (default: the global fetch). */
  fetch?: typeof fetch;
  /** Requests in flight at once (default 6). */
  concurrency?: number;
  /**
   * A fixed cap of `intervalCap` requests started per `interval` ms, on top of the server's own
   * budget (default none: the `X-RateLimit-*` headers decide, see RateBudget).
   */
  intervalCap?: number;
  interval?: number;
  /** Attempts per request, the first included (default 5). */
  maxAttempts?: number;
  /** Exponential backoff with full jitter: random() × min(maxDelayMs, baseDelayMs × 2^(n−1)). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Per attempt, response body included (default 30 s). A timed-out attempt is retried. */
  timeoutMs?: number;
  /**
   * Longest pause a server may ask for (Retry-After, X-RateLimit-Reset), default 5 minutes: a
   * skewed clock or a bogus header must not stall the sync for hours.
   */
  maxServerWaitMs?: number;
  /** Largest response body accepted, unless a call says otherwise (default 256 MiB). */
  maxResponseBytes?: number;
  /**
   * The only origin an `Authorization` header may be sent to. A request carrying one to any other
   * origin is refused before it leaves, whatever built it.
   */
  tokenOrigin?: string;
  /** Cancels every request of this fetch, queued, waiting or in flight. */
  signal?: AbortSignal;
  sleep?: Sleep;
  /** In [0, 1), for the jitter. */
  random?: () => number;
  /** Epoch milliseconds. */
  now?: () => number;
  /** Retries and pauses, for logs and benchmarks. */
  onEvent?: (event: RateLimitEvent) => void;
}

export type RateLimitEvent =
  | { type: 'retry'; url: string; attempt: number; reason: string; delayMs: number }
  | { type: 'pause'; until: number; reason: string };

/** Per-call options, the fetch's optional third argument. */
export interface CallOptions {
  /** Overrides `maxResponseBytes` for this call. */
  maxBytes?: number;
}

/**
 * A fetch-compatible function (pass it as `serviceBinding.fetch` or call it directly). Bodies are
 * read before it resolves, under the attempt's timeout, so the caller gets a complete Response;
 * it is not suited to streaming responses.
 */
export type RateLimitedFetch = (
  input: string | URL | Request,
  init?: RequestInit,
  call?: CallOptions,
) => Promise<Response>;

const DEFAULTS = {
  concurrency: 6,
  intervalCap: Number.POSITIVE_INFINITY,
  interval: 1000,
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  timeoutMs: 30_000,
  maxServerWaitMs: 5 * 60_000,
  maxResponseBytes: 256 * 1024 * 1024,
};

/** Methods the HTTP spec makes idempotent: safe to send again after an ambiguous failure. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** A 429 with no hint at all still waits at least this long. */
const MIN_RATE_LIMIT_WAIT_MS = 1000;

/** Added to every wait a server asks for (see serverWait). */
const TIMER_GRAIN_MS = 1;

interface PreparedRequest {
  url: string;
  method: string;
  headers: Headers;
  init: RequestInit;
  /** Whether sending it twice is harmless (idempotent method or an Idempotency-Key). */
  repeatable: boolean;
  /** Whether it can be sent again at all (a stream body cannot). */
  replayable: boolean;
  maxBytes: number;
}

/** What one attempt came to, when it did not produce the final Response. */
interface RetryOutcome {
  kind: 'retry';
  reason: string;
  status?: number;
  error?: unknown;
  /** The server did not process the request (429): always safe to send again. */
  unprocessed: boolean;
  /** Set when the whole queue was paused for this long (server pacing). */
  paused?: number;
}

type AttemptOutcome = { kind: 'response'; response: Response } | RetryOutcome;

class TimeoutSignal extends Error {}

/**
 * Wraps fetch with a shared queue (concurrency, optional interval cap), the server's rate budget
 * (a burst while `X-RateLimit-Remaining` is high, paced as it runs low: RateBudget), server pacing
 * (`Retry-After`, `X-RateLimit-*`: when the server asks for a pause, no request from any caller is
 * sent before it ends), retries with full-jitter backoff on 429, 5xx, network errors and timeouts, and
 * `redirect: 'manual'`: a 3xx is an error, so a token is never replayed to another origin.
 *
 * Retries resend the same method, URL, headers (Idempotency-Key included) and body. After an
 * ambiguous failure (5xx, network, timeout) only idempotent methods and requests carrying an
 * `Idempotency-Key` are retried; a 429 means the request was not processed and is always retried.
 */
export function createRateLimitedFetch(options: RateLimitedFetchOptions = {}): RateLimitedFetch {
  const limiter = new RateLimiter(options);
  return (input, init, call) => limiter.fetch(input, init, call);
}

class RateLimiter {
  private readonly settings: typeof DEFAULTS;
  private readonly transport: typeof fetch;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly queue: PQueue;
  /** What is left of the server's rate-limit window: bursts while plenty, paced when low. */
  private readonly budget: RateBudget;
  /** No request may be sent before this time (epoch ms). */
  private blockedUntil = 0;
  private resuming = false;

  constructor(private readonly options: RateLimitedFetchOptions) {
    this.settings = { ...DEFAULTS };
    for (const key of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
      const value = options[key];
      if (value !== undefined) this.settings[key] = value;
    }
    this.transport = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.budget = new RateBudget({ maxWaitMs: this.settings.maxServerWaitMs });
    this.queue = new PQueue({
      concurrency: this.settings.concurrency,
      intervalCap: this.settings.intervalCap,
      interval: this.settings.interval,
    });
  }

  async fetch(
    input: string | URL | Request,
    init: RequestInit = {},
    call: CallOptions = {},
  ): Promise<Response> {
    const signals = [this.options.signal, init.signal ?? undefined].filter(
      (signal): signal is AbortSignal => signal !== undefined,
    );
    if (input instanceof Request) signals.push(input.signal);
    throwIfAborted(signals);
    const request = await this.prepare(input, init, call);

    for (let attempt = 1; ; attempt++) {
      const outcome = await this.enqueue(
        () => this.attempt(request, signals, attempt),
        signals,
        attempt,
      );
      if (outcome.kind === 'response') return outcome.response;

      const retryable = request.replayable && (outcome.unprocessed || request.repeatable);
      if (attempt >= this.settings.maxAttempts || !retryable) {
        const why = retryable
          ? `after ${attempt} attempts`
          : request.replayable
            ? '(not retried: not idempotent and no Idempotency-Key)'
            : '(not retried: its body is a stream)';
        throw new RemoteUnavailableError(
          `${request.method} ${redactUrl(request.url)} failed ${why}: ${outcome.reason}`,
          {
            url: redactUrl(request.url),
            attempts: attempt,
            ...(outcome.status !== undefined ? { status: outcome.status } : {}),
            ...(outcome.error !== undefined ? { cause: outcome.error } : {}),
          },
        );
      }

      if (outcome.paused !== undefined) {
        // The queue is already paused (by the attempt itself): this call waits at the gate.
        this.emit({
          type: 'retry',
          url: redactUrl(request.url),
          attempt,
          reason: outcome.reason,
          delayMs: outcome.paused,
        });
      } else {
        const wait = backoffDelay(
          attempt,
          this.settings.baseDelayMs,
          this.settings.maxDelayMs,
          this.random,
        );
        this.emit({
          type: 'retry',
          url: redactUrl(request.url),
          attempt,
          reason: outcome.reason,
          delayMs: wait,
        });
        if (wait > 0) await abortable(this.sleep(wait, signals[0]), signals);
      }
    }
  }

  private async prepare(
    input: string | URL | Request,
    init: RequestInit,
    call: CallOptions,
  ): Promise<PreparedRequest> {
    const fromRequest = input instanceof Request ? input : undefined;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? fromRequest?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers ?? fromRequest?.headers);
    let body = init.body;
    if (body === undefined && fromRequest?.body) body = await fromRequest.clone().arrayBuffer();

    const authorization = headers.get('authorization');
    if (authorization !== null && this.options.tokenOrigin !== undefined) {
      const target = safeOrigin(url);
      if (target !== safeOrigin(this.options.tokenOrigin)) {
        throw new RemoteProtocolError(
          `Refusing to send the API token to ${target ?? 'an invalid URL'}: only ${this.options.tokenOrigin} may receive it`,
          { url: redactUrl(url) },
        );
      }
    }
    return {
      url,
      method,
      headers,
      init: { ...init, method, body: body ?? null },
      repeatable: IDEMPOTENT.has(method) || headers.has('idempotency-key'),
      replayable: !(body instanceof ReadableStream),
      maxBytes: call.maxBytes ?? this.settings.maxResponseBytes,
    };
  }

  /** Runs one attempt through the queue; retries go ahead of first attempts. */
  private enqueue(
    task: () => Promise<AttemptOutcome>,
    signals: AbortSignal[],
    attempt: number,
  ): Promise<AttemptOutcome> {
    const queued = this.queue.add(task, { priority: attempt > 1 ? 1 : 0, throwOnTimeout: true });
    return abortable(queued, signals);
  }

  private async attempt(
    request: PreparedRequest,
    signals: AbortSignal[],
    attempt: number,
  ): Promise<AttemptOutcome> {
    throwIfAborted(signals);
    // The gate: an attempt that left the queue before a pause began waits for its end, and for
    // its turn in the server's budget. The last check runs synchronously right before the send,
    // so a pause set meanwhile is never missed.
    for (let wait = this.gateWait(); wait > 0; wait = this.gateWait())
      await abortable(this.sleep(wait, signals[0]), signals);
    this.budget.sent(this.now());

    const controller = new AbortController();
    const onAbort = (event: Event) =>
      controller.abort((event.target as AbortSignal | null)?.reason);
    for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => controller.abort(new TimeoutSignal('timeout')),
      this.settings.timeoutMs,
    );

    try {
      const response = await this.transport(request.url, {
        ...request.init,
        // A fresh copy each time: every attempt sends exactly the same headers.
        headers: new Headers(request.headers),
        redirect: 'manual',
        signal: controller.signal,
      });
      this.budget.observe(response.headers, this.now());
      this.observePacing(response.headers);
      const { status } = response;

      if (response.type === 'opaqueredirect' || (status >= 300 && status < 400 && status !== 304)) {
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get('location') ?? undefined;
        throw new RemoteRedirectError(
          `${request.method} ${redactUrl(request.url)} answered ${status} (redirect to ${location ? redactUrl(location) : 'nowhere'}), which is never followed`,
          {
            status,
            url: redactUrl(request.url),
            ...(location !== undefined ? { location } : {}),
          },
        );
      }

      // 501 means the server will never do it: retrying would only waste time.
      if (status === 429 || (status >= 500 && status !== 501)) {
        // Paused here, before this task ends and the queue starts the next one: no request from
        // any caller may go out before the server's pause is over.
        let paused = this.serverWait(response);
        if (paused === undefined && status === 429) {
          const backoff = backoffDelay(
            attempt,
            this.settings.baseDelayMs,
            this.settings.maxDelayMs,
            this.random,
          );
          paused = Math.max(MIN_RATE_LIMIT_WAIT_MS, backoff);
        }
        if (paused !== undefined) this.pauseUntil(this.now() + paused, `${status}`);
        const message = await errorMessage(response);
        const reason = message ? `${status} ${message}` : String(status);
        return {
          kind: 'retry',
          reason,
          status,
          unprocessed: status === 429,
          ...(paused !== undefined ? { paused } : {}),
        };
      }

      const bytes = await readBody(response, request.maxBytes, request.url);
      return { kind: 'response', response: rebuild(response, bytes, request) };
    } catch (error) {
      const external = signals.find((signal) => signal.aborted);
      if (external) throw external.reason;
      if (controller.signal.reason instanceof TimeoutSignal) {
        return {
          kind: 'retry',
          reason: `timed out after ${this.settings.timeoutMs} ms`,
          error,
          unprocessed: false,
        };
      }
      if (error instanceof RemoteProtocolError || error instanceof RemoteRedirectError) throw error;
      return { kind: 'retry', reason: describeNetworkError(error), error, unprocessed: false };
    } finally {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', onAbort);
    }
  }

  /** How long before the next send: the server's pause, then the budget's spacing (capped). */
  private gateWait(): number {
    const now = this.now();
    const paused = this.blockedUntil - now;
    if (paused > 0) return paused;
    return this.budget.delay(now);
  }

  /** How long the server asked us to wait, capped: Retry-After, else X-RateLimit-Reset. */
  private serverWait(response: Response): number | undefined {
    const now = this.now();
    let wait = parseRetryAfter(response.headers.get('retry-after'), now);
    if (wait === undefined && response.status === 429) {
      const reset = parseRateLimitReset(response.headers.get('x-ratelimit-reset'), now);
      if (reset !== undefined && reset > now) wait = reset - now;
    }
    // One millisecond more: timers and Date.now() have millisecond grain, and a wait that ends a
    // fraction early by the server's clock would be refused again.
    return wait === undefined
      ? undefined
      : Math.min(wait + TIMER_GRAIN_MS, this.settings.maxServerWaitMs);
  }

  /** `X-RateLimit-Remaining: 0` on any response: nothing more is sent before the reset. */
  private observePacing(headers: Headers): void {
    if (headers.get('x-ratelimit-remaining')?.trim() !== '0') return;
    const now = this.now();
    const reset = parseRateLimitReset(headers.get('x-ratelimit-reset'), now);
    if (reset !== undefined && reset > now) {
      this.pauseUntil(Math.min(reset, now + this.settings.maxServerWaitMs), 'rate limit used up');
    }
  }

  private pauseUntil(until: number, reason: string): void {
    if (until <= this.blockedUntil) return;
    this.blockedUntil = until;
    this.emit({ type: 'pause', until, reason });
    this.queue.pause();
    if (!this.resuming) {
      this.resuming = true;
      void this.resumeWhenDue();
    }
  }

  /** Restarts the queue once the latest pause is over (a pause may be extended meanwhile). */
  private async resumeWhenDue(): Promise<void> {
    try {
      for (
        let wait = this.blockedUntil - this.now();
        wait > 0;
        wait = this.blockedUntil - this.now()
      )
        await this.sleep(wait, this.options.signal);
    } catch {
      // A failing sleep must not leave the queue paused forever; the gate still holds requests.
    } finally {
      this.resuming = false;
      this.queue.start();
    }
  }

  private emit(event: RateLimitEvent): void {
    this.options.onEvent?.(event);
  }
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return 'network error';
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** A Response over the buffered bytes, with the original status, headers and URL. */
function rebuild(
  original: Response,
  bytes: Uint8Array<ArrayBuffer>,
  request: PreparedRequest,
): Response {
  const headers = new Headers(original.headers);
  if (headers.has('content-encoding')) {
    // The bytes are already decoded: the coding and its length no longer describe them.
    headers.delete('content-encoding');
    headers.delete('content-length');
  }
  const noBody =
    request.method === 'HEAD' || [204, 205, 304].includes(original.status) || original.status < 200;
  const response = new Response(noBody ? null : bytes, {
    status: original.status,
    statusText: original.statusText,
    headers,
  });
  Object.defineProperty(response, 'url', { value: original.url || request.url });
  return response;
}
