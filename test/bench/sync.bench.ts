// `npm run bench:sync`: the desktop sync engine against the Quire server (each in a child process
// of its own): the initial mirror of a large space against the same files and cache rows written
// directly, a sync with nothing changed over 200 spaces, and the push side: save-to-server latency
// under the watch loop, a burst of 1,000 edited files, a drain against a rate-limited server, and
// whole `quire` processes (sync --once, status, --help) on the demo workspace.
// See SYNC_USAGE for flags.
import { parseArgs } from 'node:util';
import { runBenchmark } from './bench-runner';
import { changeRequestDiffScenarios } from './change-request-diff-scenarios';
import { cliProcessScenarios } from './cli-process-scenarios';
import { firstSyncScenarios } from './first-sync-scenarios';
import { importScenarios } from './import-scenarios';
import { pushScenarios } from './push-scenarios';
import { syncScenarios } from './sync-scenarios';

const SYNC_USAGE = `Usage: npm run bench:sync -- [options]
  --quick             a 500-page space, one initial mirror and 3 unchanged syncs, 20 saves,
                      a burst of 200 files and a drain of 50, for a fast check
  --only <text>       run only the scenarios whose name contains <text> (case-insensitive):
                      "initial mirror", "200 spaces", "latency", "burst", "retry-after",
                      "quire processes" (sync --once, status and --help as whole processes),
                      "first sync" (200 spaces + 2,000 pages) or "images" (800 pages + 600
                      images), the last two as whole \`quire sync --once\` processes,
                      "change-request diff" (200 of 2,000 pages, offline) or "quire import"
                      (1,000 pages and 200 images: time and peak RSS)
  -h, --help          this text`;

/** The shared runner also takes the load flags of bench:server; they mean nothing here. */
function checkFlags(argv: readonly string[]): 'run' | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  return values.help === true ? 'help' : 'run';
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  let action: 'run' | 'help';
  try {
    action = checkFlags(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${SYNC_USAGE}\n`);
    return 2;
  }
  if (action === 'help') {
    process.stdout.write(`${SYNC_USAGE}\n`);
    return 0;
  }
  return runBenchmark(
    'sync',
    [
      ...syncScenarios,
      ...pushScenarios,
      ...cliProcessScenarios,
      ...firstSyncScenarios,
      ...changeRequestDiffScenarios,
      ...importScenarios,
    ],
    argv,
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
