import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * GitBook's public documentation as Git Sync wrote it, in `shared/` beside the checkout (CI clones
 * the repository next to it). A fresh clone has no `../shared`: the tests that read the corpus
 * skip, and vitest's global setup (corpus-notice.ts) says so in one line.
 */
export const SHARED_CORPUS = fileURLToPath(
  new URL('../../../shared/corpus/gitbook-public-docs', import.meta.url),
);

/** Whether the corpus is there: `describe.skipIf(!corpusAvailable)` around what reads it. */
export const corpusAvailable = existsSync(join(SHARED_CORPUS, 'docs.yaml'));
