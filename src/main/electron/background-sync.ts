import { CommandFailedError } from '../../shared/contract/command-error';
import type { ConnectionInfo } from '../../shared/contract/connection';
import type { NoArgs } from '../../shared/contract/quire-commands';
import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';
import type { AppWatchOptions } from '../app/quire-app';
import type { SyncRunnerState } from './desktop-status';

/** What the background sync needs of QuireApp. */
export interface WatchingApp {
  connection(args: NoArgs): Promise<ConnectionInfo>;
  watch(options: AppWatchOptions): Promise<SyncStatusSnapshot>;
}

export interface BackgroundSyncOptions {
  /** Every change of who syncs. */
  readonly onState: (state: SyncRunnerState) => void;
  /** How soon to look again while another process holds the drain lock. Default 15 s. */
  readonly lockRetryMs?: number;
  /** How soon to try again after an unexpected failure. Default 60 s. */
  readonly failureRetryMs?: number;
}

/**
 * The desktop app's watcher, running for the app's whole life: it syncs while a login exists and
 * this process holds the drain lock. A `quire sync --watch` holding the lock is reported as
 * "another process" and the lock is tried again now and then; a missing login or a rejected token
 * waits for `restart()` (a login from the UI). `stop()` lets the request in flight finish.
 */
export class BackgroundSync {
  private running: Promise<void> | undefined;
  private current: AbortController | undefined;
  private stopped = false;
  private wake: (() => void) | undefined;
  /** A restart asked while no watcher ran nor waited: the next wait ends at once. */
  private restarted = false;

  constructor(
    private readonly app: WatchingApp,
    private readonly options: BackgroundSyncOptions,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  /** Looks again at once: after a login or logout, or a settings change the watcher must see. */
  restart(): void {
    this.restarted = true;
    this.current?.abort();
    this.wake?.();
  }

  /** Ends the watcher once the request in flight is answered and recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.restart();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const waitMs = await this.runOnce();
      if (!this.stopped) await this.pause(waitMs);
    }
  }

  /** One attempt at watching; how long to wait before the next (undefined: until restart). */
  private async runOnce(): Promise<number | undefined> {
    const connection = await this.app.connection({}).catch(() => undefined);
    if (connection?.state !== 'logged-in') {
      this.options.onState({ kind: 'not-connected' });
      return undefined;
    }
    if (this.stopped) return 0;
    this.restarted = false;
    const controller = (this.current = new AbortController());
    try {
      await this.app.watch({
        signal: controller.signal,
        onLocked: () => this.options.onState({ kind: 'watching' }),
      });
      // The watcher returns only once aborted: by stop(), or by restart() to look again.
      return 0;
    } catch (error) {
      return this.failed(error);
    } finally {
      this.current = undefined;
    }
  }

  private failed(error: unknown): number | undefined {
    const kind = error instanceof CommandFailedError ? error.error : undefined;
    switch (kind?.kind) {
      case 'busy':
        this.options.onState({ kind: 'other-process', runner: kind.runner });
        return this.options.lockRetryMs ?? 15_000;
      case 'not-logged-in':
      case 'logged-out':
        this.options.onState({ kind: 'not-connected' });
        return undefined;
      case 'token-rejected':
        this.options.onState({
          kind: 'stopped',
          message: 'the server rejected the token: sign in again',
        });
        return undefined;
      default:
        this.options.onState({
          kind: 'stopped',
          message: kind?.message ?? (error instanceof Error ? error.message : String(error)),
        });
        return this.options.failureRetryMs ?? 60_000;
    }
  }

  /** Waits `ms` (forever when undefined), or less when restarted or stopped. */
  private pause(ms: number | undefined): Promise<void> {
    if (ms === 0 || this.restarted) {
      this.restarted = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      if (ms !== undefined) timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
