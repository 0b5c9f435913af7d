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

// --- address classification ------------------------------------------------------------------

export type AddressRange =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'carrier-grade NAT'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved';

/** [first address, prefix length, range] — IANA special-purpose registries, RFC 6890 et al. */
const IPV4_RANGES: ReadonlyArray<readonly [string, number, AddressRange]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

function parseIPv4(address: string): number | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  if (octets.some((octet) => octet > 255)) return null;
  return octets.reduce((value, octet) => value * 256 + octet, 0);
}

const IPV4_TABLE = IPV4_RANGES.map(([base, prefix, range]) => ({
  base: parseIPv4(base) ?? 0,
  size: 2 ** (32 - prefix),
  range,
}));

function classifyIPv4(value: number): AddressRange | null {
  for (const { base, size, range } of IPV4_TABLE) {
    if (value >= base && value < base + size) return range;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail is accepted). */
function parseIPv6(input: string): number[] | null {
  let address = input.replace(/^\[|\]$/g, '');
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (tail?.[1]) {
    const v4 = parseIPv4(tail[1]);
    if (v4 === null) return null;
    address = `${address.slice(0, -tail[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return null;
  return groups.map((group) => parseInt(group, 16));
}

function classifyIPv6(groups: readonly number[]): AddressRange | null {
  const g = (i: number) => groups[i] ?? 0;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const embedded = (hi: number, lo: number) => hi * 65536 + lo;
  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g(7) === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d): the connection goes to the IPv4 address.
  if (zeros(0, 5) && g(5) === 0xffff) return classifyIPv4(embedded(g(6), g(7)));
  // IPv4-compatible (::a.b.c.d, deprecated) — never legitimate on the Internet.
  if (zeros(0, 6)) return 'reserved';
  // NAT64 (64:ff9b::a.b.c.d) reaches the embedded IPv4 address; 64:ff9b:1::/48 is local-use.
  if (g(0) === 0x64 && g(1) === 0xff9b && zeros(2, 6)) return classifyIPv4(embedded(g(6), g(7)));
  if (g(0) === 0x64 && g(1) === 0xff9b && g(2) === 1) return 'private';
  if (g(0) === 0x100 && zeros(1, 4)) return 'reserved'; // discard-only 100::/64
  if (g(0) === 0x2001 && g(1) === 0xdb8) return 'documentation';
  if (g(0) === 0x2001 && g(1) < 0x200) return 'reserved'; // IETF protocol assignments, Teredo
  // 6to4 (2002:aabb:ccdd::) tunnels to the embedded IPv4 address.
  if (g(0) === 0x2002) return classifyIPv4(embedded(g(1), g(2)));
  if (g(0) === 0x3fff && g(1) < 0x1000) return 'documentation';
  if ((g(0) & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g(0) & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g(0) & 0xffc0) === 0xfec0) return 'private'; // site-local fec0::/10 (deprecated)
  if ((g(0) & 0xff00) === 0xff00) return 'multicast';
  return null;
}

/**
 * The special-purpose range an IP address falls in, null for a public address. Anything that is
 * not a canonical IPv4 or IPv6 address is 'reserved' (refused): DNS and the WHATWG URL parser
 * only ever produce canonical forms, so an odd form means something is trying to be clever.
 */
export function classifyAddress(address: string): AddressRange | null {
  const v4 = parseIPv4(address);
  if (v4 !== null) return classifyIPv4(v4);
  const v6 = address.includes(':') ? parseIPv6(address) : null;
  if (v6) return classifyIPv6(v6);
  return 'reserved';
}

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
