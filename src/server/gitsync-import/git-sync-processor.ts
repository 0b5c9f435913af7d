import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ApiError } from '../http/api-error';
import type { ServerContext } from '../server-context';
import { CpuJobError, CpuPool, defaultCpuPoolOptions } from '../workers/cpu-pool';
import type { CpuTasks } from '../workers/cpu-worker-handler';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-limits';
import { GitImportError, redact } from './fetch-git-tree';
import { importCollected } from './import-collected';
import { spaceExport } from './space-export';
import { GitSyncQueries, type GitSyncJobRow, type GitSyncOperationState } from './git-sync-queries';

export interface GitSyncSettings {
  /** Deadline of one whole operation (every request, the clone and the import). */
  timeoutMs: number;
  /** Deadline of one HTTP request. */
  requestTimeoutMs: number;
  /** Bytes the Git server may send for one operation (the pack, mostly). */
  maxRepositoryBytes: number;
  /** What the fetched tree may hold, as for an uploaded archive. */
  limits: ArchiveLimits;
  /** Exact addresses fetched although private (an operator's Git host, a test server). */
  allowedAddresses: string[];
  /** Operations run at the same time (the Git pool has one thread; the rest wait queued here). */
  concurrency: number;
}

/** What the job's request asked for besides the URL and ref. */
export interface GitJobOptions {
  repoProjectDirectory?: string;
  standalone?: boolean;
  commitMessage?: string;
  force?: boolean;
}

interface Outcome {
  state: GitSyncOperationState;
  error?: string;
  changeRequestId?: string;
}

/**
 * Runs Git Sync imports and exports off the request path: the route queues a job (SQLite) and answers 204;
 * this fetches the repository through the SSRF guard and imports it with the archive's pipeline
 * (or pushes the space's layout as one commit),
 * recording the outcome as the space's Git Sync state. One job per space at a time; jobs left by
 * a stopped server run again at the next start. Credentials live only in memory (`secrets`).
 */
export class GitSyncProcessor {
  readonly settings: GitSyncSettings = {
    timeoutMs: 120_000,
    requestTimeoutMs: 60_000,
    maxRepositoryBytes: 512 * 1024 * 1024,
    limits: DEFAULT_ARCHIVE_LIMITS,
    allowedAddresses: [],
    concurrency: 1,
  };

  private readonly queries: GitSyncQueries;
  /**
   * The fetches' own worker thread: a clone may take minutes, and must neither hold the API's
   * CPU workers nor run on the event loop. Its budget is the operation's deadline.
   */
  private poolInstance: CpuPool | undefined;
  private readonly secrets = new Map<number, string>();
  private readonly active = new Set<Promise<void>>();
  private readonly stopController = new AbortController();
  private started = false;

  constructor(
    private readonly ctx: ServerContext,
    private readonly onUnexpected: (error: unknown) => void,
  ) {
    this.queries = new GitSyncQueries(ctx.db);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.queries.releaseClaimed();
    this.wake();
  }

  /** Remembers a queued job's URL with its credentials (never written to the database). */
  rememberSecretUrl(jobId: number, url: string): void {
    this.secrets.set(jobId, url);
  }

  async stop(): Promise<void> {
    this.stopController.abort();
    await this.poolInstance?.close();
    await Promise.allSettled([...this.active]);
  }

  private get pool(): CpuPool {
    this.poolInstance ??= new CpuPool(
      defaultCpuPoolOptions({
        budgetMs: this.settings.timeoutMs,
        threads: 1,
        maxQueue: 64,
        workerFile: this.ctx.cpu.options.workerFile,
      }),
    );
    return this.poolInstance;
  }

  /** Resolves once nothing runs (tests wait on it). */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  wake(): void {
    if (!this.started || this.stopController.signal.aborted) return;
    while (this.active.size < this.settings.concurrency) {
      const job = this.queries.claim(this.now());
      if (!job) return;
      const run: Promise<void> = this.run(job)
        .catch((error: unknown) => this.onUnexpected(error))
        .finally(() => {
          this.active.delete(run);
          this.wake();
        });
      this.active.add(run);
    }
  }

  private async run(job: GitSyncJobRow): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = await this.perform(job);
    } catch (error) {
      if (this.stopController.signal.aborted) {
        this.queries.release(job);
        return;
      }
      outcome = this.failure(error);
    }
    this.secrets.delete(job.id);
    this.queries.finish(job, outcome, this.now());
  }

  private async perform(job: GitSyncJobRow): Promise<Outcome> {
    const url = job.has_credentials === 1 ? this.secrets.get(job.id) : job.url;
    if (url === undefined) {
      return {
        state: 'failure',
        error:
          'the server restarted before this operation ran, and credentials are never stored: ' +
          'trigger it again',
      };
    }
    const options = JSON.parse(job.options) as GitJobOptions;
    // The caller's role is checked again: it may have changed while the job waited.
    const needed = job.direction === 'import' && options.standalone !== true ? 'review' : 'edit';
    this.ctx.access.requireSpace(job.user_id, job.space_id, needed);
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    const timedOut = (error: unknown) => {
      throw deadline.aborted ? new TimeoutError() : error;
    };
    if (job.direction === 'export') {
      return this.performExport(job, url, options).catch(timedOut);
    }
    const fetched = await this.onWorker('git-fetch-tree', {
      url,
      ref: job.ref,
      ...(options.repoProjectDirectory ? { projectDirectory: options.repoProjectDirectory } : {}),
      limits: this.settings.limits,
      ...this.workerGuard(),
    }).catch(timedOut);
    if ('error' in fetched) return { state: 'failure', error: fetched.error };
    try {
      const { row } = await importCollected(
        this.ctx,
        { texts: new Map(fetched.texts), assets: new Map(fetched.assets) },
        {
          spaceId: job.space_id,
          userId: job.user_id,
          subject: `Import from ${job.url} (${job.ref})`,
          merge: options.standalone !== true,
        },
      );
      return { state: 'success', changeRequestId: row.id };
    } finally {
      if (fetched.folder) await rm(fetched.folder, { recursive: true, force: true });
    }
  }

  /** Runs a Git job on the Git pool's worker; its deadline passed is a TimeoutError. */
  private async onWorker<K extends 'git-fetch-tree' | 'git-push-tree'>(
    kind: K,
    input: CpuTasks[K]['input'],
  ): Promise<CpuTasks[K]['output']> {
    try {
      return await this.pool.run(kind, input);
    } catch (error) {
      if (error instanceof CpuJobError && error.failure === 'over-budget') throw new TimeoutError();
      throw error;
    }
  }

  /** The SSRF rules and limits a worker's Git requests follow. */
  private workerGuard() {
    return {
      allowPrivate: this.ctx.config.allowPrivateUrls,
      allowedAddresses: this.settings.allowedAddresses,
      maxRepositoryBytes: this.settings.maxRepositoryBytes,
      requestTimeoutMs: this.settings.requestTimeoutMs,
      timeoutMs: this.settings.timeoutMs,
    };
  }

  /**
   * Pushes the space's Git Sync layout as one commit on the job's branch: the layout is written
   * to a temporary folder here, committed and pushed on the Git pool's worker (gitPushTask).
   */
  private async performExport(
    job: GitSyncJobRow,
    url: string,
    options: GitJobOptions,
  ): Promise<Outcome> {
    const files = await spaceExport(this.ctx, job.user_id, job.space_id);
    const folder = await mkdtemp(join(tmpdir(), 'quire-git-export-'));
    try {
      for (const file of files) {
        await mkdir(dirname(join(folder, file.path)), { recursive: true });
        await writeFile(join(folder, file.path), file.bytes());
      }
      const pushed = await this.onWorker('git-push-tree', {
        folder,
        url,
        ref: job.ref,
        ...(options.repoProjectDirectory ? { projectDirectory: options.repoProjectDirectory } : {}),
        commitMessage: options.commitMessage ?? 'Export from Quire',
        force: options.force === true,
        ...this.workerGuard(),
      });
      return 'error' in pushed ? { state: 'failure', error: pushed.error } : { state: 'success' };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  private failure(error: unknown): Outcome {
    if (error instanceof TimeoutError) {
      return {
        state: 'timeout',
        error: `the operation took longer than ${this.settings.timeoutMs} ms`,
      };
    }
    if (error instanceof GitImportError) return { state: 'failure', error: error.message };
    if (error instanceof ApiError) return { state: 'failure', error: redact(error.message) };
    this.onUnexpected(error);
    return { state: 'failure', error: 'the operation failed unexpectedly' };
  }

  private now(): string {
    return this.ctx.clock.now().toISOString();
  }
}

class TimeoutError extends Error {}
