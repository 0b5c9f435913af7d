// `npm run bench:server`: API server throughput and latency under autocannon, each scenario
// compared with a bare node:http server measured in the same run. See bench-options.ts for flags.
import { runBenchmark } from './bench-runner';
import { serverScenarios } from './server-scenarios';

runBenchmark('server', serverScenarios, process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
