import {
  safeFetch,
  type HostLookup,
  type SafeFetchResult,
  type Transport,
} from '../../content/safe-url-fetch';
import type { ServerContext } from '../../server-context';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  accept?: string;
}

/**
 * The server's fetches of user-given URLs (content import, `insert_files` by URL), all through
 * safeFetch's SSRF guard; private addresses only with `--allow-private-urls`. `lookup` and
 * `transport` stay at safeFetch's defaults (the system resolver, node:http) unless a test swaps
 * them to observe or stand in for the network.
 */
export class UrlFetcher {
  lookup: HostLookup | undefined;
  transport: Transport | undefined;

  constructor(private readonly ctx: ServerContext) {}

  fetch(url: string, limits: FetchLimits): Promise<SafeFetchResult> {
    return safeFetch(url, {
      allowPrivate: this.ctx.config.allowPrivateUrls,
      timeoutMs: limits.timeoutMs,
      maxBytes: limits.maxBytes,
      ...(limits.accept ? { accept: limits.accept } : {}),
      ...(this.lookup ? { lookup: this.lookup } : {}),
      ...(this.transport ? { transport: this.transport } : {}),
    });
  }
}

const fetchers = new WeakMap<ServerContext, UrlFetcher>();

/** One fetcher per server. */
export function urlFetcherFor(ctx: ServerContext): UrlFetcher {
  let fetcher = fetchers.get(ctx);
  if (!fetcher) {
    fetcher = new UrlFetcher(ctx);
    fetchers.set(ctx, fetcher);
  }
  return fetcher;
}
