import { randomBytes } from 'node:crypto';

/**
 * JSON made on the worker threads is spliced into a response as text, never parsed and
 * stringified again on the event loop: a page's document can be megabytes. A value holds a
 * marker string where raw JSON goes; the marker carries a per-process nonce, so no stored text
 * can forge one.
 */
const NONCE = randomBytes(9).toString('base64url');
const MARKER = new RegExp(`"\\\\u0001${NONCE}:([^"\\\\]*)\\\\u0001"`, 'g');

/** The placeholder for the raw JSON of `key` (JSON.stringify writes it as `"\u0001…\u0001"`). */
export function rawJsonMarker(key: string): string {
  return `\u0001${NONCE}:${key}\u0001`;
}

/** JSON.stringify(value), with each marker replaced by `raw(key)`. */
export function stringifyWithRawJson(value: unknown, raw: (key: string) => string): string {
  return JSON.stringify(value).replace(MARKER, (_, key: string) => raw(key));
}
