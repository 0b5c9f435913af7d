import type { CacheDb } from './open-cache-database';
import type { Clock } from '../sync-ports';

export interface PauseState {
  paused: boolean;
  /** When the pause ends by itself; null while paused until `resume` (or when not paused). */
  until: Date | null;
}

/**
 * `quire pause [--for 30m]` / `quire resume`, kept in the cache (`sync_pause`) so a pause
 * survives restarts and one process (the CLI) can pause another (the app's drainer, which checks
 * before every batch and while it waits). Edits are still recorded while paused.
 */
export class SyncPause {
  constructor(
    private readonly db: CacheDb,
    private readonly clock: Clock,
  ) {}

  /** Pauses pushing until `until`, or until `resume` when omitted. Replaces an earlier pause. */
  pause(until?: Date): void {
    if (until !== undefined && Number.isNaN(until.getTime())) {
      throw new TypeError('pause: `until` is not a valid date');
    }
    this.db
      .prepare(
        `INSERT INTO sync_pause (id, paused_at, paused_until) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET paused_at = excluded.paused_at,
           paused_until = excluded.paused_until`,
      )
      .run(this.clock.now().toISOString(), until?.toISOString() ?? null);
  }

  resume(): void {
    this.db.prepare('DELETE FROM sync_pause').run();
  }

  /** A pause whose end has passed is over (the row stays until the next pause or resume). */
  state(): PauseState {
    const row = this.db.prepare('SELECT paused_until FROM sync_pause WHERE id = 1').get() as
      { paused_until: string | null } | undefined;
    if (!row) return { paused: false, until: null };
    if (row.paused_until === null) return { paused: true, until: null };
    const until = new Date(row.paused_until);
    return until.getTime() > this.clock.now().getTime()
      ? { paused: true, until }
      : { paused: false, until: null };
  }
}
