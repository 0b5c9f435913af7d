import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LoadStats } from './measure-load';

/** What a scenario must achieve; an empty target makes the row informational. */
export interface Target {
  /** Minimum throughput as a fraction of the baseline's, measured in the same run. */
  minRatio?: number;
  /** p99 latency must be strictly under this. */
  maxP99Ms?: number;
}

export type Verdict = 'PASS' | 'FAIL' | 'INFO' | 'N/A' | 'ERROR';

/** One line of the report: every scenario ends as one, whatever happened to it. */
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
  verdict: Verdict;
  notes: string[];
}

export function describeTarget(target: Target): string {
  const parts: string[] = [];
  if (target.minRatio !== undefined) parts.push(`≥${Math.round(target.minRatio * 100)}% base`);
  if (target.maxP99Ms !== undefined) parts.push(`p99<${target.maxP99Ms}ms`);
  return parts.length > 0 ? parts.join(', ') : '—';
}

/**
 * PASS/FAIL against the target; any error or non-2xx response fails the row (its numbers lie).
 * Notes list the failures first, then warnings that do not change the verdict.
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
  const hasTarget = target.minRatio !== undefined || target.maxP99Ms !== undefined;
  const verdict = failures.length > 0 ? 'FAIL' : hasTarget ? 'PASS' : 'INFO';
  return { verdict, notes: [...failures, ...warnings] };
}

function pct(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

function num(value: number | undefined, digits = 0): string {
  if (value === undefined || Number.isNaN(value)) return '-';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

const COLUMNS = [
  'scenario',
  'target',
  'req/s',
  'p50 ms',
  'p99 ms',
  'errors/non-2xx',
  'baseline req/s',
  'ratio',
  'verdict',
] as const;

function cells(row: BenchRow): string[] {
  const s = row.subject;
  // With nothing completed, autocannon's zero latencies would read as "instant".
  const latency = s && s.requests > 0 ? s : undefined;
  return [
    row.scenario,
    describeTarget(row.target),
    num(s?.rps),
    // autocannon records latency in whole milliseconds.
    num(latency?.p50Ms),
    num(latency?.p99Ms),
    s ? `${s.errors}/${s.non2xx}` : '-',
    num(row.baseline?.stats.rps),
    row.ratio === undefined ? '-' : pct(row.ratio),
    row.verdict,
  ];
}

/** A plain-text table (numbers right-aligned), followed by one note line per remark. */
export function formatTable(rows: readonly BenchRow[]): string {
  const body = rows.map(cells);
  const widths = COLUMNS.map((title, i) =>
    Math.max(title.length, ...body.map((line) => (line[i] ?? '').length)),
  );
  const leftAligned = new Set([0, 1, 8]);
  const render = (line: readonly string[]) =>
    line
      .map((cell, i) =>
        leftAligned.has(i) ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0),
      )
      .join(' | ');
  const lines = [
    render(COLUMNS),
    widths.map((w) => '-'.repeat(w)).join('-+-'),
    ...body.map(render),
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
