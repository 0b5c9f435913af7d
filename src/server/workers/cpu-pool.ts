/**
 * CPU-heavy work (Markdown → documents, link extraction, PDF rendering, HTML import, search
 * sections) runs here, on worker threads, never on the server's event loop: one request that
 * takes seconds of CPU must not stall every other organization's requests.
 *
 * Each job has a time budget. A job over budget is cancelled (its worker is terminated, so a
 * runaway parse really stops) and answers 422; a queue already full answers 503 with
 * Retry-After. Piscina does the pooling, queueing and cancelling.
 */
import { Piscina } from 'piscina';
import { ApiError } from '../http/api-error';
import type { CpuTask, CpuTaskKind, CpuTasks } from './cpu-worker-handler';

export interface CpuPoolOptions {
  /** Longest a job may run (queue wait included) before it is cancelled. */
  budgetMs: number;
  /** Worker threads; at least one, and never more than the machine's cores. */
  threads: number;
  /**
   * Threads kept started (0 or more, at most `threads`). A worker takes about a second of CPU to
   * start; a server keeps one warm so the first heavy request does not pay for it.
   */
  warmThreads: number;
  /** Jobs waiting beyond this many answer 503 at once instead of queueing. */
  maxQueue: number;
  /** Heap limit of each worker: a job that needs more is ended, not the server. */
  workerHeapMb: number;
  /**
   * The worker's entry (a file URL). By default the TypeScript sources through tsx; a bundled
   * build (the desktop app's demo server) passes its own compiled entry, cpu-worker-entry.ts.
   */
  workerFile: string;
}

/** The worker entry that runs the handlers from their TypeScript sources. */
export const SOURCE_CPU_WORKER = new URL('./cpu-worker.mjs', import.meta.url).href;

export const DEFAULT_CPU_BUDGET_MS = 10_000;

export function defaultCpuPoolOptions(overrides: Partial<CpuPoolOptions> = {}): CpuPoolOptions {
  return {
    budgetMs: DEFAULT_CPU_BUDGET_MS,
    threads: 1,
    warmThreads: 0,
    maxQueue: 256,
    workerHeapMb: 1024,
    workerFile: SOURCE_CPU_WORKER,
    ...overrides,
  };
}

/** Seconds a client should wait before retrying a job the pool had no room for. */
const BUSY_RETRY_AFTER_S = 5;

/** Why a job failed, for the caller to phrase (it knows what the job was about). */
export type CpuJobFailure = 'over-budget' | 'busy' | 'failed';

export class CpuJobError extends Error {
  constructor(
    readonly failure: CpuJobFailure,
    readonly budgetMs: number,
  ) {
    super(`CPU job ${failure}`);
    this.name = 'CpuJobError';
  }

  /** The API error for a job about `what` ("page p1's document", "the PDF"). */
  toApiError(what: string): ApiError {
    const seconds = Math.round(this.budgetMs / 100) / 10;
    switch (this.failure) {
      case 'over-budget':
        return new ApiError(
          422,
          `${what} could not be produced within the server's ${seconds} s limit for one job`,
        );
      case 'busy':
        return new ApiError(503, `The server is busy; try ${what} again shortly`, {
          'Retry-After': String(BUSY_RETRY_AFTER_S),
        });
      case 'failed':
        return new ApiError(422, `${what} could not be produced from this content`);
    }
  }
}

export class CpuPool {
  private pool: Piscina | undefined;
  private closed = false;

  constructor(readonly options: CpuPoolOptions = defaultCpuPoolOptions()) {
    if (options.warmThreads > 0) this.started();
  }

  /** Runs one job on a worker; rejects with CpuJobError (never with a worker's own message). */
  async run<K extends CpuTaskKind>(
    kind: K,
    input: CpuTasks[K]['input'],
  ): Promise<CpuTasks[K]['output']> {
    if (this.closed) throw new CpuJobError('busy', this.options.budgetMs);
    const pool = this.started();
    if (pool.queueSize >= this.options.maxQueue) {
      throw new CpuJobError('busy', this.options.budgetMs);
    }
    const task: CpuTask<K> = { kind, input };
    try {
      return (await pool.run(task, {
        signal: AbortSignal.timeout(this.options.budgetMs),
      })) as CpuTasks[K]['output'];
    } catch (error) {
      const failure: CpuJobFailure = isAbort(error)
        ? 'over-budget'
        : isQueueFull(error)
          ? 'busy'
          : 'failed';
      throw new CpuJobError(failure, this.options.budgetMs);
    }
  }

  /** Ends every worker (jobs in flight are cancelled). */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }

  /** Threads start on first use: most requests never need one. */
  private started(): Piscina {
    this.pool ??= new Piscina({
      filename: this.options.workerFile,
      minThreads: Math.min(this.options.warmThreads, this.options.threads),
      maxThreads: Math.max(1, this.options.threads),
      // Idle workers beyond the warm ones end after a minute; a burst reuses them.
      idleTimeout: 60_000,
      maxQueue: this.options.maxQueue,
      resourceLimits: { maxOldGenerationSizeMb: this.options.workerHeapMb },
    });
    return this.pool;
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

function isQueueFull(error: unknown): boolean {
  return error instanceof Error && /queue is at limit/i.test(error.message);
}
