// Child process: the Quire server under test, on a fresh SQLite file, loaded with a fixture.
// Started by the benchmark (see bench-child.ts); reports its URL over IPC.
import { parseArgs } from 'node:util';
import { buildServer } from '../../src/server/build-server';
import { systemClock } from '../../src/server/clock';
import { openDatabase } from '../../src/server/db/open-database';
import { loadFixture, readFixture } from '../../src/server/fixture/load-fixture';
import { exitWithParent, failToParent, sendToParent } from './bench-child';

async function main(): Promise<void> {
  exitWithParent();
  const { values } = parseArgs({
    options: { db: { type: 'string' }, fixture: { type: 'string' } },
  });
  if (!values.db || !values.fixture) throw new Error('--db and --fixture are required');

  const started = performance.now();
  const db = openDatabase(values.db);
  loadFixture(db, readFixture(values.fixture), systemClock);
  const loadMs = Math.round(performance.now() - started);

  const server = buildServer({
    db,
    logger: false,
    // The load generator uses one token for hundreds of thousands of requests.
    config: { rateLimitMax: 10_000_000, sweepIntervalMs: 0 },
  });
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  server.ctx.urls.rebase(url);

  const shutdown = () => {
    // Bounded: a stuck close must not keep the process alive.
    setTimeout(() => process.exit(0), 3_000).unref();
    void server.close().finally(() => {
      db.close();
      process.exit(0);
    });
  };
  process.once('SIGTERM', shutdown);
  await sendToParent({ type: 'ready', url, info: { loadMs } });
}

main().catch(failToParent);
