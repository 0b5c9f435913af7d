import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Fixture } from '../../src/server/fixture/fixture-schema';
import { startChild, type BenchChild } from './bench-child';
import type { RunContext, Scenario } from './bench-scenario';
import { judge, type BenchRow, type Target } from './bench-table';
import { measureLoad, type BenchRequest, type LoadStats } from './measure-load';

const QUIRE_SERVER_MAIN = fileURLToPath(new URL('./bench-server-main.ts', import.meta.url));
const BARE_SERVER_MAIN = fileURLToPath(new URL('./bare-server-main.ts', import.meta.url));

/** The Quire server a scenario runs against, as its `prepare` step sees it. */
export interface RunningServer {
  url: string;
}

export interface HttpScenarioSpec {
  name: string;
  target: Target;
  /** Concurrent connections for this scenario; by default `--connections`. */
  connections?: number;
  /** Remarks printed under the table with the row's own notes (e.g. how to read it). */
  notes?: readonly string[];
  /** The data the server starts with (loaded into a fresh database for this scenario alone). */
  fixture: () => Fixture;
  /**
   * Runs once the server is listening: may call the API to build more state, and returns the
   * request to measure.
   */
  prepare: (server: RunningServer) => BenchRequest | Promise<BenchRequest>;
}

/** The first response, fetched once: the endpoint's health check and the baseline's payload. */
interface Probe {
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * Starts the Quire server in a child process on a fresh database file, loaded with the fixture
 * in `fixtureFile`; stop it with `stop()` (the runner also kills it on exit).
 */
export async function startQuireServer(
  ctx: RunContext,
  label: string,
  dbFile: string,
  fixtureFile: string,
): Promise<BenchChild> {
  ctx.log(`  starting the Quire server`);
  const quire = await startChild(`Quire server (${label})`, QUIRE_SERVER_MAIN, [
    '--db',
    dbFile,
    '--fixture',
    fixtureFile,
  ]);
  ctx.log(`  Quire server at ${quire.url}, fixture loaded in ${quire.info['loadMs']} ms`);
  return quire;
}

async function probe(url: string, request: BenchRequest, timeoutMs = 10_000): Promise<Probe> {
  const response = await fetch(new URL(request.path, url), {
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    ...(request.body !== undefined ? { body: request.body } : {}),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** `404 Not Found: <the API's error message>` — what a non-2xx probe is reported as. */
function describeFailure(result: Probe): string {
  let message = result.body.toString('utf8').slice(0, 300);
  try {
    const parsed = JSON.parse(result.body.toString('utf8')) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') message = parsed.error.message;
  } catch {
    // Not JSON: the raw (truncated) text is the best description there is.
  }
  return `${result.status}: ${message}`;
}

function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

async function warmAndMeasure(
  ctx: RunContext,
  label: string,
  url: string,
  request: BenchRequest,
  connections: number,
): Promise<LoadStats> {
  const { durationS, warmupS } = ctx.options;
  if (warmupS > 0) {
    ctx.log(`  ${label}: warm-up ${warmupS} s`);
    await measureLoad(url, request, { connections, durationS: warmupS });
    // Requests the warm-up left queued would otherwise be served during the measurement; one
    // more request, answered after them, tells us the server has caught up.
    await probe(url, request, 120_000);
  }
  ctx.log(`  ${label}: measuring ${durationS} s, ${connections} connections`);
  const stats = await measureLoad(url, request, { connections, durationS });
  ctx.log(
    `  ${label}: ${Math.round(stats.rps)} req/s, p50 ${stats.p50Ms} ms, p99 ${stats.p99Ms} ms`,
  );
  return stats;
}

/**
 * A scenario that loads one request against the Quire server (a child process with its own
 * database) and, in the same run, against a bare node:http server (another child process)
 * answering the exact bytes and content type the Quire server returned for that request.
 */
export function httpScenario(spec: HttpScenarioSpec): Scenario {
  return {
    name: spec.name,
    target: spec.target,
    async run(ctx: RunContext): Promise<BenchRow> {
      const slug = slugOf(spec.name);
      const connections = spec.connections ?? ctx.options.connections;
      const extraNotes = spec.notes ?? [];
      const fixtureFile = join(ctx.workDir, `${slug}.fixture.json`);
      writeFileSync(fixtureFile, JSON.stringify(spec.fixture()));

      const children: BenchChild[] = [];
      try {
        const quire = await startQuireServer(
          ctx,
          spec.name,
          join(ctx.workDir, `${slug}.db`),
          fixtureFile,
        );
        children.push(quire);

        const request = await spec.prepare({ url: quire.url });
        const first = await probe(quire.url, request);
        const what = `${request.method ?? 'GET'} ${request.path}`;
        if (first.status < 200 || first.status > 299) {
          return {
            scenario: spec.name,
            target: spec.target,
            status: 'unavailable',
            verdict: 'N/A',
            notes: [`not measured: ${what} answered ${describeFailure(first)}`, ...extraNotes],
          };
        }
        ctx.log(`  ${what} → ${first.status}, ${first.body.length} bytes, ${first.contentType}`);

        const bodyFile = join(ctx.workDir, `${slug}.body`);
        writeFileSync(bodyFile, first.body);
        const bare = await startChild(`bare node:http (${spec.name})`, BARE_SERVER_MAIN, [
          '--body',
          bodyFile,
          '--content-type',
          first.contentType,
        ]);
        children.push(bare);
        const baseline = await warmAndMeasure(
          ctx,
          'bare node:http',
          bare.url,
          request,
          connections,
        );
        // Stopped before the Quire run so it cannot take CPU from it.
        await bare.stop();

        const subject = await warmAndMeasure(ctx, 'Quire', quire.url, request, connections);
        const ratio = baseline.rps > 0 ? subject.rps / baseline.rps : undefined;
        const { verdict, notes } = judge(spec.target, subject, ratio);
        if (baseline.errors > 0 || baseline.non2xx > 0)
          notes.push(`baseline had ${baseline.errors} errors, ${baseline.non2xx} non-2xx`);
        const maxP99 = spec.target.maxP99Ms;
        if (maxP99 !== undefined && baseline.p99Ms >= maxP99)
          notes.push(
            `the bare server's own p99 is ${baseline.p99Ms} ms: at this concurrency the ` +
              `${maxP99} ms target is below the floor`,
          );
        return {
          scenario: spec.name,
          target: spec.target,
          status: 'measured',
          responseBytes: first.body.length,
          subject,
          baseline: { label: 'bare node:http, same bytes', stats: baseline },
          ...(ratio !== undefined ? { ratio } : {}),
          verdict,
          notes: [...notes, ...extraNotes],
        };
      } finally {
        await Promise.all(children.map((child) => child.stop()));
      }
    },
  };
}
