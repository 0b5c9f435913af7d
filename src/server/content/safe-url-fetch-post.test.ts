import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FetchLimitError,
  safeFetch,
  type HostLookup,
  type SafeFetchOptions,
} from './safe-url-fetch';

/** A loopback server that answers with what it received; two names lead to it (two origins). */
let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const redirect: Record<string, [number, string]> = {
        '/see-other': [303, '/echo'],
        '/found': [302, '/echo'],
        '/temporary': [307, '/echo'],
        '/elsewhere': [307, `http://other.test:${port}/echo`],
      };
      const target = redirect[path];
      if (target) {
        response.writeHead(target[0], { location: target[1] }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          method: request.method,
          body: Buffer.concat(chunks).toString('utf8'),
          authorization: request.headers.authorization ?? null,
          contentType: request.headers['content-type'] ?? null,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const lookup: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];

async function post(path: string, options: SafeFetchOptions = {}) {
  const result = await safeFetch(`http://git.test:${port}${path}`, {
    lookup,
    allowedAddresses: ['127.0.0.1'],
    method: 'POST',
    body: Buffer.from('0032want abc\n'),
    headers: {
      authorization: 'Basic c2VjcmV0',
      'content-type': 'application/x-git-upload-pack-request',
    },
    ...options,
  });
  return JSON.parse(result.body.toString('utf8')) as {
    method: string;
    body: string;
    authorization: string | null;
    contentType: string | null;
  };
}

describe('safeFetch POST (Git smart HTTP)', () => {
  it('sends the body and the extra headers', async () => {
    expect(await post('/echo')).toEqual({
      method: 'POST',
      body: '0032want abc\n',
      authorization: 'Basic c2VjcmV0',
      contentType: 'application/x-git-upload-pack-request',
    });
  });

  it('repeats the POST on a 307, turns it into a GET without the body on 302 and 303', async () => {
    expect(await post('/temporary')).toMatchObject({ method: 'POST', body: '0032want abc\n' });
    expect(await post('/found')).toMatchObject({ method: 'GET', body: '' });
    expect(await post('/see-other')).toMatchObject({ method: 'GET', body: '' });
  });

  it('keeps the credentials on the same origin only', async () => {
    expect((await post('/temporary')).authorization).toBe('Basic c2VjcmV0');
    expect((await post('/elsewhere')).authorization).toBeNull();
  });

  it('refuses a request body over its limit before connecting', async () => {
    const error = await post('/echo', { maxRequestBytes: 4 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FetchLimitError);
    expect((error as FetchLimitError).message).toContain('request body is larger than the 4-byte');
  });
});
