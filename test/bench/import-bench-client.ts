// Child process: `quire import` run in-process over the CLI's real services, so its peak RSS is
// the import's own. Prints one JSON line ({ code, ms, maxRssMB, stderr }) and exits.
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { runQuireCli, type CliIo } from '../../src/main/cli/quire-cli';

async function main(): Promise<void> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: {},
    cwd: process.cwd(),
    readStdin: async () => '',
  };
  const started = performance.now();
  const code = await runQuireCli(process.argv.slice(2), io, createQuireServices);
  const ms = performance.now() - started;
  const maxRssMB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ code, ms, maxRssMB, stdout, stderr })}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
