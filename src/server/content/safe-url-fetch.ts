/**
 * Fetches a user-supplied URL for content import without letting it reach the server's own
 * network (SSRF): only http(s); every hop's host is resolved once, every address is vetted, and
 * the connection is made to exactly the vetted addresses; redirects are followed by hand and
 * re-vetted; one deadline covers the whole fetch and the body is capped while it streams.
 *
 * Why node:http(s) with a pinned `lookup` rather than fetch(): Node's fetch cannot be told which
 * address to connect to without the undici package (not a dependency), so a name could resolve to
 * a public address when vetted and to 127.0.0.1 when connecting (DNS rebinding). http.request's
 * `lookup` option replaces the resolution of that one request: it hands back the addresses we
 * vetted, while the Host header and TLS SNI/certificate checks still use the real hostname.
 * `agent: false` gives each request its own socket, so a keep-alive socket opened for another
 * fetch (perhaps one allowed to reach private addresses) is never reused.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { classifyAddress } from './address-range';

// --- errors ----------------------------------------------------------------------------------

/** Base of every safeFetch error; the messages are written for a 400 response. */
export class SafeFetchError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}

export type UnsafeUrlReason = 'invalid-url' | 'scheme' | 'credentials' | 'address';

/** The URL (or a redirect target) is refused before any connection is made. */
export class UnsafeUrlError extends SafeFetchError {
  constructor(
    message: string,
    url: string,
    readonly reason: UnsafeUrlReason,
    /** The refused address, for `address`. */
    readonly address?: string,
  ) {
    super(message, url);
    this.name = 'UnsafeUrlError';
  }
}

export type FetchLimit = 'timeout' | 'size' | 'redirects';

/** A limit was hit: the deadline, the byte cap or the redirect count. */
export class FetchLimitError extends SafeFetchError {
  constructor(
    message: string,
    url: string,
    readonly limit: FetchLimit,
  ) {
    super(message, url);
    this.name = 'FetchLimitError';
  }
}

/** The host did not resolve, or the connection or response failed. */
export class FetchFailedError extends SafeFetchError {
  constructor(message: string, url: string, options?: { cause?: unknown }) {
    super(message, url);
    this.name = 'FetchFailedError';
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

export { classifyAddress, type AddressRange } from './address-range';

// --- fetching --------------------------------------------------------------------------------

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to all its addresses (default: the system resolver via dns.lookup). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface HopRequest {
  url: URL;
  /** The vetted addresses to connect to — never resolve `url.hostname` again. */
  addresses: readonly ResolvedAddress[];
  headers: Record<string, string>;
  signal: AbortSignal;
  /** GET unless a POST's body is sent (Git's upload-pack). */
  method?: 'GET' | 'POST';
  body?: Uint8Array;
}

export interface HopResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** Performs one request to vetted addresses (default: node:http/https with a pinned lookup). */
export type Transport = (request: HopRequest) => Promise<HopResponse>;

export interface SafeFetchOptions {
  /** Allow loopback/private/link-local/… addresses (local development, trusted operators). */
  allowPrivate?: boolean;
  /** Deadline for the whole fetch — DNS, every hop and the body. Default 10 s. */
  timeoutMs?: number;
  /** Largest body accepted. Default 10 MiB. */
  maxBytes?: number;
  /** Redirects followed before giving up. Default 5. */
  maxRedirects?: number;
  /**
   * Exact addresses accepted although they fall in a refused range (an operator-approved internal
   * mirror, or a test server). Every other address is still vetted.
   */
  allowedAddresses?: readonly string[];
  lookup?: HostLookup;
  transport?: Transport;
  signal?: AbortSignal;
  accept?: string;
  userAgent?: string;
  /**
   * A POST with this body (bounded by `maxRequestBytes`, default 1 MiB). A 301/302/303 turns it
   * into a GET without the body, as fetch() does; 307/308 repeat it to the (re-vetted) target.
   */
  method?: 'GET' | 'POST';
  body?: Uint8Array;
  maxRequestBytes?: number;
  /** More request headers; `authorization` is dropped when a redirect leaves the origin. */
  headers?: Record<string, string>;
}

export interface SafeFetchResult {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  contentType?: string;
  body: Buffer;
  /** Every URL that redirected, in order. */
  redirects: string[];
}

const DEFAULTS = { timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 5 };
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export const defaultLookup: HostLookup = async (hostname) => {
  const results = await dnsLookup(hostname, { all: true, verbatim: true });
  return results.map((result) => ({
    address: result.address,
    family: result.family === 6 ? 6 : 4,
  }));
};

/** One GET over node:http(s), connecting only to the vetted addresses (see the module comment). */
export const nodeTransport: Transport = (hop) =>
  new Promise((resolve, reject) => {
    const { url, addresses, headers, signal } = hop;
    const pinned: LookupFunction = (_hostname, options, callback) => {
      const usable = addresses.filter(
        (entry) => !options.family || entry.family === options.family,
      );
      const chosen = usable.length > 0 ? usable : addresses;
      const first = chosen[0];
      if (!first) {
        callback(new Error('no vetted address'), '', 4);
      } else if (options.all) {
        callback(
          null,
          chosen.map((entry) => ({ address: entry.address, family: entry.family })),
        );
      } else {
        callback(null, first.address, first.family);
      }
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: hop.method ?? 'GET',
      headers,
      lookup: pinned,
      signal,
      agent: false,
    });
    request.once('response', (response) => {
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: response });
    });
    request.once('error', reject);
    request.end(hop.body);
  });

/**
 * GETs `input` under the SSRF rules in the module comment. Non-2xx final responses are returned,
 * not thrown (the caller decides); refusals, limits and network failures throw SafeFetchErrors.
 */
export async function safeFetch(
  input: string,
  options: SafeFetchOptions = {},
): Promise<SafeFetchResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const lookup = options.lookup ?? defaultLookup;
  const transport = options.transport ?? nodeTransport;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const headers: Record<string, string> = {
    accept: options.accept ?? '*/*',
    'user-agent': options.userAgent ?? 'Quire-Import/1.0',
    ...options.headers,
  };
  let method = options.method ?? 'GET';
  let body = method === 'POST' ? options.body : undefined;
  const maxRequestBytes = options.maxRequestBytes ?? 1024 * 1024;
  if (body && body.byteLength > maxRequestBytes) {
    throw new FetchLimitError(
      `request body is larger than the ${maxRequestBytes}-byte limit`,
      input,
      'size',
    );
  }

  const redirects: string[] = [];
  let url = parseTarget(input, input);
  const fail = (error: unknown, at: string): never => {
    if (error instanceof SafeFetchError) throw error;
    if (deadline.aborted)
      throw new FetchLimitError(`url did not respond within ${timeoutMs} ms`, at, 'timeout');
    if (signal.aborted) throw new FetchFailedError('the fetch was cancelled', at, { cause: error });
    const code = (error as { code?: string }).code;
    const detail = code ?? (error as Error).message ?? String(error);
    throw new FetchFailedError(`could not fetch ${at}: ${detail}`, at, { cause: error });
  };

  for (;;) {
    const at = url.href;
    let response: HopResponse;
    try {
      const addresses = await abortable(vet(url, options, lookup), signal);
      const hop: HopRequest = {
        url,
        addresses,
        headers,
        signal,
        method,
        ...(body ? { body } : {}),
      };
      response = await abortable(transport(hop), signal);
    } catch (error) {
      return fail(error, at);
    }

    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(response.status) && location) {
      response.body.destroy();
      if (redirects.length >= maxRedirects) {
        throw new FetchLimitError(
          `url redirected more than ${maxRedirects} times`,
          at,
          'redirects',
        );
      }
      redirects.push(at);
      const from = url;
      url = parseTarget(location, at, url);
      if (url.origin !== from.origin) delete headers.authorization;
      if (response.status === 303 || (method === 'POST' && response.status < 303)) {
        method = 'GET';
        body = undefined;
      }
      continue;
    }

    try {
      // abortable: a transport that ignores the signal must not stall past the deadline.
      const body = await abortable(readCapped(response, maxBytes, at), signal);
      return {
        url: at,
        status: response.status,
        headers: flattenHeaders(response.headers),
        ...(typeof response.headers['content-type'] === 'string'
          ? { contentType: response.headers['content-type'] }
          : {}),
        body,
        redirects,
      };
    } catch (error) {
      response.body.destroy();
      return fail(error, at);
    }
  }
}

function parseTarget(target: string, reported: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    throw new UnsafeUrlError(
      `url is not a valid URL (${truncate(target)})`,
      reported,
      'invalid-url',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const what = base
      ? `url redirects to a ${url.protocol.slice(0, -1)} URL`
      : 'url must use http or https';
    throw new UnsafeUrlError(`${what} (${truncate(url.href)})`, reported, 'scheme');
  }
  if (url.username || url.password) {
    throw new UnsafeUrlError('url must not contain credentials', reported, 'credentials');
  }
  return url;
}

/** Resolves the hop's host and refuses it unless every address is public (or explicitly allowed). */
async function vet(
  url: URL,
  options: SafeFetchOptions,
  lookup: HostLookup,
): Promise<ResolvedAddress[]> {
  // The WHATWG parser already turned 2130706433, 0177.0.0.1, 0x7f.1 and 127.1 into 127.0.0.1.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const literal = isIP(host);
  if (!options.allowPrivate && !literal && (host === 'localhost' || host.endsWith('.localhost'))) {
    // RFC 6761: localhost names are loopback whatever a resolver says; refuse without asking.
    throw new UnsafeUrlError(
      `url resolves to a loopback address (${host})`,
      url.href,
      'address',
      host,
    );
  }
  const addresses: ResolvedAddress[] = literal
    ? [{ address: host, family: literal === 6 ? 6 : 4 }]
    : await lookup(host);
  if (addresses.length === 0) throw new FetchFailedError(`could not resolve ${host}`, url.href);
  if (options.allowPrivate) return addresses;
  const allowed = new Set(options.allowedAddresses ?? []);
  for (const { address } of addresses) {
    if (allowed.has(address)) continue;
    const range = classifyAddress(address);
    if (range) {
      const article = /^[aeiou]/.test(range) ? 'an' : 'a';
      throw new UnsafeUrlError(
        `url resolves to ${article} ${range} address (${address})`,
        url.href,
        'address',
        address,
      );
    }
  }
  return addresses;
}

/** Settles with `promise`, or rejects as soon as `signal` aborts (DNS lookups ignore signals). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

async function readCapped(response: HopResponse, maxBytes: number, at: string): Promise<Buffer> {
  const tooLarge = () =>
    new FetchLimitError(`response is larger than the ${maxBytes}-byte limit`, at, 'size');
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += bytes.length;
    if (total > maxBytes) throw tooLarge();
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function truncate(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}
