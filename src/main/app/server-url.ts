/** Why `quire login --server` refused a URL; the message is shown after "invalid server URL". */
export class ServerUrlError extends Error {
  override readonly name = 'ServerUrlError';
}

export interface ServerUrl {
  /** `scheme://host[:port]`, no trailing slash and no `/v1`: what is stored and shown. */
  readonly origin: string;
  /** Plain http to a host other than this computer: the token would cross the network in clear. */
  readonly cleartext: boolean;
}

/**
 * Checks the `--server` argument. A server is addressed by its origin: the API lives under
 * `/v1` of it. A trailing `/v1` (what API docs show) is accepted and dropped rather than refused,
 * since what the user meant is unambiguous; any other path, a query, a fragment or embedded
 * credentials are refused, because they would be silently ignored or, for credentials, stored.
 */
export function parseServerUrl(input: string): ServerUrl {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new ServerUrlError('expected something like https://docs.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ServerUrlError('it must start with http:// or https://');
  }
  if (url.username !== '' || url.password !== '') {
    throw new ServerUrlError('it must not contain a user name or password');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ServerUrlError('it must not have a query or a fragment');
  }
  const pathname = url.pathname.replace(/\/+$/, '');
  if (pathname !== '' && pathname !== '/v1') {
    throw new ServerUrlError(`give the server's address without a path (not ${url.pathname})`);
  }
  return { origin: url.origin, cleartext: url.protocol === 'http:' && !isLoopback(url.hostname) };
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
