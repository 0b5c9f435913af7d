import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('throttle', () => {
  it('runs the first call at once and folds a burst into one trailing run', () => {
    const run = vi.fn();
    const throttled = throttle(run, 250);
    throttled();
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 40; i += 1) throttled();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(249);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    throttled();
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('drops the pending run when cancelled (the screen went away)', () => {
    const run = vi.fn();
    const throttled = throttle(run, 250);
    throttled();
    throttled();
    throttled.cancel();
    vi.advanceTimersByTime(1_000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
