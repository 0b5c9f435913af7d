// The demo host's entry point: scripts/start.mjs runs it through tsx.
import { demoMain } from './demo-main';

demoMain(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`quire demo: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
