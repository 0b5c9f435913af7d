import { Agent, request as httpRequest } from 'node:http';

/** One response, timed from sending the request to receiving the last byte of the body. */
export interface TimedResponse {
  status: number;
  body: Buffer;
  ms: number;
}

/** A non-2xx answer to a call the benchmark needs to succeed. */
export class ApiCallError extends Error {
  override name = 'ApiCallError';
  constructor(
    readonly what: string,
    readonly status: number,
    readonly apiMessage: string,
  ) {
    super(`${what} answered ${status}: ${apiMessage}`);
  }
}

/** The API's error message (`{ error: { message } }`), else the start of the raw body. */
export function errorMessageOf(body: Buffer): string {
  const text = body.toString('utf8');
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // Not JSON: the raw (truncated) text is the best description there is.
  }
  return text.slice(0, 300);
}

/**
 * A minimal JSON client for timed API calls. node:http with one kept-alive socket rather than
 * fetch: the client's own overhead is part of every figure, so it should be as small as it gets
 * (and the connection set-up is not measured after the first call).
 */
export class BenchApi {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly base: URL;

  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.base = new URL(baseUrl);
  }

  /** Sends `body` (already serialised, so serialising is not timed) and times the exchange. */
  timed(method: string, path: string, body?: string): Promise<TimedResponse> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = httpRequest(
        {
          host: this.base.hostname,
          port: this.base.port,
          method,
          path,
          headers,
          agent: this.agent,
          timeout: 120_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.once('error', reject);
          res.once('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
              ms: performance.now() - started,
            }),
          );
        },
      );
      req.once('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 120 s`)));
      req.once('error', reject);
      req.end(payload);
    });
  }

  /** A call that must succeed: its parsed JSON, or ApiCallError. */
  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.timed(
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
    );
    return parseOk<T>(`${method} ${path}`, response);
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The parsed body of a 2xx response; ApiCallError otherwise. */
export function parseOk<T>(what: string, response: TimedResponse): T {
  if (response.status < 200 || response.status > 299)
    throw new ApiCallError(what, response.status, errorMessageOf(response.body));
  return (response.body.length > 0 ? JSON.parse(response.body.toString('utf8')) : undefined) as T;
}
