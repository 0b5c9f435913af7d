import { corpusAvailable, SHARED_CORPUS } from './shared-corpus';

/**
 * Vitest global setup: one line, once per run, when the shared corpus is missing, instead of a
 * failure (or a skip notice) in every file that reads it.
 */
export default function corpusNotice(): void {
  if (corpusAvailable) return;
  process.stdout.write(
    `Shared corpus not found at ${SHARED_CORPUS}: the corpus tests are skipped (clone the shared repository beside this checkout to run them).\n`,
  );
}
