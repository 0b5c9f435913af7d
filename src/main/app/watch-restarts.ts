/**
 * Restarts of this process's background sync for settings it takes when it starts (subject,
 * interval, ignore patterns: `reopen()`), and pauses of it around a task that must run with no
 * sync going (a folder move: `whileStopped()`). `run` loops one watch after another until the
 * caller's signal ends it or a watch ends on its own.
 */
export class WatchRestarts {
  private reopenCurrent: (() => void) | undefined;
  /** A task waiting for the watch to stop; the loop waits for `resumed` before going on. */
  private hold: { stopped: () => void; resumed: Promise<void> } | undefined;

  /** Whether a watch of this process is running now. */
  get watching(): boolean {
    return this.reopenCurrent !== undefined;
  }

  /** Ends the current watch after its request in flight; `run` starts the next one. */
  reopen(): void {
    this.reopenCurrent?.();
  }

  /**
   * Runs `watchOnce` again each time it was reopened, calling `betweenRuns` (close what the next
   * run reopens with new settings) in between; returns the last run's result.
   */
  async run<T>(
    signal: AbortSignal,
    watchOnce: (signal: AbortSignal) => Promise<T>,
    betweenRuns: () => Promise<void>,
  ): Promise<T> {
    for (;;) {
      const reopen = new AbortController();
      this.reopenCurrent = () => reopen.abort();
      let result: T;
      try {
        result = await watchOnce(AbortSignal.any([signal, reopen.signal]));
      } catch (error) {
        this.hold?.stopped();
        throw error;
      } finally {
        this.reopenCurrent = undefined;
      }
      if (!reopen.signal.aborted) return result;
      await betweenRuns();
      const hold = this.hold;
      hold?.stopped();
      if (signal.aborted) return result;
      if (hold !== undefined) await hold.resumed;
    }
  }

  /** Runs `task` with the watch stopped (at once when none runs), then lets it go on. */
  async whileStopped<T>(task: () => Promise<T>): Promise<T> {
    const reopen = this.reopenCurrent;
    if (reopen === undefined || this.hold !== undefined) return task();
    let resume = () => {};
    let stopped = () => {};
    const hasStopped = new Promise<void>((resolve) => (stopped = resolve));
    this.hold = { stopped, resumed: new Promise<void>((resolve) => (resume = resolve)) };
    reopen();
    await hasStopped;
    try {
      return await task();
    } finally {
      this.hold = undefined;
      resume();
    }
  }
}
