/**
 * A test-only transport for the engine's WorkspaceClient (under its rate-limited fetch) that
 * injects faults on chosen calls, by call number: a 429 with `Retry-After`, a 500, a timeout, a
 * response dropped after the server applied the request, and crashes. A crash freezes the
 * transport: that call and every later one never settles, so the engine that used it makes no
 * further progress, as if its process had died at that moment (the caller then abandons it and
 * opens a new engine over the same cache file and folder).
 */

export type FetchFault =
  /** 429 with `Retry-After` (seconds); the request never reached the server. */
  | '429'
  /** 500; the request never reached the server. */
  | '500'
  /** The transport gives up before the server saw the request (retried like a network error). */
  | 'timeout'
  /** The server applied the request, then the connection broke before the answer arrived. */
  | 'drop'
  /** The process dies before the request is sent. */
  | 'crash-before'
  /** The process dies after the server applied the request, before the answer is read. */
  | 'crash-after';

export interface FaultInjectingFetchOptions {
  /** `Retry-After` of injected 429s, in seconds. */
  retryAfterSeconds: number;
  /** The rate limiter's clock (epoch ms), to check that no call is sent before a pause ends. */
  now: () => number;
  /**
   * A server-side rule, whatever is armed: a content update whose body contains this text is
   * refused with a 400 that names no change (the server applies nothing of the batch), as a
   * server refusing one page of a batch for a reason of its own would.
   */
  refuseBatchesContaining?: string;
}

export class FaultInjectingFetch {
  /** Calls made since the last arm() (faulted ones included). */
  calls = 0;
  /** Faults by call number since the last arm() (0 = the next call). */
  private faults: ReadonlyMap<number, FetchFault> = new Map();
  /** Each call as `<n> <METHOD> <path>[ !fault]`, for failure messages. */
  readonly log: string[] = [];
  /** Calls sent while an injected `Retry-After` had not expired yet. */
  readonly earlyCalls: string[] = [];
  private blockedUntil = 0;
  private frozen = false;
  private crashedResolve!: () => void;
  /** Settles when a crash fault froze the transport. */
  readonly crashed: Promise<void> = new Promise((resolve) => (this.crashedResolve = resolve));

  constructor(private readonly options: FaultInjectingFetchOptions) {}

  /** A fault for the first call whose `METHOD path` matches, whatever its number (once). */
  private firstMatching: { pattern: RegExp; fault: FetchFault } | undefined;

  /** Sets (or, without arguments, clears) a fault by request instead of by call number. */
  armFirstMatching(pattern?: RegExp, fault?: FetchFault): void {
    this.firstMatching =
      pattern !== undefined && fault !== undefined ? { pattern, fault } : undefined;
  }

  /** Sets the faults of the calls to come, numbered from 0 again. */
  arm(faults: ReadonlyMap<number, FetchFault>): void {
    this.faults = faults;
    this.calls = 0;
    this.log.length = 0;
  }

  get hasCrashed(): boolean {
    return this.frozen;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    if (this.frozen) return never();
    const n = this.calls++;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    let fault = this.faults.get(n);
    if (fault === undefined && this.firstMatching?.pattern.test(`${method} ${url.pathname}`)) {
      fault = this.firstMatching.fault;
      this.firstMatching = undefined;
    }
    const line = `${n} ${method} ${url.pathname}${fault ? ` !${fault}` : ''}`;
    this.log.push(line);
    if (this.options.now() < this.blockedUntil) this.earlyCalls.push(line);
    const refused = this.options.refuseBatchesContaining;
    if (
      refused !== undefined &&
      method === 'POST' &&
      /\/change-requests\/[^/]+\/content$/.test(url.pathname) &&
      typeof init?.body === 'string' &&
      init.body.includes(refused)
    ) {
      this.log.push(`${n} refused (injected rule)`);
      return errorResponse(400, 'This batch cannot be applied here (injected refusal)');
    }
    switch (fault) {
      case undefined:
        return fetch(input, init);
      case '429': {
        // Requests the client sent before it read this answer were already on their way: the
        // check starts at the first macrotask after it (the client has read it by then), and the
        // pause counts from the answer.
        const until = this.options.now() + this.options.retryAfterSeconds * 1000;
        setImmediate(() => (this.blockedUntil = Math.max(this.blockedUntil, until)));
        return errorResponse(429, 'Too many requests (injected)', {
          'retry-after': String(this.options.retryAfterSeconds),
        });
      }
      case '500':
        return errorResponse(500, 'Internal error (injected)');
      case 'timeout':
        throw new DOMException('The operation timed out (injected)', 'TimeoutError');
      case 'drop': {
        const response = await fetch(input, init);
        await response.arrayBuffer();
        throw new TypeError('fetch failed (injected: response dropped after it was applied)');
      }
      case 'crash-before':
        this.freeze();
        return never();
      case 'crash-after': {
        const response = await fetch(input, init);
        await response.arrayBuffer();
        this.freeze();
        return never();
      }
    }
  };

  private freeze(): void {
    this.frozen = true;
    this.crashedResolve();
  }
}

function never(): Promise<Response> {
  return new Promise<Response>(() => {});
}

function errorResponse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ error: { code: status, message } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
