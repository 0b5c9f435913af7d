import type { Clock } from '../clock';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds at which the current window resets. */
  resetAt: number;
  /** Seconds to wait before retrying, when refused. */
  retryAfter: number;
}

/**
 * Fixed-window request counter per key (a token's hash, or the client address when there is no
 * valid token). Windows are aligned to the clock so `X-RateLimit-Reset` is the same for everyone.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();
  /** The window of the last sweep: sweeping again within it would find nothing to drop. */
  private sweptWindow = Number.NaN;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  take(key: string): RateDecision {
    const now = this.clock.now().getTime();
    const start = now - (now % this.windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, used: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 10_000 && this.sweptWindow !== start) this.evict(start);
    }
    const resetMs = start + this.windowMs;
    const allowed = window.used < this.max;
    if (allowed) window.used++;
    return {
      allowed,
      limit: this.max,
      remaining: Math.max(0, this.max - window.used),
      resetAt: Math.ceil(resetMs / 1000),
      retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }

  private evict(currentStart: number): void {
    this.sweptWindow = currentStart;
    for (const [key, window] of this.windows)
      if (window.start !== currentStart) this.windows.delete(key);
  }
}
