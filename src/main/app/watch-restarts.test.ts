import { describe, expect, it } from 'vitest';
import { WatchRestarts } from './watch-restarts';

/** A watch that runs until its signal aborts, counting its starts. */
function fakeWatch() {
  const starts: AbortSignal[] = [];
  const watchOnce = (signal: AbortSignal) => {
    starts.push(signal);
    return new Promise<number>((resolve) =>
      signal.addEventListener('abort', () => resolve(starts.length), { once: true }),
    );
  };
  return { starts, watchOnce };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('WatchRestarts', () => {
  it('starts the watch again on reopen, closing in between, until the caller stops it', async () => {
    const restarts = new WatchRestarts();
    const { starts, watchOnce } = fakeWatch();
    let closed = 0;
    const stop = new AbortController();
    const running = restarts.run(stop.signal, watchOnce, async () => void (closed += 1));
    await tick();
    expect(restarts.watching).toBe(true);
    restarts.reopen();
    await tick();
    expect(starts).toHaveLength(2);
    expect(closed).toBe(1);
    stop.abort();
    expect(await running).toBe(2);
    expect(restarts.watching).toBe(false);
    expect(starts).toHaveLength(2);
  });

  it('runs a task with the watch stopped, then lets it start again', async () => {
    const restarts = new WatchRestarts();
    const { starts, watchOnce } = fakeWatch();
    const stop = new AbortController();
    const running = restarts.run(stop.signal, watchOnce, async () => {});
    await tick();
    const seen = await restarts.whileStopped(async () => {
      expect(restarts.watching).toBe(false);
      return starts.length;
    });
    expect(seen).toBe(1);
    await tick();
    expect(starts).toHaveLength(2);
    stop.abort();
    await running;
  });

  it('runs the task at once when no watch runs, and never leaves it waiting on a failed one', async () => {
    const restarts = new WatchRestarts();
    expect(await restarts.whileStopped(async () => 'now')).toBe('now');
    let fail = () => {};
    const running = restarts.run(
      new AbortController().signal,
      (signal) =>
        new Promise<never>((_resolve, reject) => {
          fail = () => reject(new Error('token rejected'));
          signal.addEventListener('abort', () => fail(), { once: true });
        }),
      async () => {},
    );
    await tick();
    const task = restarts.whileStopped(async () => 'after');
    await expect(running).rejects.toThrow('token rejected');
    expect(await task).toBe('after');
  });
});
