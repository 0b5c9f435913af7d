import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  classifyAddress,
  FetchFailedError,
  FetchLimitError,
  nodeTransport,
  safeFetch,
  UnsafeUrlError,
  type HostLookup,
  type ResolvedAddress,
  type SafeFetchOptions,
  type Transport,
} from './safe-url-fetch';

/**
 * Every test injects its lookup and wraps the transport: no real DNS query is made, and the
 * transport refuses (and the test fails) if it is ever asked to connect to a non-loopback address.
 */
function guardedTransport() {
  const calls: Array<{ url: string; addresses: readonly ResolvedAddress[] }> = [];
  const transport: Transport = (request) => {
    calls.push({ url: request.url.href, addresses: request.addresses });
    if (!request.addresses.every(({ address }) => address.startsWith('127.'))) {
      throw new Error(`test transport asked to connect to ${JSON.stringify(request.addresses)}`);
    }
    return nodeTransport(request);
  };
  return { transport, calls };
}

function fakeDns(table: Record<string, string[]>) {
  const lookup = vi.fn<HostLookup>(async (hostname) => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({
      address,
      family: address.includes(':') ? (6 as const) : (4 as const),
    }));
  });
  return lookup;
}

async function refusal(url: string, options: SafeFetchOptions = {}) {
  const { transport, calls } = guardedTransport();
  const lookup = options.lookup ?? fakeDns({});
  const error = await safeFetch(url, { ...options, lookup, transport }).catch(
    (caught: unknown) => caught,
  );
  return { error, calls, lookup };
}

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['::127.0.0.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['0177.0.0.1', 'reserved'],
    ['2130706433', 'reserved'],
    ['not-an-ip', 'reserved'],
  ])('%s is %s', (address, range) => {
    expect(classifyAddress(address)).toBe(range);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBeNull();
  });
});

describe('safeFetch refusals (nothing is connected to)', () => {
  it('relies on the WHATWG URL parser to normalise numeric host forms', () => {
    for (const odd of [
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://0x7f.1/',
      'http://127.1/',
      'http://0x7f000001/',
      'http://127.0.0.1./',
    ]) {
      expect(new URL(odd).hostname).toBe('127.0.0.1');
    }
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
  });

  it.each([
    ['http://127.0.0.1/', 'url resolves to a loopback address (127.0.0.1)'],
    ['http://[::1]/', 'url resolves to a loopback address (::1)'],
    ['http://10.0.0.1/', 'url resolves to a private address (10.0.0.1)'],
    [
      'http://169.254.169.254/latest/meta-data',
      'url resolves to a link-local address (169.254.169.254)',
    ],
    ['http://2130706433/', 'url resolves to a loopback address (127.0.0.1)'],
    ['http://0177.0.0.1/', 'url resolves to a loopback address (127.0.0.1)'],
    ['http://0x7f.1/', 'url resolves to a loopback address (127.0.0.1)'],
    ['http://127.1/', 'url resolves to a loopback address (127.0.0.1)'],
    ['http://[::ffff:127.0.0.1]/', 'url resolves to a loopback address (::ffff:7f00:1)'],
    ['http://0.0.0.0:8080/', 'url resolves to an unspecified address (0.0.0.0)'],
    ['http://[::]/', 'url resolves to an unspecified address (::)'],
    ['http://100.64.1.1/', 'url resolves to a carrier-grade NAT address (100.64.1.1)'],
    ['http://[fd00::1]/', 'url resolves to a private address (fd00::1)'],
    ['http://[fe80::1]/', 'url resolves to a link-local address (fe80::1)'],
    ['https://192.168.0.1/admin', 'url resolves to a private address (192.168.0.1)'],
    ['http://localhost/', 'url resolves to a loopback address (localhost)'],
    ['http://LOCALHOST./', 'url resolves to a loopback address (localhost)'],
    ['http://api.localhost:3000/', 'url resolves to a loopback address (api.localhost)'],
  ])('%s', async (url, message) => {
    const { error, calls, lookup } = await refusal(url);
    expect(error).toBeInstanceOf(UnsafeUrlError);
    expect((error as UnsafeUrlError).message).toBe(message);
    expect((error as UnsafeUrlError).reason).toBe('address');
    expect(calls).toEqual([]);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses a hostname that resolves to loopback, or to any private address among public ones', async () => {
    const lookup = fakeDns({
      'evil.test': ['127.0.0.1'],
      'mixed.test': ['93.184.216.34', '10.1.2.3'],
    });
    const evil = await refusal('http://evil.test/', { lookup });
    expect(evil.error).toBeInstanceOf(UnsafeUrlError);
    expect((evil.error as Error).message).toBe('url resolves to a loopback address (127.0.0.1)');
    expect(evil.calls).toEqual([]);
    const mixed = await refusal('https://mixed.test/x', { lookup });
    expect((mixed.error as Error).message).toBe('url resolves to a private address (10.1.2.3)');
    expect(mixed.calls).toEqual([]);
  });

  it.each([
    ['file:///etc/passwd', 'scheme', 'url must use http or https (file:///etc/passwd)'],
    ['ftp://example.com/x', 'scheme', 'url must use http or https (ftp://example.com/x)'],
    ['javascript:alert(1)', 'scheme', 'url must use http or https (javascript:alert(1))'],
    [
      'gopher://127.0.0.1:6379/_INFO',
      'scheme',
      'url must use http or https (gopher://127.0.0.1:6379/_INFO)',
    ],
    ['not a url', 'invalid-url', 'url is not a valid URL (not a url)'],
    ['http://user:pass@example.com/', 'credentials', 'url must not contain credentials'],
  ])('refuses %s', async (url, reason, message) => {
    const { error, calls, lookup } = await refusal(url);
    expect(error).toBeInstanceOf(UnsafeUrlError);
    expect(error).toMatchObject({ reason, message });
    expect(calls).toEqual([]);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('reports an unresolvable host as a fetch failure', async () => {
    const { error, calls } = await refusal('https://nowhere.test/');
    expect(error).toBeInstanceOf(FetchFailedError);
    expect((error as Error).message).toBe('could not fetch https://nowhere.test/: ENOTFOUND');
    expect(calls).toEqual([]);
  });

  it('counts a hanging DNS lookup against the deadline', async () => {
    const { error, calls } = await refusal('https://slow-dns.test/', {
      lookup: () => new Promise(() => undefined),
      timeoutMs: 100,
    });
    expect(error).toBeInstanceOf(FetchLimitError);
    expect(error).toMatchObject({ limit: 'timeout', message: 'url did not respond within 100 ms' });
    expect(calls).toEqual([]);
  });
});

describe('safeFetch against a local server', () => {
  let server: http.Server;
  let port = 0;
  const seen: Array<{ path: string; host?: string }> = [];
  let hugeStreamClosedEarly: Promise<boolean> = Promise.resolve(false);

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const path = request.url ?? '/';
      seen.push({ path, host: request.headers.host });
      if (path === '/ok') {
        response.writeHead(200, { 'content-type': 'text/markdown' }).end('# Imported\n');
      } else if (path === '/to-loopback') {
        response.writeHead(302, { location: `http://127.0.0.1:${port}/ok` }).end();
      } else if (path === '/to-metadata') {
        response.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      } else if (path === '/to-file') {
        response.writeHead(302, { location: 'file:///etc/passwd' }).end();
      } else if (path === '/relative') {
        response.writeHead(307, { location: '/ok' }).end();
      } else if (path.startsWith('/loop')) {
        const n = Number(path.slice('/loop'.length) || '0');
        response.writeHead(302, { location: `/loop${n + 1}` }).end();
      } else if (path === '/slow') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('partial');
        const timer = setTimeout(() => response.end('late'), 3000);
        response.on('close', () => clearTimeout(timer));
      } else if (path === '/huge') {
        // Streams 64 KiB chunks until the client goes away (or 50 MiB, whichever is first).
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 120);
        let sent = 0;
        hugeStreamClosedEarly = new Promise((resolve) => {
          response.on('close', () => resolve(sent < 50 * 1024 * 1024));
        });
        const pump = () => {
          while (sent < 50 * 1024 * 1024) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          response.end();
        };
        pump();
      } else if (path === '/declared-huge') {
        response.writeHead(200, { 'content-length': String(1024 * 1024 * 1024) });
        response.write('tiny');
      } else {
        response.writeHead(404).end('missing');
      }
    });
    // Bound to 127.0.0.2 so that 127.0.0.1 stays an address the tests can prove is refused.
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** `public.test` → the server; only 127.0.0.2 is marked as acceptable, 127.0.0.1 is not. */
  const asPublic = (extra: SafeFetchOptions = {}) => {
    const { transport, calls } = guardedTransport();
    const lookup = fakeDns({ 'public.test': ['127.0.0.2'], 'rebind.test': ['127.0.0.2'] });
    return {
      calls,
      lookup,
      options: { transport, lookup, allowedAddresses: ['127.0.0.2'], ...extra },
    };
  };

  it('fetches through a hostname, connecting to the vetted address with the real Host header', async () => {
    const { calls, lookup, options } = asPublic();
    // rebind.test resolves nowhere on the real network: success proves the pinned address was used.
    const result = await safeFetch(`http://rebind.test:${port}/ok`, options);
    expect(result).toMatchObject({
      status: 200,
      url: `http://rebind.test:${port}/ok`,
      contentType: 'text/markdown',
      redirects: [],
    });
    expect(result.body.toString()).toBe('# Imported\n');
    expect(calls).toHaveLength(1);
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(seen.at(-1)).toEqual({ path: '/ok', host: `rebind.test:${port}` });
  });

  it('refuses a redirect to loopback before connecting to it', async () => {
    const { calls, options } = asPublic();
    const before = seen.length;
    const error = await safeFetch(`http://public.test:${port}/to-loopback`, options).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UnsafeUrlError);
    expect(error).toMatchObject({
      message: 'url resolves to a loopback address (127.0.0.1)',
      url: `http://127.0.0.1:${port}/ok`,
    });
    expect(calls.map((call) => call.url)).toEqual([`http://public.test:${port}/to-loopback`]);
    expect(seen.slice(before).map((entry) => entry.path)).toEqual(['/to-loopback']);
  });

  it('refuses redirects to the metadata address and to other schemes', async () => {
    const metadata = asPublic();
    await expect(
      safeFetch(`http://public.test:${port}/to-metadata`, metadata.options),
    ).rejects.toThrow('url resolves to a link-local address (169.254.169.254)');
    expect(metadata.calls).toHaveLength(1);
    const file = asPublic();
    await expect(safeFetch(`http://public.test:${port}/to-file`, file.options)).rejects.toThrow(
      'url redirects to a file URL (file:///etc/passwd)',
    );
    expect(file.calls).toHaveLength(1);
  });

  it('refuses the local server itself unless allowPrivate is set', async () => {
    const { transport, calls } = guardedTransport();
    await expect(safeFetch(`http://127.0.0.2:${port}/ok`, { transport })).rejects.toThrow(
      'url resolves to a loopback address (127.0.0.2)',
    );
    expect(calls).toEqual([]);
    const result = await safeFetch(`http://127.0.0.2:${port}/ok`, {
      transport,
      allowPrivate: true,
    });
    expect(result.status).toBe(200);
    expect(result.body.toString()).toBe('# Imported\n');
  });

  it('follows relative redirects, re-vetting each hop', async () => {
    const { calls, lookup, options } = asPublic();
    const result = await safeFetch(`http://public.test:${port}/relative`, options);
    expect(result).toMatchObject({
      status: 200,
      url: `http://public.test:${port}/ok`,
      redirects: [`http://public.test:${port}/relative`],
    });
    expect(calls).toHaveLength(2);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('stops after maxRedirects', async () => {
    const { calls, options } = asPublic({ maxRedirects: 3 });
    const error = await safeFetch(`http://public.test:${port}/loop`, options).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FetchLimitError);
    expect(error).toMatchObject({
      limit: 'redirects',
      message: 'url redirected more than 3 times',
    });
    expect(calls).toHaveLength(4);
  });

  it('returns non-2xx responses for the caller to judge', async () => {
    const { options } = asPublic();
    const result = await safeFetch(`http://public.test:${port}/missing`, options);
    expect(result.status).toBe(404);
    expect(result.body.toString()).toBe('missing');
  });

  it('times out a slow response', async () => {
    const { options } = asPublic({ timeoutMs: 200 });
    const started = Date.now();
    const error = await safeFetch(`http://public.test:${port}/slow`, options).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FetchLimitError);
    expect(error).toMatchObject({ limit: 'timeout', message: 'url did not respond within 200 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('aborts a body past maxBytes while streaming, and refuses a declared oversize body up front', async () => {
    const { options } = asPublic({ maxBytes: 100_000 });
    const error = await safeFetch(`http://public.test:${port}/huge`, options).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FetchLimitError);
    expect(error).toMatchObject({
      limit: 'size',
      message: 'response is larger than the 100000-byte limit',
    });
    // The connection was dropped long before the server finished its 50 MiB.
    expect(await hugeStreamClosedEarly).toBe(true);

    const declared = await safeFetch(`http://public.test:${port}/declared-huge`, options).catch(
      (caught: unknown) => caught,
    );
    expect(declared).toMatchObject({ limit: 'size' });
  });

  it('honours a caller abort signal', async () => {
    const { options } = asPublic();
    const controller = new AbortController();
    const pending = safeFetch(`http://public.test:${port}/slow`, {
      ...options,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow('the fetch was cancelled');
  });
});
