import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildServer, type QuireServer } from '../server/build-server';
import { systemClock } from '../server/clock';
import { openDatabase, type Db } from '../server/db/open-database';
import { demoFixture } from '../server/fixture/demo-workspace';
import { isDatabaseEmpty, loadFixture } from '../server/fixture/load-fixture';

export interface DemoServerOptions {
  /** The CPU workers' entry in a bundled build (see src/server/workers/cpu-worker-entry.ts). */
  cpuWorkerFile?: string;
}

export interface DemoServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The embedded server with the demo workspace, its database in `dataDir` (loaded on first use).
 * It listens on the port it had last time: the demo's Quire home stays logged in to this very
 * URL across runs (a home keeps its server). The first run takes a free port.
 */
export async function startDemoServer(
  dataDir: string,
  options: DemoServerOptions = {},
): Promise<DemoServer> {
  await mkdir(dataDir, { recursive: true });
  const db = openDatabase(path.join(dataDir, 'server.db'));
  let server: QuireServer | undefined;
  try {
    if (isDatabaseEmpty(db)) loadFixture(db, demoFixture(), systemClock);
    server = buildServer({ db, logger: false, config: { cpuWarmThreads: 0, ...options } });
    const portFile = path.join(dataDir, 'port');
    const remembered = await readPort(portFile);
    const address = await server.app
      .listen({ port: remembered ?? 0, host: '127.0.0.1' })
      .catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EADDRINUSE') throw error;
        throw new Error(
          `port ${remembered} of the demo server (kept in ${portFile}) is in use: is another ` +
            '`npm start` running? Stop it, or start a separate demo with --data <dir> --folder <dir>',
        );
      });
    server.ctx.urls.rebase(address);
    if (remembered === undefined) await writeFile(portFile, `${new URL(address).port}\n`);
    const started = server;
    return { url: address, close: () => closeAll(started, db) };
  } catch (error) {
    await closeAll(server, db);
    throw error;
  }
}

async function closeAll(server: QuireServer | undefined, db: Db): Promise<void> {
  await server?.close();
  db.close();
}

async function readPort(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const port = Number(text?.trim());
  return text !== undefined && Number.isInteger(port) && port > 0 && port < 65536
    ? port
    : undefined;
}
