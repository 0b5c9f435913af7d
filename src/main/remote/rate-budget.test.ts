import { describe, expect, it } from 'vitest';
import { RateBudget } from './rate-budget';

const T0 = 1_700_000_000_000;
const RESET_S = T0 / 1000 + 60;

function headers(remaining: number, limit?: number, reset = RESET_S): Headers {
  return new Headers({
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(reset),
    ...(limit !== undefined ? { 'x-ratelimit-limit': String(limit) } : {}),
  });
}

/** Sends `count` requests as fast as the budget lets them, on a fake clock; their send times. */
function drain(budget: RateBudget, count: number, start: number): number[] {
  const times: number[] = [];
  let now = start;
  for (let i = 0; i < count; i++) {
    now += budget.delay(now);
    budget.sent(now);
    times.push(now);
  }
  return times;
}

describe('RateBudget', () => {
  it('sends at once before the server has said anything', () => {
    const budget = new RateBudget();
    expect(drain(budget, 50, T0).every((at) => at === T0)).toBe(true);
  });

  it('bursts while plenty of the window remains', () => {
    const budget = new RateBudget();
    budget.observe(headers(1000, 1200), T0);
    // 1000 remain, low water is 120: the first 880 go at once.
    const times = drain(budget, 880, T0);
    expect(times.every((at) => at === T0)).toBe(true);
    expect(budget.delay(T0)).toBeGreaterThan(0);
  });

  it('paces what is left once low, spreading it over the rest of the window', () => {
    const budget = new RateBudget();
    budget.observe(headers(100, 1200), T0);
    const times = drain(budget, 100, T0);
    // Never past the reset, and spread out: no two sends at the same instant after the first.
    expect(times.at(-1)!).toBeLessThanOrEqual(RESET_S * 1000);
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    // The 101st waits for the reset.
    expect(times.at(-1)! + budget.delay(times.at(-1)!)).toBe(RESET_S * 1000);
  });

  it('waits for the reset when nothing remains, then bursts again', () => {
    const budget = new RateBudget();
    budget.observe(headers(0, 1200), T0);
    expect(budget.delay(T0)).toBe(60_000);
    expect(budget.delay(RESET_S * 1000)).toBe(0);
  });

  it('counts requests sent since the last reading against the budget', () => {
    const budget = new RateBudget();
    budget.observe(headers(3), T0);
    drain(budget, 3, T0);
    expect(budget.delay(T0)).toBe(60_000);
    // A newer reading replaces the estimate.
    budget.observe(headers(2), T0 + 10);
    expect(budget.delay(T0 + 10)).toBe(0);
  });

  it('keeps the lowest count of a window whatever order answers arrive in', () => {
    const budget = new RateBudget();
    budget.observe(headers(0), T0);
    budget.observe(headers(5), T0);
    expect(budget.delay(T0)).toBe(60_000);
  });

  it('ignores answers from a window already over', () => {
    const budget = new RateBudget();
    budget.observe(headers(0, 100, RESET_S + 60), T0 + 61_000);
    budget.observe(headers(50, 100, RESET_S), T0 + 61_000);
    expect(budget.delay(T0 + 61_000)).toBe(59_000);
  });

  it('never waits longer than maxWaitMs for a reset far away', () => {
    const budget = new RateBudget({ maxWaitMs: 5000 });
    budget.observe(headers(0, 100, RESET_S + 86_400), T0);
    expect(budget.delay(T0)).toBe(5000);
    expect(budget.delay(T0 + 5000)).toBe(0);
  });

  it('ignores responses without the headers', () => {
    const budget = new RateBudget();
    budget.observe(new Headers({ 'x-ratelimit-remaining': 'soon' }), T0);
    expect(budget.delay(T0)).toBe(0);
  });
});
