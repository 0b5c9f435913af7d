import { SyncStateStore } from '../cache/sync-state-store';
import type { CacheDb } from '../cache/open-cache-database';

/** A subject or status set while the server was unreachable, sent by the next sync. */
export interface QueuedReviewChange {
  spaceId: string;
  changeRequestId: string;
  number: number;
  subject?: string;
  status?: 'draft' | 'open' | 'archived';
  queuedAt: string;
  /** Set when the server refused it: kept (never dropped silently), not sent again. */
  refused?: string;
}

/** The `sync_state` key holding the queue (a handful of entries: JSON is enough). */
const KEY = 'review-actions.queued';

/**
 * The durable queue of change-request metadata set offline: one entry per change request, the
 * latest subject and the latest status winning (what the user last asked for is what is sent).
 */
export class QueuedReviewChanges {
  private readonly state: SyncStateStore;

  constructor(private readonly db: CacheDb) {
    this.state = new SyncStateStore(db);
  }

  list(): QueuedReviewChange[] {
    const raw = this.state.get(KEY);
    return raw === undefined ? [] : (JSON.parse(raw) as QueuedReviewChange[]);
  }

  /** Adds (or merges into the change request's waiting entry) a subject or status. */
  add(change: QueuedReviewChange): void {
    this.db.transaction(() => {
      const all = this.list();
      const at = all.findIndex(
        (item) => item.changeRequestId === change.changeRequestId && item.refused === undefined,
      );
      if (at < 0) all.push(change);
      else all[at] = { ...all[at]!, ...change, queuedAt: all[at]!.queuedAt };
      this.save(all);
    })();
  }

  /** Takes an entry out once the server acknowledged it, or marks it refused with the reason. */
  settle(change: QueuedReviewChange, refused?: string): void {
    this.db.transaction(() => {
      const all = this.list().flatMap((item) => {
        if (item.changeRequestId !== change.changeRequestId || item.refused !== undefined) {
          return [item];
        }
        return refused === undefined ? [] : [{ ...item, refused }];
      });
      this.save(all);
    })();
  }

  /**
   * Forgets the waiting values of `fields` for a change request, once newer ones were sent
   * directly: an older queued subject must not overwrite them later.
   */
  supersede(changeRequestId: string, fields: readonly ('subject' | 'status')[]): void {
    this.db.transaction(() => {
      const all = this.list().flatMap((item) => {
        if (item.changeRequestId !== changeRequestId || item.refused !== undefined) return [item];
        const rest = { ...item };
        for (const field of fields) delete rest[field];
        return rest.subject === undefined && rest.status === undefined ? [] : [rest];
      });
      this.save(all);
    })();
  }

  private save(all: readonly QueuedReviewChange[]): void {
    this.state.set(KEY, JSON.stringify(all));
  }
}
