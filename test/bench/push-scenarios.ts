import { join } from 'node:path';
import type { RunContext, Scenario } from './bench-scenario';
import { judgeTimed, ms, type BenchRow, type Target, type Verdict } from './bench-table';
import { runPushClient, type HttpCall, type PushClientReport } from './push-client';
import { startRecordingServer, type ServerRecord } from './recording-server';
import { largeSpaceFixture } from './sync-fixture';
import { clientDirs, withServer } from './sync-scenarios';
import { summarize } from './timing-stats';

/** The issue's targets. */
const MAX_SAVE_P50_MS = 1_000;
const MAX_BURST_CALLS = 25;
/** The rate-limited server: 10 requests per token per one-second window. */
const LIMIT_PER_WINDOW = 10;
const LIMIT_WINDOW_MS = 1_000;

/** The resolution of Date.now(), which the rate-limited fetch times its pauses with. */
const CLOCK_STEP_MS = 1;

/** How often the latency run asks the server for the saved page. */
const POLL_MS = 10;

/** Sizes per scenario (`--quick`: smaller, for a fast check). */
function counts(ctx: RunContext) {
  const quick = ctx.options.quick;
  return {
    /** Pages of the space the saves are made in, and timed saves (after one warm-up). */
    latencyPages: quick ? 200 : 1_000,
    saves: quick ? 20 : 100,
    /** Pages of the space, all edited by the search-and-replace. */
    burstPages: quick ? 200 : 1_000,
    /**
     * Pages of the rate-limited space, all edited: enough batches (50 changes each) to use up
     * the server's window several times over.
     */
    drainPages: quick ? 300 : 1_000,
  };
}

const SAVE_TARGET: Target = { maxP50Ms: MAX_SAVE_P50_MS };
const BURST_TARGET: Target = { maxHttpCalls: MAX_BURST_CALLS };
const RETRY_AFTER_TARGET: Target = { check: 'nothing sent before Retry-After' };

function seconds(value: number): string {
  return `${(value / 1000).toFixed(1)} s`;
}

/** `12 × POST /v1/spaces/:id/change-requests/:id/content, …`, most frequent first. */
function callBreakdown(calls: readonly HttpCall[]): string {
  const kinds = new Map<string, number>();
  for (const call of calls) kinds.set(call.kind, (kinds.get(call.kind) ?? 0) + 1);
  return [...kinds]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${n} × ${kind}`)
    .join(', ');
}

const isContentUpdate = (call: HttpCall) =>
  call.method === 'POST' && call.kind.endsWith('/change-requests/:id/content');
const isReadBack = (call: HttpCall) =>
  call.method === 'GET' && call.kind.endsWith('/change-requests/:id/content/page/:id');

function verifiedText(report: PushClientReport, expected: number): { ok: boolean; text: string } {
  const verified = report.verified ?? { pages: 0, replaced: 0, old: 0 };
  const ok = verified.replaced >= expected && verified.old === 0 && report.outboxLeft === 0;
  return {
    ok,
    text:
      `the change request has ${verified.replaced} of ${verified.pages} pages with the new text ` +
      `(expected ${expected}), ${verified.old} with the old; ${report.outboxLeft} outbox rows left`,
  };
}

const saveLatency: Scenario = {
  name: 'save-to-server latency (sync --watch)',
  target: SAVE_TARGET,
  async run(ctx) {
    const { latencyPages, saves } = counts(ctx);
    const report = await withServer(
      ctx,
      'push-latency',
      largeSpaceFixture(latencyPages, 0),
      async (server, dir) => {
        const dirs = clientDirs(dir, 'client');
        try {
          return await runPushClient({
            mode: 'latency',
            server: server.url,
            home: dirs.home,
            folder: dirs.folder,
            count: saves,
            pollMs: POLL_MS,
          });
        } finally {
          dirs.remove();
        }
      },
    );
    const samples = report.samples ?? [];
    const timing = summarize(samples.map((sample) => sample.totalMs));
    const detect = summarize(samples.map((sample) => sample.detectMs));
    const push = summarize(samples.map((sample) => sample.totalMs - sample.detectMs));
    ctx.log(
      `  ${samples.length} saves: p50 ${ms(timing.p50Ms)} ms, p95 ${ms(timing.p95Ms)} ms ` +
        `(detection p50 ${ms(detect.p50Ms)} ms); mirror ${seconds(report.mirrorMs)}`,
    );
    const judged = judgeTimed(SAVE_TARGET, timing, undefined);
    const row: BenchRow & { push: unknown } = {
      scenario: `save-to-server latency, ${latencyPages.toLocaleString('en-US')}-page space`,
      target: SAVE_TARGET,
      status: 'measured',
      timing,
      floor: { label: 'write-finish detection + debounce (write → watch run)', stats: detect },
      floorMultiple: timing.p50Ms / detect.p50Ms,
      verdict: judged.verdict,
      notes: [
        ...judged.notes,
        `${samples.length} sequential saves of different page files, each timed from the end of ` +
          `the write until GET …/change-requests/{CR}/content/page/{id} (polled every ${POLL_MS} ms) ` +
          `returned the new Markdown; p95 ${ms(timing.p95Ms)} ms, max ${ms(timing.maxMs)} ms`,
        `floor = the folder watcher alone (chokidar write-finish detection + the watch's ` +
          `debounce, write → run start): p50 ${ms(detect.p50Ms)} ms; run start → on the server ` +
          `(a push: scan, outbox, updateChangeRequestContent) p50 ${ms(push.p50Ms)} ms, p95 ` +
          `${ms(push.p95Ms)} ms`,
        `the first save, which creates the working change request, took ` +
          `${ms(report.warmupMs ?? Number.NaN)} ms (not in the samples); ${report.syncs ?? 0} ` +
          `watch runs ended during the ${samples.length + 1} saves (\`quire sync --watch\` as the CLI runs it: ` +
          `QuireEngine.watch, SyncWatcher defaults, a full sync every 30 s)`,
      ],
      push: report,
    };
    return row;
  },
};

const burstPush: Scenario = {
  name: 'burst of edited files (search-and-replace)',
  target: BURST_TARGET,
  async run(ctx) {
    const { burstPages } = counts(ctx);
    const report = await withServer(
      ctx,
      'push-burst',
      largeSpaceFixture(burstPages, 0),
      async (server, dir) => {
        const dirs = clientDirs(dir, 'client');
        try {
          return await runPushClient({
            mode: 'burst',
            server: server.url,
            home: dirs.home,
            folder: dirs.folder,
            count: burstPages,
          });
        } finally {
          dirs.remove();
        }
      },
    );
    const calls = report.calls;
    const updates = calls.filter(isContentUpdate).length;
    const readBacks = calls.filter(isReadBack).length;
    const drainMs = report.drainMs ?? Number.NaN;
    ctx.log(
      `  ${burstPages} files: ${calls.length} HTTP calls (${updates} content updates), ` +
        `drained in ${seconds(drainMs)}; mirror ${seconds(report.mirrorMs)}`,
    );
    const verified = verifiedText(report, burstPages);
    const failures: string[] = [];
    if (calls.length > MAX_BURST_CALLS)
      failures.push(`${calls.length} HTTP calls, target ≤ ${MAX_BURST_CALLS}`);
    if (!verified.ok) failures.push(verified.text);
    const verdict: Verdict = failures.length > 0 ? 'FAIL' : 'PASS';
    const row: BenchRow & { push: unknown } = {
      scenario: `burst of ${burstPages.toLocaleString('en-US')} edited files, one space`,
      target: BURST_TARGET,
      status: 'measured',
      timing: summarize([drainMs]),
      figuresText:
        `${calls.length} HTTP calls (${updates} content updates, ${readBacks} page read-backs, ` +
        `${calls.length - updates - readBacks} other); drained in ${seconds(drainMs)}`,
      verdict,
      notes: [
        ...failures.map((failure) => `FAIL ${failure}`),
        `calls from the first write until nothing was pending and the watch quiet: ` +
          callBreakdown(calls),
        `the last content update was answered ${seconds(report.updatesDoneMs ?? Number.NaN)} ` +
          `after the first write; drain time: first write → end of the last run (${report.syncs ?? 0} runs of ` +
          `\`quire sync --watch\`); writing the ${burstPages} files took ` +
          `${ms(report.writeMs ?? Number.NaN)} ms`,
        ...(verified.ok ? [`pass ${verified.text}`] : []),
        ...(readBacks > 0
          ? [
              `the outbox batches its updates (${updates} calls for ${burstPages} changes) but ` +
                `then reads every pushed page back with one GET each (OutboxDrainer.readBack): ` +
                `${readBacks} of the ${calls.length} calls, and at the client's own pacing ` +
                `(20 requests/s) most of the drain time`,
            ]
          : []),
      ],
      push: report,
    };
    return row;
  },
};

/** A 429 the client received, and the first request it sent after hearing it. */
interface RetryGap {
  seq: number;
  retryAfterMs: number;
  /** Server time from the 429's response (begun) to the arrival of the next request sent after it. */
  gapMs: number;
  /** Client time from the 429's headers in to the next transport call. */
  clientGapMs: number;
  /** Requests sent before the 429 reached the client but arriving after it (not violations). */
  inFlight: number;
}

/**
 * For every 429: the requests the client sent after receiving it (by the client's own clock:
 * their transport call started after the 429's headers were in) must be sent at least
 * Retry-After after it was received (the client's clock), and so reach the server at least
 * Retry-After after the server began to send it (the server's clock: the client cannot have
 * received it earlier, so this check never fails a correct client).
 */
function retryGaps(calls: readonly HttpCall[], records: readonly ServerRecord[]): RetryGap[] {
  const bySeq = new Map(records.map((record) => [record.seq, record]));
  const gaps: RetryGap[] = [];
  for (const refused of calls.filter((call) => call.status === 429)) {
    const answer = bySeq.get(refused.seq);
    if (answer === undefined) throw new Error(`The server has no record of request ${refused.seq}`);
    const followers = calls.filter((call) => call.sentAt >= refused.receivedAt);
    const after = followers.map((call) => bySeq.get(call.seq)?.arrivedAt ?? Number.NaN);
    if (after.length === 0) continue;
    const inFlight = calls.filter(
      (call) =>
        call.sentAt < refused.receivedAt &&
        (bySeq.get(call.seq)?.arrivedAt ?? -Infinity) > answer.respondedAt,
    ).length;
    gaps.push({
      seq: refused.seq,
      retryAfterMs: Number(refused.retryAfter ?? Number.NaN) * 1000,
      gapMs: Math.min(...after) - answer.respondedAt,
      clientGapMs: Math.min(...followers.map((call) => call.sentAt)) - refused.receivedAt,
      inFlight,
    });
  }
  return gaps;
}

/** A successful response that used its window up, and the first request sent after it. */
interface ResetGap {
  seq: number;
  /** Arrival of that request (wall clock) minus the window's X-RateLimit-Reset: ≥ 0 expected. */
  afterResetMs: number;
}

/**
 * For every response saying X-RateLimit-Remaining: 0: the requests the client sent after
 * receiving it must reach the server once the window has reset (the server's wall clock, in
 * which the reset is given).
 */
function resetGaps(calls: readonly HttpCall[], records: readonly ServerRecord[]): ResetGap[] {
  const bySeq = new Map(records.map((record) => [record.seq, record]));
  const gaps: ResetGap[] = [];
  for (const usedUp of calls.filter((c) => c.rateLimitRemaining === '0' && c.status !== 429)) {
    const reset = Number(usedUp.rateLimitReset) * 1000;
    const after = calls
      .filter((call) => call.sentAt >= usedUp.receivedAt)
      .map((call) => bySeq.get(call.seq)?.arrivedEpochMs ?? Number.NaN);
    if (after.length === 0 || !Number.isFinite(reset)) continue;
    gaps.push({ seq: usedUp.seq, afterResetMs: Math.min(...after) - reset });
  }
  return gaps;
}

const retryAfterDrain: Scenario = {
  name: 'drain against a rate-limited server (Retry-After)',
  target: RETRY_AFTER_TARGET,
  async run(ctx) {
    const { drainPages } = counts(ctx);
    const dir = join(ctx.workDir, 'push-rate-limited');
    const server = await startRecordingServer(
      join(dir, 'server'),
      largeSpaceFixture(drainPages, 0),
      {
        rateLimitMax: LIMIT_PER_WINDOW,
        rateLimitWindowMs: LIMIT_WINDOW_MS,
      },
    );
    ctx.log(`  Quire server (in this process) at ${server.url}, ${LIMIT_PER_WINDOW} requests/s`);
    let report: PushClientReport;
    const dirs = clientDirs(dir, 'client');
    try {
      report = await runPushClient({
        mode: 'drain',
        server: server.url,
        home: dirs.home,
        folder: dirs.folder,
        count: drainPages,
      });
    } finally {
      dirs.remove();
      await server.stop();
    }
    const calls = report.calls;
    const refused = calls.filter((call) => call.status === 429);
    const usedUp = calls.filter((call) => call.rateLimitRemaining === '0' && call.status !== 429);
    const gaps = retryGaps(calls, server.records);
    // Judged at the server, which sees every request arrive. By the client's own clock a request
    // may leave up to 1 ms short of Retry-After after the 429's headers came in: the fetch reads
    // Date.now(), whole milliseconds, so its pause can start up to 1 ms after the moment stamped
    // here with performance.now(). Shorter than that is a client that does not wait.
    const early = gaps.filter(
      (gap) =>
        !(gap.gapMs >= gap.retryAfterMs && gap.clientGapMs >= gap.retryAfterMs - CLOCK_STEP_MS),
    );
    const resets = resetGaps(calls, server.records);
    const beforeReset = resets.filter((gap) => !(gap.afterResetMs >= 0));
    const closest = gaps.reduce<RetryGap | undefined>(
      (best, gap) =>
        best === undefined || gap.gapMs - gap.retryAfterMs < best.gapMs - best.retryAfterMs
          ? gap
          : best,
      undefined,
    );
    const verified = verifiedText(report, drainPages);
    ctx.log(
      `  ${calls.length} calls, ${refused.length} answered 429, drain ${seconds(report.drainMs ?? Number.NaN)}`,
    );

    const failures: string[] = [];
    for (const gap of early.slice(0, 5))
      failures.push(
        `request sent ${gap.clientGapMs.toFixed(1)} ms (client's clock; ${ms(gap.gapMs)} ms at the ` +
          `server) after the 429 of request ${gap.seq}, whose Retry-After was ` +
          `${ms(gap.retryAfterMs)} ms`,
      );
    for (const gap of beforeReset.slice(0, 5))
      failures.push(
        `request sent ${ms(-gap.afterResetMs)} ms before the reset of the window that request ` +
          `${gap.seq} used up`,
      );
    if (!verified.ok) failures.push(verified.text);
    const limited = refused.length > 0 || usedUp.length > 0;
    let verdict: Verdict = failures.length > 0 ? 'FAIL' : 'PASS';
    if (verdict === 'PASS' && !limited) verdict = 'N/A';
    const clientMin =
      gaps.length === 0 ? Number.NaN : Math.min(...gaps.map((gap) => gap.clientGapMs));
    const gapText =
      closest === undefined
        ? 'no request followed a 429'
        : `min gap after a 429 ${ms(closest.gapMs)} ms at the server ` +
          `(${clientMin.toFixed(1)} ms at the client) vs its Retry-After ${ms(closest.retryAfterMs)} ms`;
    const row: BenchRow & { push: unknown } = {
      scenario: `drain of ${drainPages} edits, server limited to ${LIMIT_PER_WINDOW} req/s`,
      target: RETRY_AFTER_TARGET,
      status: 'measured',
      ...(gaps.length > 0 ? { timing: summarize(gaps.map((gap) => gap.gapMs)) } : {}),
      figuresText: `${refused.length} × 429; ${gapText}; ${calls.length} calls in ${seconds(report.drainMs ?? Number.NaN)}`,
      verdict,
      notes: [
        ...failures.map((failure) => `FAIL ${failure}`),
        ...(limited
          ? []
          : ['N/A the drain never reached the rate limit: nothing to check (raise the edits)']),
        `every request of the run (mirror and push), recorded by the server as it arrived; for ` +
          `each 429 the requests the client sent after receiving it (by the client's clock) must ` +
          `arrive at least Retry-After after the server began to send the 429 (by the server's ` +
          `clock), and leave the client no earlier than Retry-After − ${CLOCK_STEP_MS} ms after ` +
          `the 429's headers came in (the client's clock; its pauses are timed with Date.now(), ` +
          `whole ms; smallest: ${clientMin.toFixed(1)} ms): ` +
          `${gaps.length} 429s followed by a request, ${early.length} too early; requests already ` +
          `in flight when a 429 came: ${gaps.reduce((n, gap) => n + gap.inFlight, 0)}`,
        `the client also stops at X-RateLimit-Remaining: 0 until the window's X-RateLimit-Reset: ` +
          `${usedUp.length} successful responses used a window up, ${beforeReset.length} ` +
          `requests sent after one arrived before the reset (closest: ` +
          `${resets.length > 0 ? `${ms(Math.min(...resets.map((gap) => gap.afterResetMs)))} ms after` : 'none'}); ` +
          `rate-limited fetch: ${report.pacing.retries} retries, ${report.pacing.pauses} pauses`,
        `HTTP calls: ${callBreakdown(calls)}`,
        ...(verified.ok ? [`pass ${verified.text}`] : []),
      ],
      push: { ...report, serverRecords: server.records.length },
    };
    return row;
  },
};

/** The push scenarios of the sync benchmark, in the order they run. */
export const pushScenarios: readonly Scenario[] = [saveLatency, burstPush, retryAfterDrain];
