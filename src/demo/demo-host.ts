import path from 'node:path';
import { QuireApp } from '../main/app/quire-app';
import { createQuireServices } from '../main/cli/create-quire-services';
import { quireHome } from '../main/config/quire-home';
import { openWithSystem } from '../main/ui-host/open-with-system';
import { serveQuireUi, type QuireUi } from '../main/ui-host/serve-quire-ui';
import { DEMO_TOKEN } from '../server/fixture/demo-workspace';
import { APP_NAME } from '../shared/contract/quire-bridge';
import { startDemoServer, type DemoServer } from './demo-server';

export interface DemoHostOptions {
  /** The demo server's database and the demo's own Quire home (never the user's ~/.quire). */
  readonly dataDir: string;
  /** Where the demo workspace is mirrored. */
  readonly folder: string;
  readonly rendererDir: string;
  /** The UI's port; default 0, a free one. */
  readonly uiPort?: number;
  readonly env: NodeJS.ProcessEnv;
  /** Progress lines for the terminal. */
  readonly log?: (line: string) => void;
  /** The background sync stopped (its reason). */
  readonly onWatchStopped?: (message: string) => void;
}

export interface DemoHost {
  /** The UI's URL, with its secret. */
  readonly url: string;
  readonly serverUrl: string;
  readonly app: QuireApp;
  close(): Promise<void>;
}

/**
 * `npm start` without Electron: the embedded server with the demo workspace, a Quire logged in
 * to it with the demo token and mirroring into `folder`, and `quire ui` on top, syncing in the
 * background. The UI answers at once; the first mirror happens while it shows progress.
 */
export async function startDemoHost(options: DemoHostOptions): Promise<DemoHost> {
  const log = options.log ?? (() => undefined);
  const server = await startDemoServer(path.join(options.dataDir, 'server'));
  let app: QuireApp | undefined;
  let ui: QuireUi | undefined;
  try {
    log(`Demo server at ${server.url} (token ${DEMO_TOKEN})`);
    const home = quireHome(path.join(options.dataDir, 'home'));
    app = new QuireApp({
      services: createQuireServices(home),
      appInfo: { name: APP_NAME, version: 'demo' },
      env: options.env,
      runnerNames: { sync: 'npm start (demo)', watch: 'npm start (demo)' },
      host: { openPath: (target) => openWithSystem(target) },
    });
    await app.login({ server: server.url, token: DEMO_TOKEN, folder: options.folder });
    // The first listing enables every space of a small workspace, as the demo wants.
    await app.listSpaces({});
    ui = await serveQuireUi({
      app,
      rendererDir: options.rendererDir,
      ...(options.uiPort !== undefined ? { port: options.uiPort } : {}),
      onWatching: (config) => log(`Syncing the demo workspace into ${config.folder}`),
      ...(options.onWatchStopped ? { onWatchStopped: options.onWatchStopped } : {}),
    });
    await ui.startWatching();
  } catch (error) {
    await closeDemo(ui, app, server);
    throw error;
  }
  const started = { ui, app };
  return {
    url: ui.host.url,
    serverUrl: server.url,
    app,
    close: () => closeDemo(started.ui, started.app, server),
  };
}

async function closeDemo(
  ui: QuireUi | undefined,
  app: QuireApp | undefined,
  server: DemoServer,
): Promise<void> {
  await ui?.close();
  await app?.close();
  await server.close();
}
