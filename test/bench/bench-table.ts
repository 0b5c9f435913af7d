import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LoadStats } from './measure-load';
import type { TimingStats } from './timing-stats';

/** What a scenario must achieve; an empty target makes the row informational. */
export interface Target {
  /** Load rows: minimum throughput as a fraction of the baseline's, measured in the same run. */
  minRatio?: number;
  /** Load rows: p99 latency must be strictly under this. */
  maxP99Ms?: number;
  /** Timed rows: the median must be strictly under this. */
  maxP50Ms?: number;
  /** Timed rows: the median may be at most this multiple of the floor's median. */
  maxFloorMultiple?: number;
  /** HTTP calls the client may make for the whole operation (judged by the scenario). */
  maxHttpCalls?: number;
  /** A check the other fields cannot express, in words (judged by the scenario). */
  check?: string;
}

export type Verdict = 'PASS' | 'FAIL' | 'INFO' | 'N/A' | 'ERROR';

/** A timed row's floor: the same work done directly (no HTTP, no server), in the same run. */
export interface TimedFloor {
  label: string;
  stats: TimingStats;
  /** Bytes the floor produced, when it produces a response-like payload. */
  bytes?: number;
}

/**
 * One line of the report: every scenario ends as one or more, whatever happened to it. Load rows
 * (autocannon) fill `subject`/`baseline`/`ratio`; timed rows (sequential requests, each timed)
 * fill `timing`/`floor`/`floorMultiple`.
 */
export interface BenchRow {
  scenario: string;
  target: Target;
  /** `measured`, `unavailable` (the endpoint did not answer 200: nothing to measure) or `error` (harness failure). */
  status: 'measured' | 'unavailable' | 'error';
  /** Size of one response body, when there was one. */
  responseBytes?: number;
  subject?: LoadStats;
  baseline?: { label: string; stats: LoadStats };
  /** subject req/s ÷ baseline req/s. */
  ratio?: number;
  timing?: TimingStats;
  floor?: TimedFloor;
  /** timing p50 ÷ floor p50. */
  floorMultiple?: number;
  /** Other floors measured alongside (reported in the notes and the JSON, not judged). */
  otherFloors?: TimedFloor[];
  /** The very first such request after the server started (nothing cached, JIT cold). */
  firstRequestMs?: number;
  /** 1-minute load average when the scenario started (the machine may be shared). */
  load1?: number;
  /** The figures cell in words, for rows whose figures are not a timing or a load. */
  figuresText?: string;
  verdict: Verdict;
  notes: string[];
}

export function describeTarget(target: Target): string {
  const parts: string[] = [];
  if (target.minRatio !== undefined) parts.push(`≥${Math.round(target.minRatio * 100)}% base`);
  if (target.maxP99Ms !== undefined) parts.push(`p99<${target.maxP99Ms}ms`);
  if (target.maxP50Ms !== undefined) parts.push(`p50<${target.maxP50Ms}ms`);
  if (target.maxFloorMultiple !== undefined) parts.push(`≤${target.maxFloorMultiple}× floor`);
  if (target.maxHttpCalls !== undefined) parts.push(`≤${target.maxHttpCalls} HTTP calls`);
  if (target.check !== undefined) parts.push(target.check);
  return parts.length > 0 ? parts.join(', ') : '—';
}

function verdictOf(failures: readonly string[], target: Target): Verdict {
  if (failures.length > 0) return 'FAIL';
  return Object.values(target).some((value) => value !== undefined) ? 'PASS' : 'INFO';
}

/**
 * PASS/FAIL of a load row against the target; any error or non-2xx response fails the row (its
 * numbers lie). Notes list the failures first, then warnings that do not change the verdict.
 */
export function judge(
  target: Target,
  subject: LoadStats,
  ratio: number | undefined,
): { verdict: Verdict; notes: string[] } {
  const failures: string[] = [];
  const warnings: string[] = [];
  if (subject.errors > 0 || subject.non2xx > 0)
    failures.push(`${subject.errors} errors and ${subject.non2xx} non-2xx responses under load`);
  if (subject.requests === 0) failures.push('no request completed');
  else if (subject.requests < 20 * subject.connections)
    warnings.push(
      `only ${subject.requests} requests completed: percentiles leave out the requests still ` +
        'queued when the run stopped; use a longer --duration',
    );
  if (target.minRatio !== undefined) {
    if (ratio === undefined) failures.push('no baseline to compare with');
    else if (ratio < target.minRatio)
      failures.push(`throughput ${pct(ratio)} of the baseline, target ≥${pct(target.minRatio)}`);
  }
  if (target.maxP99Ms !== undefined && !(subject.p99Ms < target.maxP99Ms))
    failures.push(`p99 ${subject.p99Ms} ms, target < ${target.maxP99Ms} ms`);
  return { verdict: verdictOf(failures, target), notes: [...failures, ...warnings] };
}

/** PASS/FAIL of a timed row: its median against `maxP50Ms` and against the floor's median. */
export function judgeTimed(
  target: Target,
  timing: TimingStats,
  floorMultiple: number | undefined,
): { verdict: Verdict; notes: string[] } {
  const failures: string[] = [];
  if (timing.samples === 0) failures.push('no sample');
  if (target.maxP50Ms !== undefined && !(timing.p50Ms < target.maxP50Ms))
    failures.push(`p50 ${ms(timing.p50Ms)} ms, target < ${target.maxP50Ms} ms`);
  if (target.maxFloorMultiple !== undefined) {
    if (floorMultiple === undefined) failures.push('no floor to compare with');
    else if (floorMultiple > target.maxFloorMultiple)
      failures.push(
        `p50 ${multiple(floorMultiple)} the floor's, target ≤${target.maxFloorMultiple}×`,
      );
  }
  return { verdict: verdictOf(failures, target), notes: failures };
}

function pct(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

function multiple(value: number): string {
  return `${value.toFixed(2)}×`;
}

function num(value: number | undefined, digits = 0): string {
  if (value === undefined || Number.isNaN(value)) return '-';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** Timed rows are measured with performance.now(): one decimal below 100 ms. */
export function ms(value: number): string {
  return value < 100 ? value.toFixed(1) : num(value);
}

export function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

const COLUMNS = ['scenario', 'target', 'figures', 'floor', 'ratio', 'verdict'] as const;

function loadFigures(s: LoadStats, bytes: number | undefined): string {
  // With nothing completed, autocannon's zero latencies would read as "instant".
  const latency = s.requests > 0 ? `, p50 ${num(s.p50Ms)} / p99 ${num(s.p99Ms)} ms` : '';
  const failed = s.errors > 0 || s.non2xx > 0 ? `, ${s.errors} err/${s.non2xx} non-2xx` : '';
  const body = bytes !== undefined ? `, ${size(bytes)}` : '';
  // autocannon records latency in whole milliseconds.
  return `${num(s.rps)} req/s${latency}, ${s.connections} conn${body}${failed}`;
}

function timedFigures(t: TimingStats, bytes: number | undefined): string {
  const body = bytes !== undefined ? `, ${size(bytes)}` : '';
  // The minimum too: on a shared machine it is the figure least disturbed by other work.
  return `p50 ${ms(t.p50Ms)} / p95 ${ms(t.p95Ms)} ms (min ${ms(t.minMs)}, n=${t.samples})${body}`;
}

function cells(row: BenchRow): string[] {
  let figures = '-';
  let floor = '-';
  let ratio = '-';
  if (row.subject) {
    figures = loadFigures(row.subject, row.responseBytes);
    const base = row.baseline?.stats;
    if (base) floor = `${num(base.rps)} req/s, p99 ${num(base.p99Ms)} ms`;
    if (row.ratio !== undefined) ratio = pct(row.ratio);
  } else if (row.timing) {
    figures = timedFigures(row.timing, row.responseBytes);
    if (row.floor) floor = `p50 ${ms(row.floor.stats.p50Ms)} ms`;
    if (row.floorMultiple !== undefined) ratio = multiple(row.floorMultiple);
  }
  if (row.figuresText !== undefined) figures = row.figuresText;
  return [row.scenario, describeTarget(row.target), figures, floor, ratio, row.verdict];
}

/** A plain-text table (ratios right-aligned), a legend, then one note line per remark. */
export function formatTable(rows: readonly BenchRow[]): string {
  const body = rows.map(cells);
  const widths = COLUMNS.map((title, i) =>
    Math.max(title.length, ...body.map((line) => (line[i] ?? '').length)),
  );
  const rightAligned = new Set([4]);
  const render = (line: readonly string[]) =>
    line
      .map((cell, i) =>
        rightAligned.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
      )
      .join(' | ')
      .trimEnd();
  const lines = [
    render(COLUMNS),
    widths.map((w) => '-'.repeat(w)).join('-+-'),
    ...body.map(render),
    '',
    'floor/ratio: load rows (req/s) are compared with a bare node:http server sending the same',
    '  bytes (ratio = Quire req/s ÷ bare req/s, higher is better); timed rows (sequential requests)',
    '  with the same bytes read or written directly through better-sqlite3 in the benchmark',
    '  process, no HTTP (ratio = Quire p50 ÷ floor p50, lower is better).',
  ];
  for (const row of rows)
    for (const note of row.notes)
      lines.push(`  ${row.scenario}: ${note.split('\n').join('\n    ')}`);
  return lines.join('\n');
}

/** Writes the report as JSON (pretty, stable key order) for trend tracking. */
export function writeReport(file: string, report: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
