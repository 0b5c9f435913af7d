import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';
import type { CacheDb } from '../cache/open-cache-database';
import { SyncStateStore } from '../cache/sync-state-store';

/** What a running watcher last knew, for `quire status` in another process. */
const WATCH_RUNTIME_KEY = 'watch-runtime';

export interface WatchRuntime {
  pid: number;
  state: SyncStatusSnapshot['state'];
  error: string | null;
}

/** The runtime record in the cache's sync_state: written by the watcher's owner, read by others. */
export class WatchRuntimeRecord {
  private readonly store: SyncStateStore;

  constructor(cache: CacheDb) {
    this.store = new SyncStateStore(cache);
  }

  record(status: SyncStatusSnapshot, pid: number = process.pid): void {
    this.store.set(
      WATCH_RUNTIME_KEY,
      JSON.stringify({ pid, state: status.state, error: status.error }),
    );
  }

  clear(): void {
    this.store.set(WATCH_RUNTIME_KEY, '');
  }

  read(): WatchRuntime | undefined {
    const text = this.store.get(WATCH_RUNTIME_KEY);
    if (!text) return undefined;
    try {
      const value = JSON.parse(text) as { pid?: unknown; state?: unknown; error?: unknown };
      if (typeof value.pid !== 'number' || typeof value.state !== 'string') return undefined;
      return {
        pid: value.pid,
        state: value.state as WatchRuntime['state'],
        error: typeof value.error === 'string' ? value.error : null,
      };
    } catch {
      return undefined;
    }
  }
}
