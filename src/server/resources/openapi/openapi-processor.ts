import { createHash } from 'node:crypto';
import type { HostLookup, Transport } from '../../content/safe-url-fetch';
import type { ServerContext } from '../../server-context';
import { CpuJobError } from '../../workers/cpu-pool';
import { fetchOpenApiSource } from './fetch-openapi-source';
import { OpenApiJobQueries, type OpenApiJobRow } from './openapi-job-queries';
import { OpenApiQueries, type OpenApiSpecRow } from './openapi-queries';
import { OPENAPI_LIMITS, type ProcessErrorCode } from './openapi-schema';
import type { OpenApiParseResult } from './parse-openapi';

export interface OpenApiProcessorSettings {
  /** Deadline of one fetch of a specification (every redirect and the body included). */
  fetchTimeoutMs: number;
  /** Largest specification fetched, in bytes. */
  maxBytes: number;
  /** Specifications processed at the same time. */
  concurrency: number;
  /** How long processing waits when the CPU pool is full before trying again. */
  busyRetryMs: number;
  /** Exact addresses fetched although private (an operator's internal host, a test server). */
  allowedAddresses: string[];
}

type Outcome =
  | { kind: 'parsed'; text: string; parsed: Extract<OpenApiParseResult, { ok: true }> }
  | { kind: 'failed'; code: ProcessErrorCode; messages: string[]; count: number }
  | { kind: 'busy' };

/**
 * Processes OpenAPI specifications off the request path: a write only queues a job (in SQLite);
 * this fetches the source through the SSRF guard, parses and validates it on the CPU pool, and
 * records a new version when the content changed, or the error code (keeping the last good
 * version). Jobs left by a server that stopped are resumed when the next one starts.
 */
export class OpenApiProcessor {
  readonly settings: OpenApiProcessorSettings = {
    fetchTimeoutMs: 10_000,
    maxBytes: OPENAPI_LIMITS.document,
    concurrency: 2,
    busyRetryMs: 5_000,
    allowedAddresses: [],
  };
  /** Stand-ins for the resolver and the network (tests); safeFetch's defaults otherwise. */
  lookup: HostLookup | undefined;
  transport: Transport | undefined;

  private readonly specs: OpenApiQueries;
  private readonly jobs: OpenApiJobQueries;
  private readonly active = new Set<Promise<void>>();
  private readonly stopController = new AbortController();
  private started = false;
  private pausedUntil = 0;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: ServerContext,
    private readonly onUnexpected: (error: unknown) => void,
  ) {
    this.specs = new OpenApiQueries(ctx.db);
    this.jobs = new OpenApiJobQueries(ctx.db);
  }

  /** Starts working: first on what a previous server left unfinished. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.jobs.releaseClaimed();
    this.wake();
  }

  /**
   * Queues (re)processing of a specification; `wake` then starts it. Kept apart so a write can
   * queue inside its transaction and answer `pending` before processing begins.
   */
  enqueue(specId: string): void {
    this.jobs.enqueue(specId, this.now());
  }

  /** Stops: fetches in flight are abandoned, their jobs stay queued for the next start. */
  async stop(): Promise<void> {
    this.stopController.abort();
    clearTimeout(this.retryTimer);
    await Promise.allSettled([...this.active]);
  }

  /** Resolves once nothing is being processed (tests wait on it). */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  private get stopping(): boolean {
    return this.stopController.signal.aborted;
  }

  /** Starts queued jobs, as many as the concurrency allows. */
  wake(): void {
    if (!this.started || this.stopping || Date.now() < this.pausedUntil) return;
    while (this.active.size < this.settings.concurrency) {
      const job = this.jobs.claim(this.now());
      if (!job) return;
      const run: Promise<void> = this.run(job)
        .catch((error: unknown) => this.failedToRecord(job, error))
        .finally(() => {
          this.active.delete(run);
          this.wake();
        });
      this.active.add(run);
    }
  }

  private async run(job: OpenApiJobRow): Promise<void> {
    const spec = this.specs.getById(job.spec_id);
    if (!spec) {
      this.jobs.finish(job);
      return;
    }
    this.specs.setProcessingState(spec.id, 'progress');
    let outcome: Outcome;
    try {
      outcome = await this.process(spec);
    } catch (error) {
      if (this.stopping) return;
      this.onUnexpected(error);
      outcome = { kind: 'failed', code: 'PARSE_ERROR', messages: ['Processing failed'], count: 1 };
    }
    // A stopping server records nothing: the job stays queued and the next start redoes it.
    if (this.stopping) return;
    if (outcome.kind === 'busy') {
      this.jobs.release(job);
      this.pauseForRetry();
      return;
    }
    this.record(spec, outcome);
    const more = this.jobs.finish(job);
    this.specs.setProcessingState(spec.id, more ? 'pending' : 'complete');
  }

  private async process(spec: OpenApiSpecRow): Promise<Outcome> {
    if (spec.source_url === null) return this.parse(this.specs.sourceText(spec.id) ?? '');
    const fetched = await fetchOpenApiSource(spec.source_url, {
      allowPrivate: this.ctx.config.allowPrivateUrls,
      allowedAddresses: this.settings.allowedAddresses,
      timeoutMs: this.settings.fetchTimeoutMs,
      maxBytes: this.settings.maxBytes,
      signal: this.stopController.signal,
      lookup: this.lookup,
      transport: this.transport,
    });
    if (!fetched.ok) {
      return { kind: 'failed', code: fetched.code, messages: [fetched.message], count: 1 };
    }
    return this.parse(fetched.text);
  }

  private async parse(text: string): Promise<Outcome> {
    let parsed: OpenApiParseResult | undefined;
    // A second try when over budget: the first may have waited for a worker thread to start.
    for (let attempt = 1; !parsed; attempt++) {
      try {
        parsed = await untilStopped(
          this.ctx.cpu.run('openapi-parse', { text }),
          this.stopController.signal,
        );
      } catch (error) {
        if (!(error instanceof CpuJobError)) throw error;
        if (error.failure === 'busy') return { kind: 'busy' };
        if (error.failure === 'over-budget' && attempt < 2) continue;
        const message = error.toApiError('The specification').message;
        return { kind: 'failed', code: 'PARSE_ERROR', messages: [message], count: 1 };
      }
    }
    if (!parsed.ok) {
      return {
        kind: 'failed',
        code: 'PARSE_ERROR',
        messages: parsed.errors,
        count: parsed.errorCount,
      };
    }
    return { kind: 'parsed', text, parsed };
  }

  private record(spec: OpenApiSpecRow, outcome: Exclude<Outcome, { kind: 'busy' }>): void {
    const now = this.now();
    if (outcome.kind === 'failed') {
      this.specs.recordError(spec.id, outcome.code, outcome, now);
      return;
    }
    const { text, parsed } = outcome;
    this.specs.recordVersion(
      spec.id,
      {
        contentHash: createHash('sha256').update(text).digest('base64url'),
        text,
        format: parsed.format,
        document: parsed.document,
        sourceUrl: spec.source_url,
        fileName: fileNameOf(spec.source_url, parsed.format),
      },
      now,
    );
  }

  /** Recording an outcome failed (the database refused a write): the job is tried again later. */
  private failedToRecord(job: OpenApiJobRow, error: unknown): void {
    this.onUnexpected(error);
    if (this.stopping) return;
    try {
      this.jobs.release(job);
    } catch (releaseError) {
      this.onUnexpected(releaseError);
    }
    this.pauseForRetry();
  }

  private pauseForRetry(): void {
    this.pausedUntil = Date.now() + this.settings.busyRetryMs;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.wake(), this.settings.busyRetryMs);
    this.retryTimer.unref();
  }

  private now(): string {
    return this.ctx.clock.now().toISOString();
  }
}

/** The entry file's name: the URL's own when it names a JSON or YAML file. */
function fileNameOf(url: string | null, format: 'json' | 'yaml'): string {
  const last = url ? (new URL(url).pathname.split('/').pop() ?? '') : '';
  return /^[\w.-]+\.(json|ya?ml)$/i.test(last) ? last : `openapi.${format}`;
}

/** Settles with `promise`, or rejects once `signal` aborts (a CPU job runs on until the pool closes). */
function untilStopped<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('stopped'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
