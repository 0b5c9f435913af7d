import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { onBenchExit, REPO_ROOT } from './bench-child';
import { BENCH_USAGE, parseBenchOptions, UsageError } from './bench-options';
import type { RunContext, Scenario } from './bench-scenario';
import { describeTarget, formatTable, writeReport, type BenchRow } from './bench-table';

/**
 * Runs `scenarios` one after another, prints the shared table on stdout and writes it as JSON to
 * bench-results/<name>.json. Returns the exit code: 0 when every scenario ran (missed targets
 * included — the table says so), 1 when the harness failed for some scenario, 2 on bad flags.
 */
export async function runBenchmark(
  name: string,
  scenarios: readonly Scenario[],
  argv: readonly string[],
): Promise<number> {
  let options;
  try {
    options = parseBenchOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${BENCH_USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${BENCH_USAGE}\n`);
    return 0;
  }
  const only = options.only?.toLowerCase();
  const selected = only
    ? scenarios.filter((s) => s.name.toLowerCase().includes(only))
    : [...scenarios];
  if (selected.length === 0) {
    process.stderr.write(`No scenario matches --only ${options.only}\n`);
    return 2;
  }

  const workDir = mkdtempSync(join(tmpdir(), `quire-bench-${name}-`));
  onBenchExit(() => rmSync(workDir, { recursive: true, force: true }));
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const ctx: RunContext = {
    options: {
      connections: options.connections,
      durationS: options.durationS,
      warmupS: options.warmupS,
      quick: options.quick,
    },
    workDir,
    log,
  };

  const startedAt = new Date().toISOString();
  const loadBefore = loadavg()[0] ?? 0;
  log(
    `bench ${name}: ${selected.length} scenario(s), ${options.connections} connections, ` +
      `${options.durationS} s per measurement (+${options.warmupS} s warm-up), ${cpus().length} CPUs`,
  );
  const rows: BenchRow[] = [];
  for (const [index, scenario] of selected.entries()) {
    const load1 = Math.round((loadavg()[0] ?? 0) * 100) / 100;
    log(`[${index + 1}/${selected.length}] ${scenario.name} (1-min load ${load1.toFixed(2)})`);
    try {
      const result = await scenario.run(ctx);
      for (const row of Array.isArray(result) ? result : [result]) rows.push({ ...row, load1 });
    } catch (error) {
      rows.push({
        scenario: scenario.name,
        target: scenario.target,
        status: 'error',
        load1,
        verdict: 'ERROR',
        notes: [`harness error: ${error instanceof Error ? error.message : String(error)}`],
      });
    }
  }

  process.stdout.write(`\n${formatTable(rows)}\n`);
  const loadAfter = loadavg()[0] ?? 0;
  const loads = [loadBefore, loadAfter, ...rows.flatMap((row) => row.load1 ?? [])];
  const loadText =
    `1-min load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after ` +
    `(at most ${Math.max(...loads).toFixed(1)} at a scenario start), on ${cpus().length} CPUs`;
  // The ratios absorb a uniformly slow machine, not one whose other work comes and goes.
  process.stdout.write(
    Math.max(...loads) > cpus().length
      ? `\nwarning: the machine was busy (${loadText}): figures are unreliable\n`
      : `\n${loadText}\n`,
  );
  const file = join(REPO_ROOT, 'bench-results', `${name}.json`);
  writeReport(file, {
    benchmark: name,
    startedAt,
    finishedAt: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    options: ctx.options,
    loadAverage: { before: loadBefore, after: loadAfter },
    rows: rows.map((row) => ({ ...row, targetText: describeTarget(row.target) })),
  });
  log(`\nwrote ${file}`);
  return rows.some((row) => row.verdict === 'ERROR') ? 1 : 0;
}
