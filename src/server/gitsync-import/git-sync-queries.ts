import type { Db } from '../db/open-database';

export type GitSyncDirection = 'import' | 'export';
export type GitSyncOperationState = 'running' | 'failure' | 'success' | 'timeout';

export interface GitSyncJobRow {
  id: number;
  space_id: string;
  user_id: string;
  direction: GitSyncDirection;
  /** Without credentials. */
  url: string;
  has_credentials: 0 | 1;
  ref: string;
  options: string;
}

export interface GitSyncStateRow {
  space_id: string;
  provider: 'github' | 'gitlab';
  repo_url: string;
  tree_url: string | null;
  ref: string;
  state: GitSyncOperationState;
  direction: GitSyncDirection;
  started_at: string;
  ended_at: string | null;
  error: string | null;
  change_request_id: string | null;
  updated_at: string;
}

export interface NewGitSyncJob {
  spaceId: string;
  userId: string;
  direction: GitSyncDirection;
  url: string;
  hasCredentials: boolean;
  ref: string;
  options: Record<string, unknown>;
  provider: 'github' | 'gitlab';
  treeUrl: string | undefined;
}

/**
 * The Git Sync queue and each space's Git Sync state (migration 0006). A job stays a row until
 * its outcome is recorded, so a restart does it again; one job per space runs at a time.
 */
export class GitSyncQueries {
  constructor(private readonly db: Db) {}

  /** Queues a job and marks the space's operation running, in one transaction; the job's id. */
  enqueue(job: NewGitSyncJob, now: string): number {
    return this.db.transaction(() => {
      const id = this.db
        .prepare<[string, string, string, string, number, string, string, string]>(
          `INSERT INTO git_sync_jobs
             (space_id, user_id, direction, url, has_credentials, ref, options, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          job.spaceId,
          job.userId,
          job.direction,
          job.url,
          job.hasCredentials ? 1 : 0,
          job.ref,
          JSON.stringify(job.options),
          now,
        ).lastInsertRowid;
      this.db
        .prepare(
          `INSERT INTO space_git_sync (space_id, provider, repo_url, tree_url, ref, state,
             direction, started_at, ended_at, error, change_request_id, updated_at)
           VALUES (@spaceId, @provider, @url, @treeUrl, @ref, 'running', @direction, @now, NULL,
             NULL, NULL, @now)
           ON CONFLICT (space_id) DO UPDATE SET provider = @provider, repo_url = @url,
             tree_url = @treeUrl, ref = @ref, state = 'running', direction = @direction,
             started_at = @now, ended_at = NULL, error = NULL, change_request_id = NULL,
             updated_at = @now`,
        )
        .run({
          spaceId: job.spaceId,
          provider: job.provider,
          url: job.url,
          treeUrl: job.treeUrl ?? null,
          ref: job.ref,
          direction: job.direction,
          now,
        });
      return Number(id);
    })();
  }

  /** Takes the oldest waiting job of a space no job is working on. */
  claim(now: string): GitSyncJobRow | undefined {
    const job = this.db
      .prepare<[], GitSyncJobRow>(
        `SELECT id, space_id, user_id, direction, url, has_credentials, ref, options
         FROM git_sync_jobs j WHERE started_at IS NULL AND NOT EXISTS
           (SELECT 1 FROM git_sync_jobs r WHERE r.space_id = j.space_id AND r.started_at IS NOT NULL)
         ORDER BY id LIMIT 1`,
      )
      .get();
    if (job) {
      this.db.prepare('UPDATE git_sync_jobs SET started_at = ? WHERE id = ?').run(now, job.id);
    }
    return job;
  }

  /** Records a job's outcome on its space and removes it, in one transaction. */
  finish(
    job: GitSyncJobRow,
    outcome: { state: GitSyncOperationState; error?: string; changeRequestId?: string },
    now: string,
  ): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE space_git_sync SET state = ?, error = ?, change_request_id = ?, ended_at = ?,
             updated_at = ? WHERE space_id = ?`,
        )
        .run(
          outcome.state,
          outcome.error ?? null,
          outcome.changeRequestId ?? null,
          now,
          now,
          job.space_id,
        );
      this.db.prepare('DELETE FROM git_sync_jobs WHERE id = ?').run(job.id);
    })();
  }

  /** Jobs a previous server had claimed wait again: it stopped before recording them. */
  releaseClaimed(): void {
    this.db.prepare('UPDATE git_sync_jobs SET started_at = NULL').run();
  }

  /** Puts a claimed job back (a stopping server). */
  release(job: GitSyncJobRow): void {
    this.db.prepare('UPDATE git_sync_jobs SET started_at = NULL WHERE id = ?').run(job.id);
  }

  state(spaceId: string): GitSyncStateRow | undefined {
    return this.db
      .prepare<[string], GitSyncStateRow>('SELECT * FROM space_git_sync WHERE space_id = ?')
      .get(spaceId);
  }
}
