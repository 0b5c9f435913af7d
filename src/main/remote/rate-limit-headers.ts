/**
 * Reading what a server says about pacing and retries. Kept by hand: these are one-line parsers of
 * two headers and a formula, and no maintained library covers `X-RateLimit-Reset`'s two forms.
 */

/** Full-jitter exponential backoff for attempt `attempt` (1 = the first retry). */
export function backoffDelay(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number,
): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** (attempt - 1)));
}

/** `Retry-After` as milliseconds from `now`: delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * `X-RateLimit-Reset` as epoch milliseconds. GitBook sends epoch seconds; a value too small to be
 * one (before 2001) is read as seconds from now, as some servers send.
 */
export function parseRateLimitReset(value: string | null, now: number): number | undefined {
  if (value === null || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  const seconds = Number(value.trim());
  return seconds < 1e9 ? now + seconds * 1000 : seconds * 1000;
}

/** The URL without its query: download URLs carry signatures that have no place in logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
