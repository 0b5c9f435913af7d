import autocannon from 'autocannon';

/** One HTTP request, repeated by every connection for the whole run. */
export interface BenchRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query, e.g. `/v1/spaces/s-1`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  connections: number;
  durationS: number;
}

export interface LoadStats {
  /** Mean of the per-second request counts (what autocannon prints as Req/Sec). */
  rps: number;
  requests: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  non2xx: number;
  bytesPerSecond: number;
  durationS: number;
  connections: number;
}

/**
 * Drives `baseUrl` with autocannon for a fixed time and summarises the result. Bounded twice:
 * autocannon stops itself after `durationS`, and a watchdog stops it 30 s later if it has not.
 */
export function measureLoad(
  baseUrl: string,
  request: BenchRequest,
  options: LoadOptions,
): Promise<LoadStats> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: new URL(request.path, baseUrl).toString(),
        method: request.method ?? 'GET',
        headers: request.headers ?? {},
        ...(request.body !== undefined ? { body: request.body } : {}),
        connections: options.connections,
        duration: options.durationS,
        timeout: 10,
      },
      (error: unknown, result) => {
        clearTimeout(watchdog);
        if (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        resolve({
          rps: result.requests.average,
          requests: result.requests.total,
          p50Ms: result.latency.p50,
          p90Ms: result.latency.p90,
          p99Ms: result.latency.p99,
          maxMs: result.latency.max,
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          bytesPerSecond: result.throughput.average,
          durationS: result.duration,
          connections: result.connections,
        });
      },
    );
    const watchdog = setTimeout(() => instance.stop(), (options.durationS + 30) * 1000);
  });
}
