import type { Db } from '../../db/open-database';

export interface OpenApiJobRow {
  id: number;
  spec_id: string;
}

/**
 * The processing queue, kept in SQLite so that what was asked for survives a restart: a job is
 * deleted only once its outcome is recorded. One specification is processed by one job at a time.
 */
export class OpenApiJobQueries {
  private readonly insertJob;
  private readonly dropWaiting;
  private readonly nextJob;
  private readonly markStarted;
  private readonly deleteJob;
  private readonly pendingFor;
  private readonly releaseAll;
  private readonly releaseOne;
  private readonly markQueuedPending;

  constructor(private readonly db: Db) {
    this.insertJob = db.prepare<[string, string]>(
      'INSERT INTO openapi_jobs (spec_id, created_at) VALUES (?, ?)',
    );
    this.dropWaiting = db.prepare<[string]>(
      'DELETE FROM openapi_jobs WHERE spec_id = ? AND started_at IS NULL',
    );
    this.nextJob = db.prepare<[], OpenApiJobRow>(
      `SELECT id, spec_id FROM openapi_jobs j WHERE started_at IS NULL AND NOT EXISTS
         (SELECT 1 FROM openapi_jobs r WHERE r.spec_id = j.spec_id AND r.started_at IS NOT NULL)
       ORDER BY id LIMIT 1`,
    );
    this.markStarted = db.prepare<[string, number]>(
      'UPDATE openapi_jobs SET started_at = ? WHERE id = ?',
    );
    this.deleteJob = db.prepare<[number]>('DELETE FROM openapi_jobs WHERE id = ?');
    this.pendingFor = db
      .prepare<[string], number>('SELECT count(*) FROM openapi_jobs WHERE spec_id = ?')
      .pluck();
    this.releaseAll = db.prepare('UPDATE openapi_jobs SET started_at = NULL');
    this.markQueuedPending = db.prepare(
      `UPDATE openapi_specs SET processing_state = 'pending'
       WHERE id IN (SELECT spec_id FROM openapi_jobs)`,
    );
    this.releaseOne = db.prepare<[number]>(
      'UPDATE openapi_jobs SET started_at = NULL WHERE id = ?',
    );
  }

  /** Asks for the specification to be processed; a request still waiting is superseded. */
  enqueue(specId: string, now: string): void {
    this.db.transaction(() => {
      this.dropWaiting.run(specId);
      this.insertJob.run(specId, now);
    })();
  }

  /** Takes the oldest waiting job whose specification no job is working on. */
  claim(now: string): OpenApiJobRow | undefined {
    const job = this.nextJob.get();
    if (job) this.markStarted.run(now, job.id);
    return job;
  }

  /** The job is done (its outcome recorded); returns whether another waits for its spec. */
  finish(job: OpenApiJobRow): boolean {
    this.deleteJob.run(job.id);
    return this.pendingFor.get(job.spec_id)! > 0;
  }

  /** Puts a claimed job back in the queue (it will be tried again). */
  release(job: OpenApiJobRow): void {
    this.releaseOne.run(job.id);
  }

  /**
   * On start, jobs a previous server had claimed are waiting again: that server stopped (or
   * crashed) before recording their outcome. Only one server uses a database file.
   */
  releaseClaimed(): void {
    this.db.transaction(() => {
      this.releaseAll.run();
      this.markQueuedPending.run();
    })();
  }
}
