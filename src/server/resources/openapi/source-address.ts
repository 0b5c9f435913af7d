import { isIP } from 'node:net';
import { badRequest, type ApiError } from '../../http/api-error';
import { classifyAddress } from '../../content/safe-url-fetch';

/**
 * The 400 for a source URL whose host is refused without asking DNS: an IP address literal in a
 * refused range, or a localhost name (as content import answers). Names that resolve to refused
 * addresses, and redirects to them, are refused when the specification is processed
 * (FETCH_ERROR): that needs the network.
 */
export function refusedSourceUrl(
  url: string,
  options: { allowPrivate: boolean; allowedAddresses: readonly string[] },
  field = 'body.source.url',
): ApiError | undefined {
  if (options.allowPrivate) return undefined;
  let host: string;
  try {
    host = new URL(url).hostname
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
  } catch {
    return undefined; // the schema has already refused what is not a URL
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return badRequest(`${field} resolves to a loopback address (${host})`);
  }
  if (!isIP(host) || options.allowedAddresses.includes(host)) return undefined;
  const range = classifyAddress(host);
  if (!range) return undefined;
  const article = /^[aeiou]/.test(range) ? 'an' : 'a';
  return badRequest(`${field} resolves to ${article} ${range} address (${host})`);
}
