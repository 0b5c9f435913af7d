import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { RateLimiter } from './rate-limiter';

// 2026-01-01T00:00:00Z, a multiple of every window used here.
const START = Date.parse('2026-01-01T00:00:00.000Z');

describe('RateLimiter', () => {
  it('counts down remaining and refuses once the window is used up', () => {
    const clock = new ManualClock(new Date(START));
    const limiter = new RateLimiter(3, 60_000, clock);
    const decisions = [1, 2, 3, 4, 5].map(() => limiter.take('t:a'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0, 0]);
    for (const decision of decisions) {
      expect(decision.limit).toBe(3);
      expect(decision.resetAt).toBe((START + 60_000) / 1000);
    }
  });

  it('gives retryAfter as the whole seconds left in the window, at least 1', () => {
    const clock = new ManualClock(new Date(START));
    const limiter = new RateLimiter(1, 60_000, clock);
    limiter.take('k');
    expect(limiter.take('k').retryAfter).toBe(60);
    clock.advance(59_500);
    const late = limiter.take('k');
    expect(late.allowed).toBe(false);
    expect(late.retryAfter).toBe(1);
    clock.advance(499);
    expect(limiter.take('k').retryAfter).toBe(1);
  });

  it('rolls over to a fresh window at the boundary', () => {
    const clock = new ManualClock(new Date(START + 10_000));
    const limiter = new RateLimiter(2, 60_000, clock);
    limiter.take('k');
    limiter.take('k');
    expect(limiter.take('k').allowed).toBe(false);
    clock.set(new Date(START + 59_999));
    expect(limiter.take('k').allowed).toBe(false);
    clock.set(new Date(START + 60_000));
    const fresh = limiter.take('k');
    expect(fresh).toMatchObject({ allowed: true, remaining: 1, resetAt: (START + 120_000) / 1000 });
  });

  it('aligns windows to the clock, so a window is shorter when started late', () => {
    const clock = new ManualClock(new Date(START + 45_000));
    const limiter = new RateLimiter(1, 60_000, clock);
    const first = limiter.take('k');
    expect(first.resetAt).toBe((START + 60_000) / 1000);
    expect(limiter.take('k').retryAfter).toBe(15);
  });

  it('keeps separate budgets per key', () => {
    const clock = new ManualClock(new Date(START));
    const limiter = new RateLimiter(1, 1_000, clock);
    expect(limiter.take('t:a').allowed).toBe(true);
    expect(limiter.take('t:a').allowed).toBe(false);
    expect(limiter.take('t:b').allowed).toBe(true);
    expect(limiter.take('ip:127.0.0.1').allowed).toBe(true);
  });

  it('rounds resetAt up for windows that are not whole seconds', () => {
    const clock = new ManualClock(new Date(START));
    const limiter = new RateLimiter(1, 1_500, clock);
    const decision = limiter.take('k');
    expect(decision.resetAt).toBe(Math.ceil((START + 1_500) / 1000));
    clock.advance(1_400);
    expect(limiter.take('k')).toMatchObject({ allowed: false, retryAfter: 1 });
  });

  it('forgets old windows when many keys are seen, and still counts the current ones', () => {
    const clock = new ManualClock(new Date(START));
    const limiter = new RateLimiter(1, 1_000, clock);
    limiter.take('kept');
    for (let i = 0; i < 10_001; i++) limiter.take(`old-${i}`);
    clock.advance(1_000);
    // A new window: the sweep runs and drops the previous window's keys without losing new ones.
    limiter.take('kept');
    for (let i = 0; i < 10_001; i++) limiter.take(`new-${i}`);
    expect(limiter.take('kept').allowed).toBe(false);
    expect(limiter.take('new-5').allowed).toBe(false);
  });
});
