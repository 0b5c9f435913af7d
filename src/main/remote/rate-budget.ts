import { parseRateLimitReset } from './rate-limit-headers';

/**
 * How much of the server's rate-limit window is left, from its `X-RateLimit-*` headers, and how
 * long the next request should wait to stay inside it: no wait while plenty remains (a burst),
 * requests spread evenly over what is left of the window once it runs low, and none at all once
 * it is used up, until the reset. Pure: the caller passes the clock.
 */
export interface RateBudgetOptions {
  /**
   * Below this share of the window's limit (default 0.1), requests are paced instead of sent at
   * once. With no `X-RateLimit-Limit`, pacing starts only when nothing remains.
   */
  lowShare?: number;
  /** A reset further away than this is read as this far (a skewed clock, a bogus header). */
  maxWaitMs?: number;
}

interface Window {
  limit: number | undefined;
  remaining: number;
  /** Epoch ms. */
  resetAt: number;
}

export class RateBudget {
  private window: Window | undefined;
  /** Requests sent since `window.remaining` was read: the server has not counted them for us. */
  private sentSince = 0;
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private readonly lowShare: number;
  private readonly maxWaitMs: number;

  constructor(options: RateBudgetOptions = {}) {
    this.lowShare = options.lowShare ?? 0.1;
    this.maxWaitMs = options.maxWaitMs ?? 5 * 60_000;
  }

  /** Reads a response's headers (any status). Ignores answers from a window already over. */
  observe(headers: Headers, now: number): void {
    const remaining = parseCount(headers.get('x-ratelimit-remaining'));
    const reset = parseRateLimitReset(headers.get('x-ratelimit-reset'), now);
    if (remaining === undefined || reset === undefined) return;
    const resetAt = Math.min(reset, now + this.maxWaitMs);
    const limit = parseCount(headers.get('x-ratelimit-limit'));
    const current = this.window;
    if (current !== undefined && resetAt < current.resetAt) return;
    if (current !== undefined && resetAt === current.resetAt) {
      // Responses to concurrent requests arrive in any order; a window's count only goes down.
      if (remaining >= current.remaining) return;
    }
    this.window = { limit, remaining, resetAt };
    this.sentSince = 0;
  }

  /** Milliseconds the next request should wait (0: send it now). */
  delay(now: number): number {
    const window = this.window;
    // Nothing known, or the window is over: the server will say what the new one holds.
    if (window === undefined || window.resetAt <= now) return 0;
    const available = window.remaining - this.sentSince;
    if (available <= 0) return window.resetAt - now;
    const low = window.limit === undefined ? 0 : Math.ceil(window.limit * this.lowShare);
    if (available > low) return 0;
    const interval = (window.resetAt - now) / available;
    return Math.max(0, Math.ceil(this.lastSentAt + interval - now));
  }

  /** Records a request leaving now. */
  sent(now: number): void {
    this.sentSince++;
    this.lastSentAt = now;
  }
}

function parseCount(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
