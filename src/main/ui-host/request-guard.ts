import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Why a request is refused: its HTTP status and a sentence for whoever looks. */
export interface Refusal {
  readonly status: 400 | 401 | 403 | 415;
  readonly message: string;
}

/** The name of the header the HTTP bridge sends the secret in. */
export const SECRET_HEADER = 'x-quire-secret';
/** The query parameter carrying the secret where a header cannot (EventSource). */
export const SECRET_PARAM = 'secret';

/**
 * The checks every request to the UI host passes before anything else, so that another web page
 * open in the same browser reaches nothing: the Host header must name this very host (a DNS
 * rebinding attack arrives with the attacker's host name), an Origin or a Sec-Fetch-Site, when
 * sent, must be this host's own, and the API needs the secret from the URL the user opened.
 */
export class RequestGuard {
  private readonly hosts: ReadonlySet<string>;
  private readonly secretDigest: Buffer;

  constructor(port: number, secret: string) {
    this.hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.secretDigest = digest(secret);
  }

  /** Host, Origin and Sec-Fetch-Site: refused unless the request comes from this host's page. */
  checkSameHost(request: IncomingMessage): Refusal | undefined {
    const host = request.headers.host?.toLowerCase();
    if (host === undefined || !this.hosts.has(host)) {
      return { status: 403, message: 'this host name is not served here' };
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${host}`) {
      return { status: 403, message: 'requests from other sites are refused' };
    }
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      return { status: 403, message: 'requests from other sites are refused' };
    }
    return undefined;
  }

  /** The secret, from the header (commands) or, where no header can be set, the query. */
  checkSecret(request: IncomingMessage, url: URL, allowQuery: boolean): Refusal | undefined {
    const header = request.headers[SECRET_HEADER];
    const given =
      typeof header === 'string'
        ? header
        : allowQuery
          ? (url.searchParams.get(SECRET_PARAM) ?? undefined)
          : undefined;
    if (given === undefined) return { status: 401, message: 'the secret is missing' };
    // Compared as digests: equal lengths for timingSafeEqual, and no timing leak of the secret.
    if (!timingSafeEqual(digest(given), this.secretDigest)) {
      return { status: 403, message: 'the secret is wrong' };
    }
    return undefined;
  }

  /**
   * Only `application/json` bodies: a cross-site HTML form can send only the "simple" types
   * (form-encoded, multipart, text/plain), which need no CORS preflight.
   */
  checkJsonBody(request: IncomingMessage): Refusal | undefined {
    const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      return { status: 415, message: 'commands take a JSON body (Content-Type: application/json)' };
    }
    return undefined;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
