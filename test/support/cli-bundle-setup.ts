import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: (re)builds the `quire` bundle when a source changed since it was built, so
 * the tests that spawn bin/quire.mjs run what `npm install` gives a user, and each process starts
 * in a fraction of the time tsx takes. A source saved during the run makes bin/quire.mjs fall back
 * to the sources again, so a test never runs stale code.
 */
export default function buildCliBundle(): void {
  const script = fileURLToPath(new URL('../../scripts/build-cli.mjs', import.meta.url));
  const result = spawnSync(process.execPath, [script, '--if-stale', '--quiet'], {
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    // Not fatal: bin/quire.mjs runs the sources through tsx without a bundle.
    process.stdout.write(
      `Could not bundle the quire CLI (${result.stderr.trim() || result.error?.message}); the tests run it through tsx.\n`,
    );
  }
}
