/**
 * Watches space folders and says, per space, which paths changed: a debounced batch after a burst
 * of writes settles. It only says *when* to look; what changed is decided by a scan against the
 * file index (scanSpaceFolder), which also covers edits made while nothing was watching.
 *
 * chokidar 4 underneath: `awaitWriteFinish` waits until a file's size has been stable for a moment
 * (an editor or a copy still writing), `atomic` (its default with native events) turns an editor's
 * write-temp-then-rename save into one change, symbolic links are not followed, and the ignore
 * rules keep swap files, hidden folders and the mirror's own temp files out before they are even
 * stat'ed.
 */
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { createIgnoreRules, type IgnoreRule } from './ignore-rules';

export interface WatchBatch {
  spaceId: string;
  /** The space folder (absolute). */
  root: string;
  /** Paths relative to the space folder, '/'-separated, sorted; '' is the folder itself. */
  paths: string[];
}

export interface WatcherTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export interface FolderWatcherOptions {
  onBatch: (batch: WatchBatch) => void;
  onError?: (spaceId: string, error: Error) => void;
  /** Default: the built-in rules (createIgnoreRules()). */
  ignore?: IgnoreRule;
  /** Quiet time after the last event before a batch is emitted. Default 300 ms. */
  debounceMs?: number;
  /** A batch is emitted at the latest this long after its first event, even if writes go on. */
  maxWaitMs?: number;
  /** How long a file's size must stay the same before its write counts as finished. Default 200 ms. */
  stabilityThresholdMs?: number;
  /** Polling, for network file systems where native events do not arrive. */
  usePolling?: boolean;
  /** Injectable for tests. */
  timers?: WatcherTimers;
}

export const DEFAULT_DEBOUNCE_MS = 300;
export const DEFAULT_MAX_WAIT_MS = 3_000;
export const DEFAULT_STABILITY_THRESHOLD_MS = 200;

const realTimers: WatcherTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

/**
 * Collects keys into sets per group and hands each set over once no key arrived for `delayMs`
 * (or `maxWaitMs` after its first key).
 */
export class BatchDebouncer {
  private readonly pending = new Map<
    string,
    { keys: Set<string>; firstAt: number; handle: unknown }
  >();

  constructor(
    private readonly options: {
      delayMs: number;
      maxWaitMs: number;
      timers: WatcherTimers;
      flush: (group: string, keys: string[]) => void;
    },
  ) {}

  add(group: string, key: string): void {
    const { timers, delayMs, maxWaitMs } = this.options;
    const now = timers.now();
    let entry = this.pending.get(group);
    if (entry === undefined) {
      entry = { keys: new Set(), firstAt: now, handle: undefined };
      this.pending.set(group, entry);
    } else {
      timers.clearTimeout(entry.handle);
    }
    entry.keys.add(key);
    const delay = Math.max(0, Math.min(delayMs, entry.firstAt + maxWaitMs - now));
    entry.handle = timers.setTimeout(() => this.flush(group), delay);
  }

  /** Emits a group's batch now (if it has one). */
  flush(group: string): void {
    const entry = this.pending.get(group);
    if (entry === undefined) return;
    this.options.timers.clearTimeout(entry.handle);
    this.pending.delete(group);
    this.options.flush(group, [...entry.keys].sort());
  }

  /** Forgets a group's pending keys without emitting them. */
  cancel(group: string): void {
    const entry = this.pending.get(group);
    if (entry === undefined) return;
    this.options.timers.clearTimeout(entry.handle);
    this.pending.delete(group);
  }

  groups(): string[] {
    return [...this.pending.keys()];
  }
}

export class FolderWatcher {
  private readonly watchers = new Map<string, { root: string; watcher: FSWatcher }>();
  private readonly debouncer: BatchDebouncer;
  private readonly ignore: IgnoreRule;
  private closed = false;

  constructor(private readonly options: FolderWatcherOptions) {
    this.ignore = options.ignore ?? createIgnoreRules();
    this.debouncer = new BatchDebouncer({
      delayMs: options.debounceMs ?? DEFAULT_DEBOUNCE_MS,
      maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
      timers: options.timers ?? realTimers,
      flush: (spaceId, paths) => {
        const watched = this.watchers.get(spaceId);
        if (watched !== undefined) options.onBatch({ spaceId, root: watched.root, paths });
      },
    });
  }

  /** Starts watching a space folder; resolves once the initial listing is done. */
  async watchSpace(spaceId: string, root: string, ignore: IgnoreRule = this.ignore): Promise<void> {
    if (this.closed) throw new Error('The folder watcher is closed');
    if (!path.isAbsolute(root)) throw new TypeError(`The space folder must be absolute: ${root}`);
    await this.unwatchSpace(spaceId);
    const spaceRoot = path.resolve(root);
    const relativeOf = (target: string): string | undefined => {
      const relative = path.relative(spaceRoot, path.resolve(spaceRoot, target));
      if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
      return relative.split(path.sep).join('/');
    };
    const watcher = watch(spaceRoot, {
      ignoreInitial: true,
      followSymlinks: false,
      persistent: true,
      ...(this.options.usePolling ? { usePolling: true } : {}),
      awaitWriteFinish: {
        stabilityThreshold: this.options.stabilityThresholdMs ?? DEFAULT_STABILITY_THRESHOLD_MS,
        pollInterval: 50,
      },
      ignored: (target, stats) => {
        const relative = relativeOf(target);
        if (relative === undefined || relative === '') return false;
        return ignore(relative, stats === undefined ? undefined : stats.isDirectory());
      },
    });
    this.watchers.set(spaceId, { root: spaceRoot, watcher });
    watcher.on('all', (event, target) => {
      const relative = relativeOf(target);
      if (relative === undefined) return;
      const isDirectory = event === 'addDir' || event === 'unlinkDir';
      if (relative !== '' && ignore(relative, isDirectory)) return;
      this.debouncer.add(spaceId, relative);
    });
    watcher.on('error', (error) => {
      this.options.onError?.(spaceId, error instanceof Error ? error : new Error(String(error)));
    });
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  /** Stops watching a space; its pending batch is dropped (a later scan finds those changes). */
  async unwatchSpace(spaceId: string): Promise<void> {
    const watched = this.watchers.get(spaceId);
    if (watched === undefined) return;
    this.debouncer.cancel(spaceId);
    this.watchers.delete(spaceId);
    await watched.watcher.close();
  }

  /** Emits every pending batch now. */
  flush(): void {
    for (const spaceId of this.debouncer.groups()) this.debouncer.flush(spaceId);
  }

  watchedSpaces(): string[] {
    return [...this.watchers.keys()];
  }

  /** Stops every watcher; pending batches are dropped. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.watchers.keys()].map((spaceId) => this.unwatchSpace(spaceId)));
  }
}
