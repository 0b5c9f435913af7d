import {
  FetchLimitError,
  safeFetch,
  SafeFetchError,
  type HostLookup,
  type Transport,
} from '../../content/safe-url-fetch';
import type { ProcessErrorCode } from './openapi-schema';

export interface SourceFetchOptions {
  allowPrivate: boolean;
  /** Exact addresses accepted although private (an operator's internal host, a test server). */
  allowedAddresses: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  signal: AbortSignal;
  lookup?: HostLookup | undefined;
  transport?: Transport | undefined;
}

export type FetchedSource =
  { ok: true; text: string } | { ok: false; code: ProcessErrorCode; message: string };

const ACCEPT = 'application/json, application/yaml, application/x-yaml, text/yaml, text/plain, */*';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Fetches a specification through the SSRF guard (every hop's addresses vetted, redirects
 * re-vetted, one deadline, a byte cap) and says why it could not, as a processing error code.
 */
export async function fetchOpenApiSource(
  url: string,
  options: SourceFetchOptions,
): Promise<FetchedSource> {
  try {
    const response = await safeFetch(url, {
      allowPrivate: options.allowPrivate,
      allowedAddresses: options.allowedAddresses,
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      signal: options.signal,
      accept: ACCEPT,
      userAgent: 'Quire-OpenAPI/1.0',
      ...(options.lookup ? { lookup: options.lookup } : {}),
      ...(options.transport ? { transport: options.transport } : {}),
    });
    if (response.status < 200 || response.status > 299) {
      return { ok: false, code: 'FETCH_ERROR', message: `${url} answered ${response.status}` };
    }
    try {
      return { ok: true, text: utf8.decode(response.body) };
    } catch {
      return { ok: false, code: 'PARSE_ERROR', message: 'The document is not UTF-8 text' };
    }
  } catch (error) {
    if (error instanceof FetchLimitError && error.limit === 'timeout') {
      return { ok: false, code: 'FETCH_TIMEOUT', message: error.message };
    }
    if (error instanceof SafeFetchError) {
      return { ok: false, code: 'FETCH_ERROR', message: error.message };
    }
    throw error;
  }
}
