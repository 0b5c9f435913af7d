// `npm run bench:ui`: the app's UI on `quire ui` in Chromium. The time from a page file saved on
// disk to the header showing "Up to date" (p50 over 20 saves), against the same status arriving
// on the host's event stream without a browser; and the first paint of the Spaces screen with 200
// spaces and of the Conflicts screen with 50 conflicts, against the same screens empty.
import { existsSync } from 'node:fs';
import { runBenchmark } from './bench-runner';
import { CHROMIUM } from '../ui/renderer-harness';
import { firstPaintScenarios } from './ui-first-paint';
import { saveLatencyScenario } from './ui-save-latency';

async function main(): Promise<number> {
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(`bench:ui needs Chromium at ${CHROMIUM}\n`);
    return 1;
  }
  return runBenchmark('ui', [saveLatencyScenario, ...firstPaintScenarios], process.argv.slice(2));
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
