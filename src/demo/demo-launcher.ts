import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_TOKEN } from '../server/fixture/demo-workspace';
import type { DemoServer, DemoServerOptions } from './demo-server';

/** The demo server for a desktop host: started on demand, once, and closed with the app. */
export interface DemoLauncher {
  /** Starts the embedded server with the demo workspace (once); its URL and the demo token. */
  start(): Promise<{ server: string; token: string }>;
  /** Whether `server` is this launcher's demo server (a home logged in to it last time). */
  serves(server: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The "Try the demo workspace" port of a composition root (the Electron main): the server's
 * database in `dataDir`, loaded only when first asked for (the app starts without the server).
 */
export function demoLauncher(dataDir: string, options: DemoServerOptions = {}): DemoLauncher {
  let started: Promise<DemoServer> | undefined;
  return {
    start: async () => {
      started ??= import('./demo-server').then(({ startDemoServer }) =>
        startDemoServer(dataDir, options),
      );
      const server = await started.catch((error: unknown) => {
        started = undefined;
        throw error;
      });
      return { server: server.url, token: DEMO_TOKEN };
    },
    // The demo server keeps its port across runs (see startDemoServer): its URL is known unstarted.
    serves: async (server) => {
      const port = (await readFile(path.join(dataDir, 'port'), 'utf8').catch(() => '')).trim();
      return port !== '' && server === `http://127.0.0.1:${port}`;
    },
    close: async () => {
      const server = await started?.catch(() => undefined);
      started = undefined;
      await server?.close();
    },
  };
}
