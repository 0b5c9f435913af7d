import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { safeFetch, type SafeFetchOptions } from '../content/safe-url-fetch';

/** What every request of one Git operation shares: the SSRF rules, one deadline and a byte budget. */
export interface GuardedGitOptions extends Pick<
  SafeFetchOptions,
  'allowPrivate' | 'allowedAddresses' | 'lookup' | 'transport'
> {
  /** Bytes all responses together may hold (the pack is most of it). */
  maxBytes: number;
  /** Ends every request of the operation (its deadline). */
  signal: AbortSignal;
  /** Deadline of one request; the operation's own deadline is `signal`. */
  requestTimeoutMs: number;
  /** Largest request body (a push's pack); safeFetch's 1 MiB default otherwise. */
  maxRequestBytes?: number;
}

/**
 * isomorphic-git's HTTP client, going through safeFetch: each request (the ref discovery GET and
 * the upload-pack POST alike) has its host vetted at every redirect, its body capped, and all of
 * them together stay within `maxBytes`. isomorphic-git takes credentials out of the URL and sends
 * them as an Authorization header, which safeFetch drops when a redirect leaves the origin.
 */
export function guardedGitHttp(options: GuardedGitOptions): HttpClient {
  let spent = 0;
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      const method = request.method === 'POST' ? 'POST' : 'GET';
      const body = method === 'POST' ? await collect(request.body) : undefined;
      const { accept, ...headers } = lowerCase(request.headers ?? {});
      const result = await safeFetch(request.url, {
        ...options,
        method,
        ...(body ? { body } : {}),
        headers,
        ...(accept ? { accept } : {}),
        userAgent: 'git/isomorphic-git (Quire)',
        timeoutMs: options.requestTimeoutMs,
        maxBytes: options.maxBytes - spent,
        signal: options.signal,
      });
      spent += result.body.byteLength;
      return {
        url: result.url,
        method,
        headers: result.headers,
        body: once(result.body),
        statusCode: result.status,
        statusMessage: String(result.status),
      };
    },
  };
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

async function collect(
  body: AsyncIterableIterator<Uint8Array> | undefined,
): Promise<Uint8Array | undefined> {
  if (!body) return undefined;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function* once(bytes: Uint8Array): AsyncIterableIterator<Uint8Array> {
  yield bytes;
}
