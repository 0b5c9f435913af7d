import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import PQueue from 'p-queue';
import type { DownloadResult, DownloadSink } from '../sync-ports';
import { abortable, throwIfAborted } from './abortable';
import { RemoteProtocolError, RemoteUnavailableError, remoteErrorForStatus } from './errors';
import { RateBudget } from './rate-budget';
import { backoffDelay, parseRetryAfter, redactUrl } from './rate-limit-headers';
import type { Sleep } from './rate-limited-fetch';

/**
 * File downloads (signed `downloadURL`s, served by the file host rather than the rate-limited API
 * operations): their own queue, so mirroring many images neither waits on nor starves the API
 * calls. Each body is streamed into a sink (a temp file) while it is hashed and counted, so a
 * large file is never all in memory; a transfer that fails midway starts again from the first
 * byte (the sink is reset), and one whose size or digest is not what the server said is retried
 * and never accepted.
 */
export interface FileDownloaderOptions {
  fetch?: typeof fetch;
  /** Downloads in flight at once (default 8). */
  concurrency?: number;
  /** Attempts per file, the first included (default 5). */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Longest silence while waiting for headers or the next chunk (default 30 s). */
  idleTimeoutMs?: number;
  /** Longest pause a server may ask for (default 5 minutes). */
  maxServerWaitMs?: number;
  signal?: AbortSignal;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
}

/** One download: where to get it, and what the server said about it. */
export interface DownloadRequest {
  url: URL;
  headers: Record<string, string>;
  /** The size the server listed, checked against the bytes received. */
  expectedSize?: number;
  maxBytes: number;
  /** The URL a redirect leads to, or undefined to refuse it (e.g. a request carrying a token). */
  redirect(location: string, from: URL): URL | undefined;
  /** Names the file in errors ("file f1"). */
  what: string;
}

const DEFAULTS = {
  concurrency: 8,
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  idleTimeoutMs: 30_000,
  maxServerWaitMs: 5 * 60_000,
};
const MAX_REDIRECTS = 5;
const MIN_RATE_LIMIT_WAIT_MS = 1000;

/** Why an attempt failed in a way worth another try. */
class Retry {
  constructor(
    readonly reason: string,
    readonly status?: number,
    readonly serverWaitMs?: number,
  ) {}
}

class IdleTimeout extends Error {}

export class FileDownloader {
  private readonly settings: typeof DEFAULTS;
  private readonly transport: typeof fetch;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly queue: PQueue;
  private readonly budget: RateBudget;
  /** No download starts before this time (a 429's Retry-After), epoch ms. */
  private blockedUntil = 0;

  constructor(private readonly options: FileDownloaderOptions = {}) {
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
    this.queue = new PQueue({ concurrency: this.settings.concurrency });
  }

  /** Streams the file into `sink`; resolves to the sha256 and size of what it holds. */
  download(
    request: DownloadRequest,
    sink: DownloadSink,
    signal?: AbortSignal,
  ): Promise<DownloadResult> {
    const signals = [this.options.signal, signal].filter((s): s is AbortSignal => s !== undefined);
    throwIfAborted(signals);
    const task = this.queue.add(() => this.withRetries(request, sink, signals), {
      throwOnTimeout: true,
    });
    return abortable(task, signals);
  }

  private async withRetries(
    request: DownloadRequest,
    sink: DownloadSink,
    signals: AbortSignal[],
  ): Promise<DownloadResult> {
    for (let attempt = 1; ; attempt++) {
      await this.gate(signals);
      const outcome = await this.attempt(request, sink, signals);
      if (!(outcome instanceof Retry)) return outcome;
      if (attempt >= this.settings.maxAttempts) {
        throw new RemoteUnavailableError(
          `Downloading ${request.what} failed after ${attempt} attempts: ${outcome.reason}`,
          {
            url: redactUrl(request.url.href),
            attempts: attempt,
            ...(outcome.status !== undefined ? { status: outcome.status } : {}),
          },
        );
      }
      if (outcome.serverWaitMs !== undefined) {
        // Every download waits: the host asked this client, not this file, to slow down.
        this.blockedUntil = Math.max(this.blockedUntil, this.now() + outcome.serverWaitMs);
      } else {
        const wait = backoffDelay(
          attempt,
          this.settings.baseDelayMs,
          this.settings.maxDelayMs,
          this.random,
        );
        if (wait > 0) await abortable(this.sleep(wait, signals[0]), signals);
      }
    }
  }

  /** Waits out a server pause and the host's rate budget. */
  private async gate(signals: AbortSignal[]): Promise<void> {
    for (;;) {
      const now = this.now();
      const wait = Math.max(this.blockedUntil - now, this.budget.delay(now));
      if (wait <= 0) break;
      await abortable(this.sleep(wait, signals[0]), signals);
    }
    this.budget.sent(this.now());
  }

  private async attempt(
    request: DownloadRequest,
    sink: DownloadSink,
    signals: AbortSignal[],
  ): Promise<DownloadResult | Retry> {
    const controller = new AbortController();
    const onAbort = (event: Event) =>
      controller.abort((event.target as AbortSignal | null)?.reason);
    for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => controller.abort(new IdleTimeout('idle')),
        this.settings.idleTimeoutMs,
      );
    };
    try {
      touch();
      await sink.reset();
      const response = await this.follow(request, controller.signal);
      if (response instanceof Retry) return response;
      return await this.receive(request, response, sink, touch);
    } catch (error) {
      const external = signals.find((s) => s.aborted);
      if (external) throw external.reason;
      if (controller.signal.reason instanceof IdleTimeout) {
        return new Retry(`no data for ${this.settings.idleTimeoutMs} ms`);
      }
      if (error instanceof Retry) return error;
      if (error instanceof TypeError) return new Retry(describeNetworkError(error));
      throw error;
    } finally {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', onAbort);
    }
  }

  /** Sends the request, following token-free redirects; a retryable status is a Retry. */
  private async follow(request: DownloadRequest, signal: AbortSignal): Promise<Response | Retry> {
    let url = request.url;
    let headers = request.headers;
    for (let hops = 0; ; hops++) {
      const response = await this.transport(url.href, { headers, redirect: 'manual', signal });
      this.budget.observe(response.headers, this.now());
      const { status } = response;
      if (status >= 300 && status < 400 && status !== 304) {
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get('location');
        const next = location === null ? undefined : request.redirect(location, url);
        if (next === undefined || hops >= MAX_REDIRECTS) {
          throw new RemoteProtocolError(
            `Downloading ${request.what} failed: ${status}, a redirect that is not followed`,
            { url: redactUrl(url.href) },
          );
        }
        url = next;
        headers = Object.fromEntries(
          Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'),
        );
        continue;
      }
      if (status === 429 || (status >= 500 && status !== 501)) {
        await response.body?.cancel().catch(() => undefined);
        const asked = parseRetryAfter(response.headers.get('retry-after'), this.now());
        const wait =
          asked !== undefined
            ? Math.min(asked + 1, this.settings.maxServerWaitMs)
            : status === 429
              ? MIN_RATE_LIMIT_WAIT_MS
              : undefined;
        return new Retry(String(status), status, wait);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw remoteErrorForStatus(
          status,
          `Downloading ${request.what} failed: ${status} ${response.statusText}`,
          { url: redactUrl(url.href) },
        );
      }
      return response;
    }
  }

  /** Streams the body into the sink, hashing and counting; checks size and digest at the end. */
  private async receive(
    request: DownloadRequest,
    response: Response,
    sink: DownloadSink,
    touch: () => void,
  ): Promise<DownloadResult> {
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > request.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(request);
    }
    const hash = createHash('sha256');
    let size = 0;
    if (response.body !== null) {
      for await (const chunk of response.body) {
        size += chunk.byteLength;
        if (size > request.maxBytes) throw tooLarge(request);
        hash.update(chunk);
        await sink.write(chunk);
        touch();
      }
    }
    const digest = hash.digest();
    if (request.expectedSize !== undefined && size !== request.expectedSize) {
      throw new Retry(`received ${size} bytes, the server listed ${request.expectedSize}`);
    }
    const announced = announcedSha256(response.headers);
    if (announced !== undefined && announced !== digest.toString('base64')) {
      throw new Retry('the bytes do not match the sha-256 digest the server sent');
    }
    return { hash: digest.toString('hex'), size };
  }
}

function tooLarge(request: DownloadRequest): RemoteProtocolError {
  return new RemoteProtocolError(
    `Downloading ${request.what} failed: larger than the ${request.maxBytes} bytes allowed`,
    { url: redactUrl(request.url.href) },
  );
}

/** The `sha-256` of `Repr-Digest` or `Content-Digest` (RFC 9530), base64; else undefined. */
export function announcedSha256(headers: Headers): string | undefined {
  for (const name of ['repr-digest', 'content-digest']) {
    const match = /(?:^|,)\s*sha-256=:([A-Za-z0-9+/]+={0,2}):/i.exec(headers.get(name) ?? '');
    if (match) return match[1];
  }
  return undefined;
}

function describeNetworkError(error: Error): string {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
