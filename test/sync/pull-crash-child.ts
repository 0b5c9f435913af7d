/**
 * Child process of pull-crash.test.ts: one `syncOnce` against the test server, reporting every
 * progress event on stdout as a JSON line so the parent can SIGKILL it at a chosen moment.
 *
 * Usage: node --import tsx pull-crash-child.ts <endpoint> <token> <cache file> <folder>
 */
import { openCacheDatabase } from '../../src/main/cache/open-cache-database';
import { WorkspaceClient } from '../../src/main/remote/workspace-client';
import { SyncEngine } from '../../src/main/sync/sync-engine';

const [endpoint, token, cacheFile, folder] = process.argv.slice(2);
if (!endpoint || !token || !cacheFile || !folder) {
  throw new Error('usage: pull-crash-child.ts <endpoint> <token> <cache file> <folder>');
}
const cache = openCacheDatabase(cacheFile);
const engine = new SyncEngine({
  cache,
  remote: new WorkspaceClient({ endpoint, token }),
  folder,
  clock: { now: () => new Date() },
  onProgress: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
});
const report = await engine.syncOnce();
cache.close();
process.stdout.write(
  `${JSON.stringify({ report: { errors: report.errors, written: report.filesWritten } })}\n`,
);
