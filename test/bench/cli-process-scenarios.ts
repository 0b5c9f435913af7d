import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { demoFixture, DEMO_TOKEN } from '../../src/server/fixture/demo-workspace';
import { REPO_ROOT } from './bench-child';
import type { RunContext, Scenario } from './bench-scenario';
import { judgeTimed, ms, type BenchRow, type Target } from './bench-table';
import { clientDirs, withServer } from './sync-scenarios';
import { summarize, type TimingStats } from './timing-stats';

/** The targets, for whole `quire` processes on the demo workspace with nothing changed. */
const SYNC_TARGET: Target = { maxP50Ms: 500 };
const STATUS_TARGET: Target = { maxP50Ms: 300 };
const HELP_TARGET: Target = { maxFloorMultiple: 3 };

const BIN = join(REPO_ROOT, 'bin', 'quire.mjs');

/** Runs of each command (`--quick`: fewer). */
function runsOf(ctx: RunContext): number {
  return ctx.options.quick ? 5 : 15;
}

/** One whole process, from spawn to exit, in milliseconds; throws on an unexpected exit code. */
function timeProcess(args: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', cwd: REPO_ROOT });
  const elapsed = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr.trim()}`);
  }
  return elapsed;
}

const demoProcesses: Scenario = {
  name: 'whole quire processes on the demo workspace',
  target: SYNC_TARGET,
  async run(ctx) {
    // What a user runs after `npm install`: the bundle, built from the sources as they are now.
    timeProcess([join(REPO_ROOT, 'scripts', 'build-cli.mjs')]);
    const runs = runsOf(ctx);
    return withServer(ctx, 'demo-processes', demoFixture(), async (server, dir) => {
      const dirs = clientDirs(dir, 'client');
      try {
        const quire = (...args: string[]) => [BIN, '--home', dirs.home, ...args];
        timeProcess(
          quire('login', '--server', server.url, '--token', DEMO_TOKEN, '--folder', dirs.folder),
        );
        const initial = timeProcess(quire('sync', '--once'));
        ctx.log(`  login and initial sync of the demo workspace (${ms(initial)} ms)`);
        // One unmeasured run of each, so the OS file cache is warm for all alike.
        const commands = {
          sync: quire('sync', '--once'),
          status: quire('status'),
          help: quire('--help'),
          node: ['-e', '0'],
        };
        const samples: Record<keyof typeof commands, number[]> = {
          sync: [],
          status: [],
          help: [],
          node: [],
        };
        for (const args of Object.values(commands)) timeProcess(args);
        // Interleaved, so load that comes and goes falls on every command alike.
        for (let i = 0; i < runs; i++) {
          for (const [name, args] of Object.entries(commands)) {
            samples[name as keyof typeof commands].push(timeProcess(args));
          }
        }
        const stats = {
          sync: summarize(samples.sync),
          status: summarize(samples.status),
          help: summarize(samples.help),
          node: summarize(samples.node),
        };
        ctx.log(
          `  p50: sync --once ${ms(stats.sync.p50Ms)} ms, status ${ms(stats.status.p50Ms)} ms, ` +
            `--help ${ms(stats.help.p50Ms)} ms, node -e 0 ${ms(stats.node.p50Ms)} ms`,
        );
        return processRows(stats, runs);
      } finally {
        dirs.remove();
      }
    });
  },
};

function processRows(
  stats: Record<'sync' | 'status' | 'help' | 'node', TimingStats>,
  runs: number,
): BenchRow[] {
  const floor = { label: 'node -e 0 (a bare Node start and exit)', stats: stats.node };
  const how = `${runs} processes each, interleaved with the other commands; spawn to exit, the CLI bundle (out/cli)`;
  const row = (
    scenario: string,
    target: Target,
    timing: TimingStats,
    notes: readonly string[],
  ): BenchRow => {
    const floorMultiple = timing.p50Ms / stats.node.p50Ms;
    const judged = judgeTimed(target, timing, floorMultiple);
    return {
      scenario,
      target,
      status: 'measured',
      timing,
      floor,
      floorMultiple,
      verdict: judged.verdict,
      notes: [...judged.notes, how, ...notes],
    };
  };
  return [
    row('quire sync --once, demo workspace unchanged', SYNC_TARGET, stats.sync, [
      '3 spaces: lock, cache, organization and space lists, a local scan of each space',
    ]),
    row('quire status, demo workspace unchanged', STATUS_TARGET, stats.status, [
      'cache only, plus the quick scan for edits made since the last sync',
    ]),
    row('quire --help', HELP_TARGET, stats.help, ['judged against node -e 0 measured alongside']),
  ];
}

/** Whole-process rows of `npm run bench:sync`. */
export const cliProcessScenarios: readonly Scenario[] = [demoProcesses];
